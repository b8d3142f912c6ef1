import Foundation
import Logging
import SheetSyncCore
import SheetSyncStore

/// Which directions a run moves changes in (the core's, under the name callers know).
public typealias SyncMode = SheetSyncCore.SyncMode

public struct SyncOptions: Sendable {
    public var mode: SyncMode
    public var dryRun = false
    public var allowMassDelete = false
    /// Whether the report lists each row written (`changes`), as a dry run always does: for `--verbose`.
    public var listsChanges = false

    public init(mode: SyncMode, dryRun: Bool = false, allowMassDelete: Bool = false, listsChanges: Bool = false) {
        self.mode = mode
        self.dryRun = dryRun
        self.allowMassDelete = allowMassDelete
        self.listsChanges = listsChanges
    }
}

/// Pulls, pushes or syncs one store with one remote workbook (docs/several-writers.md says how rows reconcile). The caller holds the run lock.
public struct SyncEngine: Sendable {
    public let store: LedgerStore
    public let remote: any Remote
    public let clock: any WallClock
    public let newID: @Sendable () -> String
    /// The time zone of a dataset created by this run.
    public let defaultTimeZone: String
    public let logger: Logger
    /// False only in tests: a pull plans plain rows one by one (`SyncPlanner.loadsPlainRows`).
    package var loadsPlainRows = true

    public init(
        store: LedgerStore, remote: any Remote, clock: any WallClock = SystemClock(),
        newID: @escaping @Sendable () -> String = RandomIDs.make, defaultTimeZone: String = "UTC",
        logger: Logger = Logger(label: "sheetsync")
    ) {
        self.store = store
        self.remote = remote
        self.clock = clock
        self.newID = newID
        self.defaultTimeZone = defaultTimeZone
        self.logger = logger
    }

    static let stateDataset = "datasetId"
    static let stateRemoteVersion = "remoteVersion"
    static let stateCounter = "changeCounterAtSync"
    static let stateLastSync = "lastSyncAt"
    /// The ledger's `LocalForms` (set by `init`; absent: `LocalForms.standard`).
    static let stateDateOrder = "dateOrder"
    static let stateDecimalSeparator = "decimalSeparator"

    /// How this store reads dates and amounts typed as text, from its state.
    static func forms(_ state: [String: String]) -> LocalForms {
        let standard = LocalForms.standard
        return LocalForms(
            dateOrder: state[stateDateOrder].flatMap(LocalForms.DateOrder.init(rawValue:)) ?? standard.dateOrder,
            decimalSeparator: state[stateDecimalSeparator].flatMap(LocalForms.DecimalSeparator.init(rawValue:))
                ?? standard.decimalSeparator)
    }
    /// The workbook the base agreed with (`workbookIdentity`).
    static let stateWorkbook = "workbook"

