import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// The phases of `SyncEngine.run`, each a call that returns a value: preflight → read → plan →
/// apply (workbook, then store) → record (`SyncRecorder`).
extension SyncEngine {
    /// What a run knows before it reads the workbook.
    struct Preflight {
        /// Said first (the workbook is another than the one the base agreed with).
        var notices: [SyncIssue] = []
        /// Neither side changed since the last sync: nothing is read.
        var upToDate = false
    }

    /// The workbook and the store as this run read them.
    struct SyncRead {
        var snapshot: RemoteSnapshot
        var local: StoreSnapshot
        /// The rows both sides left as the base, left out of the plan.
        var scope: ChangeScope
        /// The scope of another read of the store (after it wrote the Settings row).
        var narrowing: (ChangeIndex) -> ChangeScope
    }

    /// The run's plan, with what applying and recording it needs.
    struct PlannedRun {
        var local: StoreSnapshot
        var plan: SyncPlan
        var now: Timestamp
        /// The rejected-row log as the last run left it.
        var previous: [Rejection]
        /// Tabs that could not be read and guards that held changes back, as the user reads them.
        var errors: [SyncIssue]
    }

    /// What the workbook's side of apply left: its version, and what the user is told.
    struct WorkbookWrite {
        /// The version the workbook is at (as read, when nothing was written).
        var version: String
        var notices: [SyncIssue] = []
        /// Whether the plan's conflicts are logged already (before the workbook took the winners).
        var conflictsLogged = false
    }

    /// Preflight: the workbook is the one the base agreed with (else the base is forgotten), and
    /// whether anything changed on either side since the last sync.
    func preflight() async throws -> Preflight {
        var preflight = Preflight()
        var glance = try store.glance()
        if let was = glance.state[Self.stateWorkbook], was != workbookIdentity {
            // Another workbook than the base agreed with (a moved folder and a corrected config, another
            // spreadsheet id): the rows it lacks are not deletions. A union by id, as with no base:
            // nothing deleted, the later version where both have a row. (A dry run works on a copy.)
            try store.forgetBase()
            preflight.notices.append(
                .notice(
                    .note,
                    "the workbook is now \(remote.displayName), not the one the last sync was with: this run merges the two by id "
                        + "and deletes nothing"))
            glance = try store.glance()
        }
        preflight.upToDate = try await isUpToDate(glance)
        return preflight
    }

    /// Read: the workbook, and the store's rows the workbook's changes reach. A workbook that cannot
    /// be read at all (a tab file not UTF-8, a quote never closed) stops the run, recorded as held back.
    func read(dryRun: Bool) async throws -> SyncRead {
        // The store's base hashes are read while the workbook is: a thread of its own for what is
        // otherwise the wait for the files (used only if nothing writes to the store meanwhile).
        async let ahead = try? store.readBaseHashes()
        let snapshot: RemoteSnapshot
        do {
            snapshot = try await remote.read(keyingRows: true)
        } catch let error as SheetSyncError where error.exitCode == .dataError {
            // `status` must say so meanwhile, as for any run that held changes back.
            let recorded = try store.state(Self.stateHeld)
            let issue = SyncIssue.heldBack(error.code.flatMap(IssueCode.init(rawValue:)) ?? .note, error.message, hint: error.hint ?? "")
            if !dryRun, let held = SyncRecorder.heldState([issue], now: clock.now(), recorded: recorded) {
                try store.setState(Self.stateHeld, held)
            }
            throw error
        }
        // Cost follows change: rows both sides left as the base are neither loaded nor parsed.
        let narrowing = { (index: ChangeIndex) in ChangeScope.find(workbook: snapshot.tables, index: index) }
        let (local, scope) = try store.snapshot(scope: narrowing, ahead: await ahead)
        return SyncRead(snapshot: snapshot, local: local, scope: scope, narrowing: narrowing)
    }

    /// Plan: the dataset's Settings row checked (made when neither side has one), the planner's plan,
    /// overlong values held back, and the errors the report lists.
    func plan(_ read: SyncRead, options: SyncOptions, strategy: PlanStrategy) throws -> PlannedRun {
        var (local, scope) = (read.local, read.scope)
        let now = clock.now()
        let tables = read.snapshot.tables
        let remoteSettings = SyncPlanner.settingsRecord(in: tables, now: now, bound: local.state[Self.stateDataset])
        try checkDataset(remoteSettings, state: local.state)
        if try ensureSettings(local, remoteSettings: remoteSettings, now: now) {
            (local, scope) = try store.snapshot(scope: read.narrowing)
        }
        var planner = SyncPlanner(
            purpose: .sync(options.mode), allowMassDelete: options.allowMassDelete, now: now, strategy: strategy, newID: newID)
        planner.savedAt = read.snapshot.savedAt
        planner.forms = Self.forms(local.state)
        planner.coercesText = remote is CSVWorkbookRemote
        var plan = planner.plan(workbook: tables, ledger: local.ledger, scope: scope)
        if options.mode != .pull, let limit = remote.maxCellCharacters {
            OverlongValues.holdBack(&plan.tabs, limit: limit, base: local.base)
        }
        let errors = plan.tabErrors.map { describe($0, missing: plan.missingTabs.contains($0.tab)) } + plan.held
        return PlannedRun(local: local, plan: plan, now: now, previous: try store.rejectedRows(), errors: errors)
    }

