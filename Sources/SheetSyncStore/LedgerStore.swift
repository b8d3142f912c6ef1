import GRDB
import SheetSyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The local SQLite ledger: the five tabs' tables plus the sync bookkeeping (`sync_*`).
///
/// Rows are exchanged as `LedgerRow`s of text. Reading interprets nothing beyond the SQL type:
/// INTEGER as decimal text (boolean fields `TRUE`/`FALSE`), REAL in its shortest round-trip form,
/// TEXT as is, NULL as `""`; the sync engine canonicalizes. Writing turns `""` into NULL, boolean
/// texts (`TRUE`/`FALSE`/`1`/`0`) into 1/0 and integer fields into integers.
public final class LedgerStore: Sendable {
    let writer: any DatabaseWriter
    /// Where the store lives (`:memory:` for an in-memory store), for messages.
    public let path: String

    /// Opens (creating if needed) the store at `path` in WAL mode and migrates it.
    /// `faults` is a test hook (see `StoreFaultInjector`).
    public convenience init(path: String, faults: StoreFaultInjector? = nil) throws {
        try Self.createPrivateFileIfMissing(path)
        let queue: DatabaseQueue
        do {
            // One connection, in WAL mode (other SQLite clients read while a sync writes). Not a
            // `DatabasePool`: to keep its reader connections working, a pool writes to the store on
            // every open that finds no `-wal` file (a table created and dropped), so a sync that
            // changed nothing still rewrote the file's header, and every backup copied the store.
            queue = try DatabaseQueue(path: path, configuration: Self.configuration(faults: faults))
            try queue.writeWithoutTransaction { db in
                // WAL mode is kept in the file: set once, on a new store (after its page size).
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                        throw StoreError.cannotOpen(path: path, reason: "SQLite could not put the store in WAL mode")
                    }
                }
            }
        } catch let error as DatabaseError {
            throw StoreError.failure(error, path: path, operation: "open")
                ?? .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
        try self.init(writer: queue, path: path)
    }

    /// Creates an empty store file readable by its owner only. SQLite gives the `-wal` and `-shm`
    /// files the mode of the database file, so they are private too; an empty file is a new database.
    static func createPrivateFileIfMissing(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            return
        }
        let code = errno
        guard code == EEXIST else {
            let message = "cannot create the store file: \(String(cString: strerror(code)))"
            switch code {
            case ENOSPC, EDQUOT: throw StoreError.failed(path: path, operation: "create", trouble: .full, message: message)
            case EACCES, EPERM, EROFS:
                throw StoreError.failed(path: path, operation: "create", trouble: .notWritable, message: message)
            default: throw StoreError.cannotOpen(path: path, reason: message)
            }
        }
    }

    /// A fresh store in memory, for tests and dry runs.
    public static func inMemory() throws -> LedgerStore {
        do {
            return try LedgerStore(writer: DatabaseQueue(configuration: configuration()), path: ":memory:")
        } catch let error as DatabaseError {
            throw StoreError.cannotOpen(path: ":memory:", reason: error.message ?? "\(error.resultCode)")
        }
    }

    init(writer: any DatabaseWriter, path: String) throws {
        self.writer = writer
        self.path = path
        let migrator = StoreMigrations.migrator
        do {
            let unknown = try writer.read { db in
                try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
            }
            guard unknown.isEmpty else { throw StoreError.newerStore(path: path, unknownMigrations: unknown) }
            try migrator.migrate(writer)
        } catch let error as DatabaseError {
            throw StoreError.failure(error, path: path, operation: "open")
                ?? .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// Wraps a connection opened read-only on a store already at the current schema: nothing to
    /// migrate, and a migration could not run on it anyway.
    init(unmigrated reader: any DatabaseWriter, path: String) {
        self.writer = reader
        self.path = path
    }

    /// Runs `body`, turning a SQLite failure a user can act on (busy, full, damaged, read-only)
    /// into a `StoreError.failed` that names this store and `operation`.
    func naming<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError.failure(error, path: path, operation: operation) ?? error
        }
    }

    static func configuration(faults: StoreFaultInjector? = nil) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(5)
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            // 16 KiB pages for a new store (an existing one keeps its own; the pragma is then a
            // no-op): a 100k-row first pull writes a tenth fewer bytes and spends ≈ 8 % less CPU in
            // SQLite than with the default 4 KiB (BENCHMARKS.md). Set before WAL mode fixes the size.
            try db.execute(sql: "PRAGMA page_size = 16384")
            try db.execute(sql: "PRAGMA synchronous = FULL")
            if let spare = faults?.sparePages {
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                try db.execute(sql: "PRAGMA max_page_count = \(max(pages + spare, 1))")
            }
        }
        return config
    }

    // MARK: Ordinary local access

    /// Every row of a tab, in insertion order.
    public func records(in tab: Tab) throws -> [LedgerRow] {
        try writer.read { try DataTable(tab).fetchAll($0) }
    }

    /// Writes a row as any local client would (the triggers stamp, bump and count it); see
    /// `LocalWriter.upsert`.
    @discardableResult
    public func upsert(_ record: LedgerRow, in tab: Tab) throws -> LedgerRow {
        try write { try $0.upsert(record, in: tab) }
    }

    /// Deletes a row as any local client would, leaving a tombstone; false when there was none.
    @discardableResult
    public func delete(key: String, in tab: Tab) throws -> Bool {
        try write { try $0.delete(key: key, in: tab) }
    }

    /// Runs several ordinary local writes in one transaction: all of them or none.
    public func write<T>(_ body: (LocalWriter) throws -> T) throws -> T {
        try naming("write") { try writer.write { db in try body(LocalWriter(db: db)) } }
    }

    // MARK: Bookkeeping

    public func state(_ key: String) throws -> String? {
        try writer.read { try StateEntry.value($0, key: key) }
    }

    /// Appends to the conflict log at once, in its own transaction: a sync logs what lost before it
    /// writes the workbook, so a run stopped between that write and its store commit (whose next run
    /// finds both sides agreeing) still keeps every losing value.
    public func logConflicts(_ conflicts: [Conflict]) throws {
        guard !conflicts.isEmpty else { return }
        try writer.write { db in
            for conflict in conflicts {
                var record = ConflictRecord(conflict)
                record.id = nil
                try record.insert(db)
            }
        }
    }

    /// Sets a `sync_state` value; nil removes the key.
    public func setState(_ key: String, _ value: String?) throws {
        try writer.write { db in try Self.setState(key, value, db) }
    }

    static func setState(_ key: String, _ value: String?, _ db: Database) throws {
        if let value {
            try StateEntry(key: key, value: value).upsert(db)
        } else {
            _ = try StateEntry.deleteOne(db, key: key)
        }
    }

    public func changeCounter() throws -> Int64 {
        try writer.read { try Self.changeCounter($0) }
    }

    static func changeCounter(_ db: Database) throws -> Int64 {
        try ChangeCounter.value(db)
    }

    /// The newest `limit` entries of the conflict log, newest first.
    public func conflicts(limit: Int) throws -> [Conflict] {
        try writer.read { db in
            try ConflictRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM sync_conflicts ORDER BY id DESC LIMIT ?"), arguments: [limit]
            )
            .map(\.conflict)
        }
    }

    /// The rejected-row log as the last sync left it.
    public func rejectedRows() throws -> [Rejection] {
        try writer.read { db in
            try RejectedRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM sync_rejected ORDER BY id")).map { try $0.rejection() }
        }
    }
}
