import Foundation
import Logging
import SheetSyncCore
import SheetSyncStore

/// A configured ledger: its store, its remote, and the run lock that guards them.
public struct Workspace: Sendable {
    public let config: Config
    public let clock: any Clock
    public let logger: Logger
    public let newID: @Sendable () -> String
    /// Told what a run is doing (reading, reconciling, writing), for a progress line on a terminal.
    public var progress: (@Sendable (String) -> Void)?

    public init(config: Config, clock: any Clock = SystemClock(), logger: Logger = Logger(label: "sheetsync"),
                newID: @escaping @Sendable () -> String = RandomIDs.make, progress: (@Sendable (String) -> Void)? = nil) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.newID = newID
        self.progress = progress
    }

    /// Opens the store (creating it) under the run lock and hands both to `body`.
    public func locked<T>(_ body: (LedgerStore, RunLock) async throws -> T) async throws -> T {
        let lock = try RunLock(store: config.store)
        let store: LedgerStore
        do { store = try LedgerStore(path: config.store.path) } catch {
            throw SheetSyncError.configuration("cannot open store \(config.store.path): \(error)")
        }
        // `body` receives the lock, which keeps it alive (and so held) until the work is done.
        return try await body(store, lock)
    }

    public func makeRemote() throws -> any Remote {
        try RemoteFactory.make(config.remote, backupsToKeep: config.backupsToKeep, logger: logger)
    }

    public func engine(store: LedgerStore, remote: any Remote) -> SyncEngine {
        let remote = progress.map { ProgressRemote(base: remote, report: $0) } ?? remote
        return SyncEngine(store: store, remote: remote, clock: clock, newID: newID, defaultTimeZone: config.timezone, logger: logger)
    }

    /// `pull`, `push` or `sync` under one lock.
    public func sync(_ options: SyncOptions) async throws -> SyncReport {
        let remote = try makeRemote()
        return try await locked { store, _ in
            let receiptProblems = try await uploadQueuedReceipts(store: store, remote: remote, options: options)
            var report = try await engine(store: store, remote: remote).run(options)
            report.errors += receiptProblems
            return report
        }
    }
}
