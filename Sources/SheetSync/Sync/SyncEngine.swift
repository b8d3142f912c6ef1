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

    /// One run, as its phases: preflight → read → plan → apply → record (docs/architecture.md).
    public func run(_ options: SyncOptions) async throws -> SyncReport {
        try await run(options, strategy: .fastest(for: .sync(options.mode)))
    }

    /// `run(_:)` with each tab's plan made the way `strategy` says (every way gives the same run).
    package func run(_ options: SyncOptions, strategy: PlanStrategy) async throws -> SyncReport {
        ExitArena.releaseEarlierRuns()
        var report = SyncReport(command: options.mode.rawValue, dryRun: options.dryRun)
        let preflight = try await preflight()
        report.notices += preflight.notices
        if preflight.upToDate {
            report.upToDate = true
            report.rejected = try store.rejectedRows()
            return report
        }
        let read = try await read(dryRun: options.dryRun)
        // Only the snapshot is kept past the plan phase: the read's change scope goes once planned.
        let snapshot = read.snapshot
        report.notices += snapshot.notices
        let planned = try plan(read, options: options, strategy: strategy)
        report.errors += planned.errors
        report.fill(plans: planned.plan.tabs, previous: planned.previous, now: planned.now)
        let recorder = SyncRecorder(planned)
        if planned.plan.blocked || options.dryRun {
            try holdBack(planned, recorder: recorder, dryRun: options.dryRun, report: &report)
            ExitArena.keep((snapshot, planned.local, planned.plan))
            return report
        }
        // Safe points for SIGINT/SIGTERM: before anything is written, and before the store commit
        // (a stop there is a crash after the workbook write, which the next run completes).
        try Task.checkCancellation()
        let written = try await applyToWorkbook(planned, snapshot: snapshot, mode: options.mode)
        report.notices += written.notices
        let commit = recorder.commit(after: written, mode: options.mode, workbook: workbookIdentity, errors: report.errors)
        try Task.checkCancellation()
        let outcome = try applyToStore(commit, now: planned.now)
        if options.listsChanges { report.changes = PlanPrinter.lines(planned.plan.tabs) }
        report.notices += Self.notices(of: outcome, plans: planned.plan.tabs)
        ExitArena.keep((snapshot, planned.local, planned.plan, commit))
        return report
    }
}