    /// Which workbook this is, as the store records it: a local one by its path relative to the store's
    /// folder (a ledger folder copied or moved whole, store and workbook together, is the same ledger),
    /// any other by its name (a spreadsheet id).
    var workbookIdentity: String {
        guard let lock = remote.lockFile else { return remote.displayName }
        let from = URL(fileURLWithPath: store.path).deletingLastPathComponent().standardizedFileURL.pathComponents
        let to = lock.deletingLastPathComponent().standardizedFileURL.pathComponents
        let shared = zip(from, to).prefix { $0 == $1 }.count
        let steps = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared)
        return "local workbook " + (steps.isEmpty ? "." : steps.joined(separator: "/")) + "/" + lock.lastPathComponent
    }
    /// What the last sync held back (its time, then one reason per line), for `status`; absent
    /// after a run that held nothing back.
    static let stateHeld = "heldBack"

    public func run(_ options: SyncOptions) async throws -> SyncReport {
        ExitArena.releaseEarlierRuns()
        var report = SyncReport(command: options.mode.rawValue, dryRun: options.dryRun)
        var glance = try store.glance()
        let workbook = workbookIdentity
        if let was = glance.state[Self.stateWorkbook], was != workbook {
            // Another workbook than the base agreed with (a moved folder and a corrected config, another
            // spreadsheet id): the rows it lacks are not deletions. A union by id, as with no base:
            // nothing deleted, the later version where both have a row. (A dry run works on a copy.)
            try store.forgetBase()
            report.notices.append(
                "the workbook is now \(remote.displayName), not the one the last sync was with: this run merges the two by id "
                    + "and deletes nothing")
            glance = try store.glance()
        }
        if try await isUpToDate(glance) {
            report.upToDate = true
            report.rejected = try store.rejectedRows()
            return report
        }
        // The store's base hashes are read while the workbook is: a thread of its own for what is
        // otherwise the wait for the files (used only if nothing writes to the store meanwhile).
        async let ahead = try? store.readBaseHashes()
        let snapshot: RemoteSnapshot
        do {
            snapshot = try await remote.read(keyingRows: true)
        } catch let error as SheetSyncError where error.exitCode == .dataError {
            // A tab file that cannot be read at all (not UTF-8, a quote never closed) stops the run: `status`
            // must say so meanwhile, as for any run that held changes back.
            let state = try store.state(Self.stateHeld)
            if !options.dryRun, let held = Self.heldState([error.message], now: clock.now(), recorded: state) {
                try store.setState(Self.stateHeld, held)
            }
            throw error
        }
        report.notices += snapshot.notices
        // Cost follows change: rows both sides left as the base are neither loaded nor parsed.
        let narrowing = { (index: ChangeIndex) in ChangeScope.find(workbook: snapshot.tables, index: index) }
        var (local, scope) = try store.snapshot(scope: narrowing, ahead: await ahead)
        let now = clock.now()
        let remoteSettings = SyncPlanner.settingsRecord(in: snapshot.tables, now: now, bound: local.state[Self.stateDataset])
        try checkDataset(remoteSettings, state: local.state)
        if try ensureSettings(local, remoteSettings: remoteSettings, now: now) {
            (local, scope) = try store.snapshot(scope: narrowing)
        }
        var planner = SyncPlanner(purpose: .sync(options.mode), allowMassDelete: options.allowMassDelete, now: now, newID: newID)
        planner.loadsPlainRows = loadsPlainRows
        planner.savedAt = snapshot.savedAt
        planner.forms = Self.forms(local.state)
        planner.coercesText = remote is CSVWorkbookRemote
        var plan = planner.plan(workbook: snapshot.tables, ledger: local.ledger, scope: scope)
        if options.mode != .pull, let limit = remote.maxCellCharacters {
            OverlongValues.holdBack(&plan.tabs, limit: limit, base: local.base)
        }
        report.errors += plan.tabErrors.map { describe($0, missing: plan.missingTabs.contains($0.tab)) }
        report.errors += plan.held
        let previous = try store.rejectedRows()
        report.fill(plans: plan.tabs, previous: previous, now: now)
        if plan.blocked || options.dryRun {
            report.changes = PlanPrinter.lines(plan.tabs)
            if plan.blocked && !options.dryRun {
                // A held-back run changed nothing: its plan is listed as such, and counted as nothing done.
                report.changes = report.changes.map { "held back: \($0)" }
                report.heldBack()
            }
            if !options.dryRun, let held = Self.heldState(report.errors, now: now, recorded: local.state[Self.stateHeld]) {
                // Nothing else is written, but `status` must not say all is well meanwhile.
                try store.setState(Self.stateHeld, held)
            }
            ExitArena.keep((snapshot, local, plan))
            return report
        }
        var newVersion = snapshot.version
        // Safe points for SIGINT/SIGTERM: before anything is written, and before the store commit
        // (a stop there is a crash after the workbook write, which the next run completes).
        try Task.checkCancellation()
        var conflictsLogged = false
        if options.mode != .pull, snapshot.rewritesCanonically || plan.tabs.contains(where: \.changesRemote) {
            // Logged before the workbook takes the winners: a stop between the write and the store commit
            // must not leave the losing values nowhere (the next run sees both sides agree).
            try store.logConflicts(plan.tabs.flatMap(\.conflicts).map { $0.resolved(at: now) })
            conflictsLogged = true
            let written = try await remote.apply(plan.tabs, to: snapshot)
            newVersion = written.version
            report.notices += written.notices
        }
        let converged = options.mode == .sync && plan.converges
        var commit = StoreCommit(plans: plan.tabs, local: local, previous: previous, now: now)
        if conflictsLogged { commit.conflicts = [] }
        if let datasetId = plan.settings?["datasetId"], !datasetId.isEmpty { commit.state[Self.stateDataset] = datasetId }
        commit.state[Self.stateRemoteVersion] = .some(converged ? newVersion : nil)
        commit.state[Self.stateWorkbook] = .some(workbookIdentity)
        if report.errors.isEmpty {
            if local.state[Self.stateHeld] != nil { commit.state[Self.stateHeld] = .some(nil) }
        } else if let held = Self.heldState(report.errors, now: now, recorded: local.state[Self.stateHeld]) {
            commit.state[Self.stateHeld] = held
        }
        Self.rememberRows(plan.tabs, ledger: local.ledger, state: local.state, now: now, into: &commit)
        if options.mode != .pull && plan.converges {
            // The rename reached every sheet row: later rows with the old name are unknown again. Not while a
            // rejected row still names the old one: it is moved too once it is fixed.
            let waiting = Set(
                plan.tabs.filter { $0.tab == .transactions || $0.tab == .recurringRules }.flatMap { $0.rejections.flatMap(\.rawCells) })
            for old in local.ledger.renames.keys where !waiting.contains(old) {
                commit.state[LedgerState.renameKey(old)] = .some(nil)
            }
        }
        try Task.checkCancellation()
        let outcome = try store.commit(commit)
        if options.listsChanges { report.changes = PlanPrinter.lines(plan.tabs) }
        try store.purgeDeletedRows(before: now.adding(milliseconds: -Int64(Workspace.deletedRowsKeptDays) * 86_400_000).description)
        for (tab, keys) in outcome.skipped where !keys.isEmpty {
            report.notices.append("\(tab.rawValue): \(keys.count) row(s) changed in the store during this run; they sync next run")
        }
        for tabPlan in plan.tabs {
            // Never silent: a row gone from the store is said, with the way back.
            let skipped = Set(outcome.skipped[tabPlan.tab] ?? [])
            let deleted = tabPlan.localDeletes.filter { !skipped.contains($0.key) }.map(\.key).sorted()
            guard !deleted.isEmpty else { continue }
            let shown = deleted.prefix(5).joined(separator: ", ") + (deleted.count > 5 ? ", …" : "")
            report.notices.append(
                "\(tabPlan.tab.rawValue): \(deleted.count) row(s) deleted in the workbook were deleted from the store (\(shown)); "
                    + "`sheetsync restore --list` shows them for \(Workspace.deletedRowsKeptDays) days")
        }
        ExitArena.keep((snapshot, local, plan, commit))
        return report
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

    /// The most rows one run adds to a tab and still remembers as its own (a first push is no editor's
    /// old copy's business), and for how long.
    static let appendedHereAtMost = 50
    static let appendedHereDays = 30

    /// The `stateHeld` text for `reasons`, or nil when `recorded` already says the same (its time,
    /// when the hold began, is kept).
    static func heldState(_ reasons: [String], now: Timestamp, recorded: String?) -> String? {
        guard recorded.flatMap(StatusReport.HeldBack.init(stateText:))?.reasons != reasons else { return nil }
        return StatusReport.HeldBack(since: now.description, reasons: reasons).stateText
    }

    /// A tab error as the user reads it; a missing tab says where it was looked for.
    private func describe(_ error: TabError, missing: Bool) -> String {
        guard missing else { return error.description }
        return "\(error.tab.rawValue): \(remote.location(of: error.tab)) is missing; nothing of it was deleted and the other tabs "
            + "were synced. Put it back (for a file workbook the last versions are in .sheetsync-backup/ beside it) or undo the rename"
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
        if let bound = state[Self.stateDataset], !bound.isEmpty, bound != settings["datasetId"] {
            throw SheetSyncError.configuration(
                "\(remote.displayName) belongs to dataset \(settings["datasetId"]) but this store is bound to dataset \(bound); use `sheetsync import` to bring in another dataset's workbook"
            )
        }
        if let version = Int(settings["schemaVersion"]), version > 1 {
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
            "datasetId": snapshot.state[Self.stateDataset] ?? newID(), "schemaVersion": "1", "timezone": defaultTimeZone,
            "rootFolderId": "", "dataSpreadsheetId": "", "receiptsFolderId": "", "createdAt": stamp, "lastModifiedAt": stamp,
        ])
        try store.upsert(record, in: .settings)
        try store.setState(Self.stateDataset, record["datasetId"])
        return true
    }
}
