import Foundation
import GoogleAPI
import Interchange
import Logging
import SheetSyncCore
import SheetSyncStore

/// `sheetsync init` and `auth login`: a ledger's workbook created or linked, its store bound to it, and
/// Google sign-in (`LedgerSetup+Auth.swift`).
public struct LedgerSetup: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Creates the remote workbook when it does not exist (five tabs, headers, the Settings row), then
    /// syncs, which binds the store to the workbook's dataset. `init` never destroys: an existing
    /// workbook is linked, and a workbook recreated for an existing store gets every row of the store.
    /// - Parameter starterCategories: give a new ledger a handful of common categories (not `--empty`).
    /// - Parameter timeZone: a new dataset's zone (`--timezone`); nil: the config's, else the system's.
    /// - Parameter forms: the ledger's `dateOrder` and `decimalSeparator` (`--date-order`,
    ///   `--decimal-separator`); nil ones: a new ledger's from the locale (`Config.localForms`), an
    ///   existing one's as they are.
    public func initialize(
        dryRun: Bool, starterCategories: Bool = true, timeZone: String? = nil,
        forms: (dateOrder: LocalForms.DateOrder?, decimalSeparator: LocalForms.DecimalSeparator?) = (nil, nil)
    ) async throws -> SyncReport {
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            let guess = SystemTimeZone.suggestion(for: timeZone).map { " (did you mean '\($0)'?)" } ?? " (such as Europe/Berlin)"
            throw SheetSyncError(.usage, "--timezone '\(timeZone)' is not an IANA time zone\(guess)")
        }
        let configured = try workspace.makeRemote()
        return try await workspace.withWorkbook(configured, preview: dryRun) { store in
            var remote = configured
            var notices: [String] = []
            let bound = try store.state(SyncEngine.stateDataset).map { !$0.isEmpty } ?? false
            if try await !remote.exists() {
                let (settings, zone) = try settingsRecord(store, timeZone: timeZone)
                if let zone { notices.append(zone) }
                // Rows the store held before this run: a workbook made from them is "recreated".
                let storeRows = try Tab.allCases.filter { $0 != .settings }.reduce(0) { $0 + (try store.records(in: $1).count) }
                if starterCategories, try store.records(in: .categories).isEmpty {
                    let now = workspace.clock.now()
                    try store.write { writer in
                        for category in NewCategory.starters {
                            try writer.upsert(try Categories.record(category, existing: [], now: now), in: .categories)
                        }
                    }
                    notices.append("added \(NewCategory.starters.count) starter categories (`sheetsync category list`)")
                }
                let from = storeRows > 0 ? " from the store's \(storeRows) rows" : ""
                if dryRun {
                    var report = SyncReport(command: "init", dryRun: true)
                    report.changes = ["create \(remote.displayName) with dataset \(settings[.datasetId])\(from)"] + notices
                    return report
                }
                explainServiceAccountCreation()
                if storeRows > 0 {
                    // Every row of the store goes to the new workbook: with no base, nothing reads as deleted.
                    try store.forgetBase()
                }
                let created = try await remote.create(settings: settings)
                if !created.configEntries.isEmpty { try remember(created.configEntries) }
                remote = created.remote
                // Named as made (a new spreadsheet has its id only now).
                notices.append(
                    storeRows > 0 ? "recreated \(remote.displayName)\(from)" : "created \(remote.displayName) with the five tabs")
            } else if let timeZone {
                notices.append(
                    "--timezone \(timeZone) applies to a new ledger only: this one keeps the timezone of its Settings tab "
                        + "(change that cell to move it)")
            }
            if let line = try setLocalForms(store, forms, bound: bound) { notices.append(line) }
            var report = try await workspace.engine(store: store, remote: remote).run(SyncOptions(mode: .sync, dryRun: dryRun))
            report.command = "init"
            report.headlines = notices + report.headlines
            return report
        }
    }

    /// A service account has no Drive storage of its own: Google refuses it new spreadsheets and files in
    /// My Drive. Said before trying, with what works instead.
    private func explainServiceAccountCreation() {
        // Only decides whether to warn; the credentials are loaded for real, errors and all, to sign in.
        guard case .google(let google) = workspace.config.remote, google.spreadsheetId == nil,
            case .serviceAccount(let account)? = try? GoogleCredentials.load(path: google.credentials.path)
        else { return }
        let text =
            "creating a spreadsheet as service account \(account.clientEmail), which Google allows only on a shared drive; "
            + GoogleAPIError.serviceAccountHint
        workspace.logger.warning("\(text)")
    }

    /// Writes what `create` made (a new spreadsheet's id) into the config's `remote` object, so later runs find it.
    private func remember(_ entries: [String: String]) throws {
        let settings = entries.sorted { $0.key < $1.key }.map { "remote.\($0.key) to \($0.value)" }.joined(separator: " and ")
        guard let source = workspace.config.source else {
            throw SheetSyncError.configuration("created \(settings.replacingOccurrences(of: " to ", with: " = ")); put it in the config")
        }
        let data = try Data(contentsOf: source)
        guard var json = try JSONSerialization.jsonObject(with: data) as? [String: Any], var remote = json["remote"] as? [String: Any]
        else {
            throw SheetSyncError.configuration("\(source.path) is not a JSON object; set \(settings) by hand")
        }
        for (key, value) in entries { remote[key] = value }
        json["remote"] = remote
        let out = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let temp = source.deletingLastPathComponent().appendingPathComponent(".\(source.lastPathComponent).tmp")
        try out.write(to: temp)
        // rename(2), not FileManager.replaceItemAt: on Linux that one leaves the config missing.
        guard rename(temp.path, source.path) == 0 else {
            throw SheetSyncError.configuration("cannot update \(source.path) (errno \(errno)); set \(settings) by hand")
        }
    }

    /// Records the ledger's `LocalForms` in the store: the ones given, else for a store not bound to a
    /// dataset yet the locale's (a bound store without them keeps reading `LocalForms.standard`, as it
    /// always did). Returns the line that says what it set, nil when nothing changed.
    private func setLocalForms(
        _ store: LedgerStore, _ given: (dateOrder: LocalForms.DateOrder?, decimalSeparator: LocalForms.DecimalSeparator?),
        bound: Bool
    ) throws -> String? {
        let recorded = try store.state(SyncEngine.stateDateOrder) != nil
        let current = try workspace.localForms(store)
        let base = recorded || bound ? current : workspace.config.localForms
        let forms = LocalForms(
            dateOrder: given.dateOrder ?? base.dateOrder, decimalSeparator: given.decimalSeparator ?? base.decimalSeparator)
        guard !recorded || forms != current else { return nil }
        guard !(bound && !recorded && given.dateOrder == nil && given.decimalSeparator == nil) else { return nil }
        try store.setState(SyncEngine.stateDateOrder, forms.dateOrder.rawValue)
        try store.setState(SyncEngine.stateDecimalSeparator, forms.decimalSeparator.rawValue)
        let source = given.dateOrder != nil || given.decimalSeparator != nil ? "as given" : "from \(workspace.config.localFormsSource)"
        return "dates typed with the year last read \(forms.dateOrder.words) (dateOrder \(forms.dateOrder.rawValue)) and amounts "
            + "with a decimal '\(forms.decimalSeparator.rawValue)' (decimalSeparator), \(source); "
            + "`sheetsync init --date-order dmy|mdy|ymd --decimal-separator .|,` chooses another"
    }

    /// The store's Settings row, or a new dataset's with the line that says which time zone it took.
    private func settingsRecord(_ store: LedgerStore, timeZone: String?) throws -> (LedgerRow, String?) {
        if let existing = try store.records(in: .settings).first { return (existing, nil) }
        let stamp = workspace.clock.now().description
        let zone = timeZone ?? workspace.config.timezone
        let source = timeZone == nil ? workspace.config.timezoneSource : "--timezone"
        let record = LedgerRow([
            .datasetId: try store.state(SyncEngine.stateDataset) ?? workspace.newID(), .schemaVersion: "1", .timezone: zone,
            .rootFolderId: "", .dataSpreadsheetId: "", .receiptsFolderId: "", .createdAt: stamp, .lastModifiedAt: stamp,
        ])
        try store.upsert(record, in: .settings)
        try store.setState(SyncEngine.stateDataset, record[.datasetId])
        return (record, "time zone \(zone) (from \(source)); `sheetsync init --timezone ZONE` chooses another")
    }
}
