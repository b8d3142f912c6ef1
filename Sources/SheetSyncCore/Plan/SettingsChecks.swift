import Foundation
import SheetValues

/// The Settings tab holds the dataset's one row, and its `timezone` decides every local date (`add`,
/// `report`, `materialize`): a name that is no time zone, or a second row, is rejected rather than
/// read as UTC or as another dataset.
enum SettingsChecks {
    /// IANA zone names as this system knows them.
    private static let zones = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "GMT"])

    /// The problem with `name` as a time zone; nil for a known zone (or an empty cell, a required
    /// field's own problem).
    static func timeZoneProblem(_ name: String) -> FieldProblem? {
        // The list can lack a name the system resolves (`Etc/UTC` on Linux); a name it resolves to
        // something else (another case, an unknown name read as GMT) is no zone.
        guard !name.isEmpty, !zones.contains(name), TimeZone(identifier: name)?.identifier != name else { return nil }
        let match = zones.sorted().first { $0.lowercased() == name.lowercased() }
        return FieldProblem(
            field: "timezone", value: name, message: "'\(name)' is not a time zone",
            hint: match.map { "did you mean '\($0)'? zone names are case-sensitive" }
                ?? "use an IANA zone name such as America/New_York or Europe/Berlin", code: .invalidSettings)
    }

    /// Rejects every loadable Settings row but one: the one whose `datasetId` the store knows (`known`),
    /// else the first.
    static func keepOne(_ rows: inout [SheetRow], known: Set<String>) {
        let loadable = rows.indices.filter { if case .record = rows[$0].outcome { return true } else { return false } }
        guard loadable.count > 1 else { return }
        let kept = loadable.first { rows[$0].key.map(known.contains) ?? false } ?? loadable[0]
        let keptId = rows[kept].key ?? ""
        for i in loadable where i != kept {
            rows[i].outcome = .rejected([
                FieldProblem(
                    field: "datasetId", value: rows[i].key ?? "",
                    message: "a second Settings row: the tab holds the dataset's one row (datasetId \(keptId))",
                    hint: "delete this row; a workbook of another dataset comes in with `sheetsync import`", code: .invalidSettings)
            ])
            rows[i].cells = []
        }
    }
}
