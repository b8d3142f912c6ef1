import Foundation
import Logging
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Workbook

/// A configured ledger: its config, clock, logger and id source, and how a command opens its store,
/// workbook and remote under the run lock. The commands themselves are the operation types that take
/// one (`WorkbookSync`, `LedgerSetup`, `Inspection`, `LedgerImport`, `LedgerExport`, `Transactions`,
/// `Categories`, `RecurringRules`, `Receipts`, `Reports`, `RowRestore`).
public struct Workspace: Sendable {
    public let config: Config
    public let clock: any WallClock
    public let logger: Logger
    public let newID: @Sendable () -> String
    /// Told what a run is doing (reading, reconciling, writing), for a progress line on a terminal.
    public var progress: (@Sendable (String) -> Void)?
    /// How long a run waits for another run (of another store) to finish with a local workbook
    /// before it gives up with 75: long enough for a big sync, short of the next cron slot.
    public var workbookLockWait: Double = 120

    public init(
        config: Config, clock: any WallClock = SystemClock(), logger: Logger = Logger(label: "sheetsync"),
        newID: @escaping @Sendable () -> String = RandomIDs.make, progress: (@Sendable (String) -> Void)? = nil
    ) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.newID = newID
        self.progress = progress
    }

    /// Opens the store under the run lock and hands it to `body`. A preview (`--dry-run`, or a
    /// command that only reads) works on an in-memory copy instead: the store file is opened
    /// read-only, no store, WAL or lock file is created, and whatever `body` writes is thrown away.
    ///
    /// A command that only edits the store (`add`, `category`, `materialize`, `restore`, receipts) needs
    /// a ledger to edit: where there is neither a store nor a workbook it refuses (78) and creates
    /// nothing. `startsLedger` is for the commands that may begin one (`init`, a first sync or pull of
    /// a workbook, `import`).
    public func withStore<T>(preview: Bool = false, startsLedger: Bool = false, _ body: (LedgerStore) async throws -> T) async throws -> T {
        if !preview, !startsLedger, !FileManager.default.fileExists(atPath: config.store.path) {
            let remote = try makeRemote()
            if try await !remote.exists() { throw noLedger(remote) }
        }
        try refuseStoreFilesThatAreNot()
        if preview {
            let path = config.store.path
            let store: LedgerStore
            do {
                store = FileManager.default.fileExists(atPath: path) ? try LedgerStore.inMemoryCopy(of: path) : try LedgerStore.inMemory()
            } catch {
                throw SheetSyncError.classify(error, store: path) ?? .configuration("cannot read store \(path): \(error)")
            }
            return try await body(store)
        }
        let lock = try RunLock(store: config.store)
        let store: LedgerStore
        do { store = try LedgerStore(path: config.store.path) } catch {
            // A store another program holds is busy (75); one that cannot be opened is configuration (78).
            throw SheetSyncError.classify(error, store: config.store.path)
                ?? .configuration("cannot open store \(config.store.path): \(error)")
        }
        // The lock stays held until the work is done.
        defer { withExtendedLifetime(lock) {} }
        return try await body(store)
    }

    /// The store's files (the database, its WAL, shared memory and journal) are regular files or
    /// absent: SQLite opens them by name and would follow a symlink there (writing the ledger
    /// wherever it points) or hang on a FIFO. Refused with 78, naming the file (`FileSafety`).
    private func refuseStoreFilesThatAreNot() throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            do { try FileSafety.requireFileOrNothing(config.store.path + suffix) } catch { throw SheetSyncError.replacing(error) }
        }
    }

    /// `withStore` for a run that reads and writes `remote`: the store's lock first (a second run of the
    /// same store exits 75 at once), then a local workbook's (waiting up to `workbookLockWait` for a run
    /// of another store on it). A preview takes neither: it creates no file.
    func withWorkbook<T>(_ remote: any Remote, preview: Bool, _ body: (LedgerStore) async throws -> T) async throws -> T {
        try await withStore(preview: preview, startsLedger: true) { store in
            guard !preview, let lockFile = remote.lockFile else { return try await body(store) }
            let lock = try RunLock.onWorkbook(lockFile, name: remote.displayName, waiting: workbookLockWait)
            defer { withExtendedLifetime(lock) {} }
            // What runs killed mid-write left beside the workbook (the lock sits in its folder): swap files
            // into the backups, half-written files away. Best-effort: what cannot be moved stays where it is,
            // and a write of that file sweeps (or refuses) it with its own error.
            try? AtomicFile.sweepLeftovers(
                in: lockFile.deletingLastPathComponent(), backupsToKeep: config.backupsToKeep)
            return try await body(store)
        }
    }

    /// Only `init` creates a workbook: a missing one is never taken for an empty ledger.
    func requireWorkbook(_ remote: any Remote) async throws {
        guard try await !remote.exists() else { return }
        let path = config.store.path
        guard FileManager.default.fileExists(atPath: path) else { throw noLedger(remote) }
        // Only what is known: a store that cannot be read says so rather than "never".
        let lastSync: String
        do {
            lastSync = try LedgerStore.inMemoryCopy(of: path).state(SyncEngine.stateLastSync).map { "at \($0)" } ?? "never"
        } catch {
            lastSync = "at a time the store cannot tell (\(error))"
        }
        throw SheetSyncError.configuration(
            "\(remote.displayName) is missing (the store \(path) last synced with it \(lastSync)); "
                + "nothing was changed. Put the workbook back or correct the config's remote; `sheetsync init` recreates it from the store"
        ).coded(.workbookMissing)
    }

    /// Neither `remote` nor the store exists: nothing to work on. Every command says it in these words.
    private func noLedger(_ remote: any Remote) -> SheetSyncError {
        .configuration(
            "not a ledger: no workbook (\(remote.displayName)) and no store (\(config.store.path)) here; run `sheetsync init` to "
                + "start a new ledger, or point --config at an existing one"
        ).coded(.notALedger)
    }

    /// Throws `noLedger` when there is neither a store nor a workbook (for the read-only commands).
    func requireLedger() async throws {
        guard !FileManager.default.fileExists(atPath: config.store.path), let remote = try? makeRemote(),
            (try? await remote.exists()) == false
        else { return }
        throw noLedger(remote)
    }

    /// The store as `status` reads it: the file itself, read-only, when it is at the current schema
    /// (`withStore(preview:)` would copy all of it into memory first); an empty store when there is none.
    func readOnlyStore() throws -> LedgerStore {
        let path = config.store.path
        try refuseStoreFilesThatAreNot()
        do {
            return FileManager.default.fileExists(atPath: path) ? try LedgerStore.readOnly(path: path) : try LedgerStore.inMemory()
        } catch {
            throw SheetSyncError.classify(error, store: path) ?? .configuration("cannot read store \(path): \(error)")
        }
    }

    public func makeRemote() throws -> any Remote {
        try RemoteFactory.make(config.remote, backupsToKeep: config.backupsToKeep, logger: logger)
    }

    public func engine(store: LedgerStore, remote: any Remote) -> SyncEngine {
        let remote = progress.map { ProgressRemote(base: remote, report: $0) } ?? remote
        return SyncEngine(store: store, remote: remote, clock: clock, newID: newID, defaultTimeZone: config.timezone, logger: logger)
    }
}
