import SheetSyncCore
import SheetSyncStore

/// Record, the last phase of a run: the bookkeeping it leaves in the store's state beside its rows,
/// all in one place: what it held back (for `status`), the workbook and version it agreed with, the
/// dataset it is bound to, the category renames it carried out, and the rows it remembers for the
/// stale-copy guard (`StaleCopyGuard`).
struct SyncRecorder {
    let planned: SyncEngine.PlannedRun

    init(_ planned: SyncEngine.PlannedRun) {
        self.planned = planned
    }

    /// The most rows one run adds to a tab and still remembers as its own (a first push is no editor's
    /// old copy's business), and for how long.
    static let appendedHereAtMost = 50
    static let appendedHereDays = 30

    /// The `stateHeld` text for `reasons`, or nil when `recorded` already says the same (its time,
    /// when the hold began, is kept).
    static func heldState(_ reasons: [SyncIssue], now: Timestamp, recorded: String?) -> String? {
        let previous = recorded.flatMap(StatusReport.HeldBack.init(stateText:))
        guard previous?.reasons != reasons else { return nil }
        // The same hold in other words (the plain lines of a store written before the issue codes) began then.
        let since = previous.flatMap { $0.reasons.map(\.text) == reasons.map(\.text) ? $0.since : nil }
        return StatusReport.HeldBack(since: since ?? now.description, reasons: reasons).stateText
    }

    /// The `stateHeld` text of a run holding `reasons` back, or nil when the store says so already.
    func heldState(_ reasons: [SyncIssue]) -> String? {
        Self.heldState(reasons, now: planned.now, recorded: planned.local.state[SyncEngine.stateHeld])
    }

    /// The store commit of a run that applied its plan: its rows, with the bookkeeping.
    /// - Parameters:
    ///   - written: what the workbook's side of apply left.
    ///   - workbook: the workbook's identity (`SyncEngine.workbookIdentity`).
    ///   - errors: what the run held back, as reported.
    func commit(after written: SyncEngine.WorkbookWrite, mode: SyncMode, workbook: String, errors: [SyncIssue]) -> StoreCommit {
        let (plan, local, now) = (planned.plan, planned.local, planned.now)
        var commit = StoreCommit(plans: plan.tabs, local: local, previous: planned.previous, now: now)
        if written.conflictsLogged { commit.conflicts = [] }
        if let datasetId = plan.settings?[.datasetId], !datasetId.isEmpty { commit.state[SyncEngine.stateDataset] = datasetId }
        let converged = mode == .sync && plan.converges
        commit.state[SyncEngine.stateRemoteVersion] = .some(converged ? written.version : nil)
        commit.state[SyncEngine.stateWorkbook] = .some(workbook)
        if errors.isEmpty {
            if local.state[SyncEngine.stateHeld] != nil { commit.state[SyncEngine.stateHeld] = .some(nil) }
        } else if let held = heldState(errors) {
            commit.state[SyncEngine.stateHeld] = held
        }
        Self.rememberRows(plan.tabs, ledger: local.ledger, state: local.state, now: now, into: &commit)
        if mode != .pull && plan.converges { forgetRenamesCarriedOut(into: &commit) }
        return commit
    }

    /// The renames reached every sheet row: later rows with the old name are unknown again. Not while a
    /// rejected row still names the old one: it is moved too once it is fixed.
    private func forgetRenamesCarriedOut(into commit: inout StoreCommit) {
        let waiting = Set(
            planned.plan.tabs.filter { $0.tab == .transactions || $0.tab == .recurringRules }.flatMap {
                $0.rejections.flatMap(\.rawCells)
            })
        for old in planned.local.ledger.renames.keys where !waiting.contains(old) {
            commit.state[LedgerState.renameKey(old)] = .some(nil)
        }
    }

    /// Rows this run added to the workbook a few at a time are remembered for `appendedHereDays`, and a
    /// row written back once after an older copy lacked it until it is deleted (`StaleCopyGuard`).
    static func rememberRows(
        _ plans: [TabPlan], ledger: LedgerState, state: [String: String], now: Timestamp, into commit: inout StoreCommit
    ) {
        for tabPlan in plans {
            let tab = tabPlan.tab
            for key in tabPlan.writtenBack { commit.state[LedgerState.writtenBackKey(tab, key)] = .some(now.description) }
            if tabPlan.remoteAppends.count <= appendedHereAtMost, tabPlan.tab != .settings {
                let keyField = tab.schema.keyField
                // A row brought back is not one this store added: another machine's delete of it is a delete.
                let back = Set(tabPlan.broughtBack)
                for row in tabPlan.remoteAppends where !back.contains(row[keyField]) {
                    commit.state[LedgerState.appendedHereKey(tab, row[keyField])] = .some(now.description)
                }
            }
            // A delete by name is forgotten once a run carries it out.
            for delete in tabPlan.remoteDeletes where ledger.deletedByName[tab]?.contains(delete.key) == true {
                commit.state[LedgerState.deletedByNameKey(tab, delete.key)] = .some(nil)
            }
            for delete in tabPlan.localDeletes {
                if ledger.writtenBack[tab]?.contains(delete.key) == true {
                    commit.state[LedgerState.writtenBackKey(tab, delete.key)] = .some(nil)
                }
                if ledger.appendedHere[tab]?[delete.key] != nil {
                    commit.state[LedgerState.appendedHereKey(tab, delete.key)] = .some(nil)
                }
            }
        }
        let oldest = now.adding(milliseconds: -Int64(appendedHereDays) * 86_400_000).description
        for (key, value) in state where key.hasPrefix(LedgerState.appendedHerePrefix) && value < oldest { commit.state[key] = .some(nil) }
    }
}
