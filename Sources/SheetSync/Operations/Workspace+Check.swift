import Foundation
import SheetSyncCore
import SheetSyncStore

extension Workspace {
    /// Validates a workbook (the configured remote, or the CSV folder / `.xlsx` at `path`) the way a
    /// sync would read it, changing nothing anywhere. Every problem row is reported.
    public func check(path: String?) async throws -> SyncReport {
        let remote: any Remote
        if let path {
            remote = try Self.remote(at: URL(fileURLWithPath: path))
        } else {
            remote = try makeRemote()
        }
        guard try await remote.exists() else {
            if path == nil { try await requireLedger() }
            let what = path == nil ? "the configured workbook" : "\(path ?? "") is not a workbook"
            let holds = Tab.allCases.map { remote.location(of: $0) }.joined(separator: ", ")
            throw SheetSyncError.configuration(
                "\(what): \(remote.displayName) has none of its tabs (\(holds)); `sheetsync init` creates a new workbook there")
        }
        let snapshot = try await remote.read()
        let now = clock.now()
        let (plan, loadable) = WorkbookCheck.plan(snapshot.tables, now: now, newID: newID)
        var report = SyncReport(command: "check", dryRun: true)
        report.notices += snapshot.notices
        report.errors = plan.tabErrors.map { error in
            guard plan.missingTabs.contains(error.tab) else { return error.description }
            return "\(error.tab.rawValue): \(remote.location(of: error.tab)) is missing; restore it from a backup, or add a tab "
                + "named \(error.tab.rawValue) whose first row is: \(TablePatcher.newHeader(error.tab.schema).joined(separator: ","))"
        }
        report.errors += plan.held
        if path == nil, let mismatch = try datasetMismatch(plan.settings, remote: remote) { report.errors.append(mismatch) }
        report.fill(plans: plan.tabs, previous: [])
        // Against an empty store every readable row is new: the count is the tab's loadable rows.
        for (tab, count) in loadable { report.tabs[tab.rawValue]?.added = count }
        ExitArena.keep((plan, snapshot))
        return report
    }

    /// What `sync` would refuse (exit 78) about the configured workbook: a Settings row of another
    /// dataset than the store is bound to. Read from the store without writing; nil without a store.
    private func datasetMismatch(_ settings: LedgerRow?, remote: any Remote) throws -> String? {
        guard let settings, FileManager.default.fileExists(atPath: config.store.path),
            let bound = try readOnlyStore().state(SyncEngine.stateDataset), !bound.isEmpty, bound != settings["datasetId"]
        else { return nil }
        return "\(remote.displayName) belongs to dataset \(settings["datasetId"]) but the store \(config.store.path) is bound to "
            + "dataset \(bound); `sheetsync sync` refuses it (exit 78): point the config at this dataset's workbook, or bring "
            + "this one in with `sheetsync import`"
    }

    /// The workbook at a path: a folder is a CSV workbook, a `.xlsx` file an XLSX workbook.
    static func remote(at url: URL) throws -> any Remote {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SheetSyncError(.usage, "\(url.path) does not exist")
        }
        if isDirectory.boolValue { return CSVWorkbookRemote(folder: url) }
        if XLSXWorkbookRemote.isWorkbookFile(url) { return XLSXWorkbookRemote(file: url, refusal: .dataError) }
        throw SheetSyncError(.usage, "\(url.path) is neither a CSV workbook folder nor an .xlsx/.xlsm/.xltx/.xltm file")
    }
}
