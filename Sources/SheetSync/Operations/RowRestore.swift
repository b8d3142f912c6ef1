import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// What `sheetsync restore` did or would do.
public struct RestoreReport: Codable, Sendable {
    public struct Entry: Codable, Sendable {
        public var tab: String
        public var id: String
        public var deletedAt: String
        public var reason: String
        /// The store has a row with this key again (restored, or added anew): nothing to restore.
        public var inStore = false
        /// What the row held, to tell rows apart: `2026-01-05 12.50 Dining "lunch"`.
        public var summary: String?
    }

    public var dryRun: Bool
    public var restored: [Entry] = []
    /// Rows skipped because the store holds their key again.
    public var skipped: [Entry] = []

    public var lines: [String] {
        let verb = dryRun ? "would restore" : "restored"
        return restored.map { "\(verb) \($0.tab) \($0.id) (\($0.reason) at \($0.deletedAt))" }
            + skipped.map { "skipped \($0.tab) \($0.id): the store has a row with that key again" }
    }
}

/// `sheetsync restore`: rows deleted from the store (kept `keptDays`) listed and brought back.
public struct RowRestore: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// How long deleted rows are kept for `restore` (at least 90 days).
    static let keptDays = 90

    /// Deleted rows kept for restore, newest first (`since`: an ISO date or timestamp).
    public func list(since: String?) async throws -> [RestoreReport.Entry] {
        try await workspace.withStore(preview: true) { store in
            try store.deletedRows(since: try Self.instant(since, zone: try workspace.timeZone(store: store))).map(RestoreReport.Entry.init)
        }
    }

    /// `--since` as the store's deletion times are written (UTC, canonical): an ISO 8601 time (any
    /// offset), or a date, meaning its start in the dataset's time zone. Anything else is a usage error.
    static func instant(_ since: String?, zone: TimeZone) throws -> String? {
        guard let since else { return nil }
        let text = since.trimmingCharacters(in: .whitespaces)
        if let day = LocalDate(iso: text) { return Timestamp(startOf: day, in: zone).description }
        if let time = FieldParser.timestamp(.text(text)) { return time.description }
        throw SheetSyncError(
            .usage, "--since '\(since)' is neither a date (2026-11-01) nor an ISO 8601 time (2026-11-01T09:30:00+01:00)")
    }

    /// Brings back rows a run (or a person) deleted from the store: the rows with these ids, or every
    /// row deleted since `since`. They become local changes, and the next sync writes them to the workbook.
    public func restore(ids: [String], since: String?, dryRun: Bool) async throws -> RestoreReport {
        guard !ids.isEmpty || since != nil else {
            throw SheetSyncError(.usage, "name the rows to restore by id, or give --since TIME (`sheetsync restore --list` shows them)")
        }
        return try await workspace.withStore(preview: dryRun) { store in
            let wanted = Set(ids.map { FieldParser.canonicalUUID($0) ?? $0 })
            let from = try Self.instant(since, zone: try workspace.timeZone(store: store))
            let rows = try store.deletedRows(since: from).filter { wanted.isEmpty || wanted.contains($0.key) }
            let missing = wanted.subtracting(rows.map(\.key))
            guard missing.isEmpty else {
                throw SheetSyncError(
                    .usage,
                    "no deleted row with id \(missing.sorted().joined(separator: ", ")) is kept (`sheetsync restore --list` shows them)")
            }
            let (restored, skipped) = try store.restore(rows, now: workspace.clock.now())
            return RestoreReport(
                dryRun: dryRun, restored: restored.map(RestoreReport.Entry.init),
                skipped: skipped.map(RestoreReport.Entry.init))
        }
    }
}

extension RestoreReport.Entry {
    init(_ row: DeletedRow) {
        self.init(
            tab: row.tab.rawValue, id: row.key, deletedAt: row.deletedAt, reason: row.reason, inStore: row.inStore,
            summary: Self.summary(row))
    }

    /// The fields a person knows a row by, per tab, from the row as it was kept.
    static func summary(_ row: DeletedRow) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(row.json.utf8)) as? [String: Any] else { return "" }
        func field(_ key: FieldKey) -> String {
            switch object[key.rawValue] {
            case let text as String: return text
            case let number as NSNumber: return number.stringValue
            default: return ""
            }
        }
        let names: [FieldKey]
        switch row.tab {
        case .transactions: names = [.date, .type, .amount, .category]
        case .recurringRules: names = [.cadence, .type, .amount, .category]
        case .receipts: names = [.fileName, .transactionId]
        case .categories: names = [.type]
        case .settings: names = [.timezone]
        }
        var parts = names.map(field).filter { !$0.isEmpty }
        if !field(.note).isEmpty { parts.append("\"\(field(.note))\"") }
        return parts.joined(separator: " ")
    }
}