    /// A run that writes nothing (held back, or a dry run): its plan listed, and a hold recorded.
    func holdBack(_ planned: PlannedRun, recorder: SyncRecorder, dryRun: Bool, report: inout SyncReport) throws {
        report.changes = PlanPrinter.lines(planned.plan.tabs)
        guard !dryRun else { return }
        // A held-back run changed nothing: its plan is listed as such, and counted as nothing done.
        report.changes = report.changes.map { "held back: \($0)" }
        report.heldBack()
        if let held = recorder.heldState(report.errors) {
            // Nothing else is written, but `status` must not say all is well meanwhile.
            try store.setState(Self.stateHeld, held)
        }
    }

    /// Apply, the workbook's side: the plan written to the workbook (not by a pull, nor when nothing
    /// there changes), the conflicts' losing values logged first.
    func applyToWorkbook(_ planned: PlannedRun, snapshot: RemoteSnapshot, mode: SyncMode) async throws -> WorkbookWrite {
        let plans = planned.plan.tabs
        guard mode != .pull, snapshot.rewritesCanonically || plans.contains(where: \.changesRemote) else {
            return WorkbookWrite(version: snapshot.version)
        }
        // Logged before the workbook takes the winners: a stop between the write and the store commit
        // must not leave the losing values nowhere (the next run sees both sides agree).
        try store.logConflicts(plans.flatMap(\.conflicts).map { $0.resolved(at: planned.now) })
        let written = try await remote.apply(plans, to: snapshot)
        return WorkbookWrite(version: written.version, notices: written.notices, conflictsLogged: true)
    }

    /// Apply, the store's side: the commit, then the deleted rows kept past their days let go.
    func applyToStore(_ commit: StoreCommit, now: Timestamp) throws -> CommitOutcome {
        let outcome = try store.commit(commit)
        try store.purgeDeletedRows(before: now.adding(milliseconds: -Int64(RowRestore.keptDays) * 86_400_000).description)
        return outcome
    }

    /// What the user is told of the store commit: rows it left for the next run, and rows it deleted.
    static func notices(of outcome: CommitOutcome, plans: [TabPlan]) -> [SyncIssue] {
        var notices: [SyncIssue] = []
        for (tab, keys) in outcome.skipped where !keys.isEmpty {
            notices.append(
                .notice(.changedDuringRun, at: .tab(tab), "\(keys.count) row(s) changed in the store during this run; they sync next run"))
        }
        for tabPlan in plans {
            // Never silent: a row gone from the store is said, with the way back.
            let skipped = Set(outcome.skipped[tabPlan.tab] ?? [])
            let deleted = tabPlan.localDeletes.filter { !skipped.contains($0.key) }.map(\.key).sorted()
            guard !deleted.isEmpty else { continue }
            let shown = deleted.prefix(5).joined(separator: ", ") + (deleted.count > 5 ? ", …" : "")
            notices.append(
                .notice(
                    .rowsDeleted, at: .tab(tabPlan.tab),
                    "\(deleted.count) row(s) deleted in the workbook were deleted from the store (\(shown)); "
                        + "`sheetsync restore --list` shows them for \(RowRestore.keptDays) days"))
        }
        return notices
    }

    /// A tab error as the user reads it; a missing tab says where it was looked for.
    private func describe(_ error: TabError, missing: Bool) -> SyncIssue {
        guard missing else { return error.issue }
        return .heldBack(
            .unreadableTab, at: .tab(error.tab),
            "\(remote.location(of: error.tab)) is missing; nothing of it was deleted and the other tabs "
                + "were synced. Put it back (for a file workbook the last versions are in .sheetsync-backup/ beside it) or undo the rename")
    }

    /// A quiet run costs one cheap look on each side: the store's change counter and the remote's version.
    private func isUpToDate(_ glance: StoreGlance) async throws -> Bool {
        // While something is held back, a run reads the workbook: the one that finds it fixed clears the hold.
        guard let recorded = glance.state[Self.stateRemoteVersion],
            glance.state[Self.stateCounter] == String(glance.changeCounter),
            !glance.hasTombstones, glance.state[Self.stateHeld] == nil
        else { return false }
        return try await remote.currentVersion() == recorded
    }

    private func checkDataset(_ settings: LedgerRow?, state: [String: String]) throws {
        guard let settings else { return }
        if let bound = state[Self.stateDataset], !bound.isEmpty, bound != settings[.datasetId] {
            throw SheetSyncError.configuration(
                "\(remote.displayName) belongs to dataset \(settings[.datasetId]) but this store is bound to dataset \(bound); use `sheetsync import` to bring in another dataset's workbook"
            ).coded(.datasetMismatch)
        }
        if let version = Int(settings[.schemaVersion]), version > 1 {
            throw SheetSyncError.configuration(
                "\(remote.displayName) has schemaVersion \(version), newer than this sheetsync supports (1); upgrade sheetsync")
        }
    }

    /// A dataset needs its one Settings row: created locally (and so pushed) when neither side has it.
    /// Returns whether it wrote one (the store must then be read again).
    private func ensureSettings(_ snapshot: StoreSnapshot, remoteSettings: LedgerRow?, now: Timestamp) throws -> Bool {
        guard remoteSettings == nil, (snapshot.rows[.settings] ?? [:]).isEmpty else { return false }
        let stamp = now.description
        let record = LedgerRow([
            .datasetId: snapshot.state[Self.stateDataset] ?? newID(), .schemaVersion: "1", .timezone: defaultTimeZone,
            .rootFolderId: "", .dataSpreadsheetId: "", .receiptsFolderId: "", .createdAt: stamp, .lastModifiedAt: stamp,
        ])
        try store.upsert(record, in: .settings)
        try store.setState(Self.stateDataset, record[.datasetId])
        return true
    }
}
