import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

extension Inspection {
    /// Validates a workbook (the configured remote, or the CSV folder / `.xlsx` at `path`) the way a
    /// sync would read it, changing nothing anywhere. Every problem row is reported.
    public func check(path: String?) async throws -> SyncReport {
        let remote: any Remote
        if let path {
            remote = try RemoteFactory.workbook(at: URL(fileURLWithPath: path))
        } else {
            remote = try workspace.makeRemote()
        }
        guard try await remote.exists() else {
            if path == nil { try await workspace.requireLedger() }
            let what = path == nil ? "the configured workbook" : "\(path ?? "") is not a workbook"
            let holds = Tab.allCases.map { remote.location(of: $0) }.joined(separator: ", ")
            throw SheetSyncError.configuration(
                "\(what): \(remote.displayName) has none of its tabs (\(holds)); `sheetsync init` creates a new workbook there"
            ).coded(.notALedger)
        }
        let snapshot = try await remote.read()
        let now = workspace.clock.now()
        // A workbook of this ledger reads as its sync would; any other workbook by the standard forms.
        let forms = path == nil ? try workspace.localForms(workspace.readOnlyStore()) : .standard
        // A CSV workbook's cells are reviewed too (formula-like, reformatted by a spreadsheet program):
        // the big tabs' candidates are set aside by the check's own scan of their bytes.
        let reviewing = remote is CSVWorkbookRemote
        var candidates: [Tab: CellCandidates] = [:]
        if reviewing { for (tab, table) in snapshot.tables { candidates[tab] = CellCandidates(table: table, tab: tab, roundTrips: true) } }
        let (plan, loadable, noted) = WorkbookCheck.plan(
            snapshot.tables, now: now, newID: workspace.newID, forms: forms, noting: candidates)
        var report = SyncReport(command: "check", dryRun: true)
        report.notices += snapshot.notices
        if Set(plan.missingTabs) == Set(Tab.allCases) {
            // Not a ledger that lost its tabs (five "restore it from a backup" lines would say so): a
            // workbook that never was one.
            report.errors = [Self.notALedger(remote, configured: path == nil, storeSynced: path == nil && boundDataset() != nil)]
        } else {
            report.errors = plan.tabErrors.map { error in
                guard plan.missingTabs.contains(error.tab) else { return error.issue }
                return .heldBack(
                    .unreadableTab, at: .tab(error.tab),
                    "\(remote.location(of: error.tab)) is missing; restore it from a backup, or add a tab "
                        + "named \(error.tab.rawValue) whose first row is: \(TablePatcher.newHeader(error.tab.schema).joined(separator: ","))"
                )
            }
        }
        report.errors += plan.held
        if reviewing {
            let review = FormulaLikeCell.review(snapshot.tables, roundTrips: true, noted: noted)
            report.notices += FormulaLikeCell.notices(review.formulaLike) + review.atRisk
        }
        if path == nil, let mismatch = try datasetMismatch(plan.settings, remote: remote) { report.errors.append(mismatch) }
        report.fill(plans: plan.tabs, previous: [])
        // Against an empty store every readable row is new: the count is the tab's loadable rows.
        for (tab, count) in loadable { report.tabs[tab.rawValue]?.added = count }
        ExitArena.keep((plan, snapshot))
        return report
    }

    /// The one line `check` gives a workbook that has none of the five tabs, with how to start a ledger.
    static func notALedger(_ remote: any Remote, configured: Bool, storeSynced: Bool) -> SyncIssue {
        let tabs = Tab.allCases.map(\.rawValue).joined(separator: ", ")
        let start: String
        if storeSynced {
            start =
                "The store was synced with a ledger before: point the config's remote at that workbook, or put this one back "
                + "from a backup (a file workbook's last versions are in .sheetsync-backup/ beside it)"
        } else if configured {
            start = "To keep the ledger in this workbook, run `sheetsync init`: it adds the five tabs and keeps the other sheets"
        } else {
            start =
                "To keep a ledger in it, point the config's remote at it and run `sheetsync init`, which adds the five tabs and "
                + "keeps the other sheets"
        }
        return .heldBack(
            .notALedger,
            "\(remote.displayName) has none of the ledger's tabs (\(tabs)): it is not a sheetsync ledger. \(start); "
                + "to bring the rows of a workbook that has the tabs into the store, `sheetsync import PATH`")
    }

    /// The dataset the store is bound to (it has synced with a ledger), read without writing; nil without a store.
    private func boundDataset() -> String? {
        guard FileManager.default.fileExists(atPath: workspace.config.store.path) else { return nil }
        // Only picks the words of a message about a workbook already found wanting.
        guard let bound = try? workspace.readOnlyStore().state(SyncEngine.stateDataset), !bound.isEmpty else { return nil }
        return bound
    }

    /// What `sync` would refuse (exit 78) about the configured workbook: a Settings row of another
    /// dataset than the store is bound to. Read from the store without writing; nil without a store.
    private func datasetMismatch(_ settings: LedgerRow?, remote: any Remote) throws -> SyncIssue? {
        guard let settings, FileManager.default.fileExists(atPath: workspace.config.store.path),
            let bound = try workspace.readOnlyStore().state(SyncEngine.stateDataset), !bound.isEmpty, bound != settings[.datasetId]
        else { return nil }
        return .heldBack(
            .datasetMismatch,
            "\(remote.displayName) belongs to dataset \(settings[.datasetId]) but the store \(workspace.config.store.path) is bound to "
                + "dataset \(bound); `sheetsync sync` refuses it (exit 78): point the config at this dataset's workbook, or bring "
                + "this one in with `sheetsync import`")
    }
}
