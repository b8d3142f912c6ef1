import Foundation
import GoogleAPI
import Interchange
import SheetSyncCore
import SheetSyncStore

extension Workspace {
    /// Creates the remote workbook when it does not exist (five tabs, headers, the Settings row), then
    /// syncs, which binds the store to the workbook's dataset. `init` never destroys: an existing
    /// workbook is linked, and a workbook recreated for an existing store gets every row of the store.
    /// - Parameter starterCategories: give a new ledger a handful of common categories (not `--empty`).
    public func initialize(dryRun: Bool, starterCategories: Bool = true) async throws -> SyncReport {
        let remote = try makeRemote()
        return try await withStore(preview: dryRun) { store in
            var notices: [String] = []
            if try await !remote.exists() {
                let settings = try settingsRecord(store)
                if starterCategories, try store.records(in: .categories).isEmpty {
                    let now = clock.now()
                    try store.write { writer in
                        for category in NewCategory.starters {
                            try writer.upsert(try Self.categoryRecord(category, existing: [], now: now), in: .categories)
                        }
                    }
                    notices.append("added \(NewCategory.starters.count) starter categories (`sheetsync category list`)")
                }
                let rows = try Tab.allCases.filter { $0 != .settings }.reduce(0) { $0 + (try store.records(in: $1).count) }
                let from = rows > 0 ? " from the store's \(rows) rows" : ""
                if dryRun {
                    var report = SyncReport(command: "init", dryRun: true)
                    report.changes = ["create \(remote.displayName) with dataset \(settings["datasetId"])\(from)"] + notices
                    return report
                }
                explainServiceAccountCreation()
                if rows > 0 {
                    // Every row of the store goes to the new workbook: with no base, nothing reads as deleted.
                    try store.forgetBase()
                    notices.append("recreated \(remote.displayName)\(from)")
                }
                try await remote.create(settings: settings)
                if let google = remote as? GoogleSheetsRemote, let id = google.spreadsheetId { try rememberSpreadsheet(id) }
            }
            var report = try await engine(store: store, remote: remote).run(SyncOptions(mode: .sync, dryRun: dryRun))
            report.command = "init"
            report.headlines = notices + report.headlines
            return report
        }
    }

    /// A service account has no Drive storage of its own: Google refuses it new spreadsheets and files in
    /// My Drive. Said before trying, with what works instead.
    private func explainServiceAccountCreation() {
        guard case .google(let google) = config.remote, google.spreadsheetId == nil,
            case .serviceAccount(let account)? = try? GoogleCredentials.load(path: google.credentials.path)
        else { return }
        let text = "creating a spreadsheet as service account \(account.clientEmail), which Google allows only on a shared drive; "
            + GoogleAPIError.serviceAccountHint
        logger.warning("\(text)")
    }

    /// Writes a new spreadsheet's id into the config file, so later runs find it.
    private func rememberSpreadsheet(_ id: String) throws {
        guard let source = config.source else {
            throw SheetSyncError.configuration("created spreadsheet \(id); put it in the config as remote.spreadsheetId")
        }
        let data = try Data(contentsOf: source)
        guard var json = try JSONSerialization.jsonObject(with: data) as? [String: Any], var remote = json["remote"] as? [String: Any] else {
            throw SheetSyncError.configuration("\(source.path) is not a JSON object; set remote.spreadsheetId to \(id) by hand")
        }
        remote["spreadsheetId"] = id
        json["remote"] = remote
        let out = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let temp = source.deletingLastPathComponent().appendingPathComponent(".\(source.lastPathComponent).tmp")
        try out.write(to: temp)
        // rename(2), not FileManager.replaceItemAt: on Linux that one leaves the config missing.
        guard rename(temp.path, source.path) == 0 else {
            throw SheetSyncError.configuration("cannot update \(source.path) (errno \(errno)); set remote.spreadsheetId to \(id) by hand")
        }
    }

    /// The store's Settings row, or a new dataset's.
    private func settingsRecord(_ store: LedgerStore) throws -> Record {
        if let existing = try store.records(in: .settings).first { return existing }
        let stamp = clock.now().description
        let record = Record([
            "datasetId": try store.state(SyncEngine.stateDataset) ?? newID(), "schemaVersion": "1", "timezone": config.timezone,
            "rootFolderId": "", "dataSpreadsheetId": "", "receiptsFolderId": "", "createdAt": stamp, "lastModifiedAt": stamp,
        ])
        try store.upsert(record, in: .settings)
        try store.setState(SyncEngine.stateDataset, record["datasetId"])
        return record
    }
}
