import Foundation
import GRDB

extension LedgerStore {
    /// The store at `path` copied into memory, for dry runs and read-only commands: opened read-only,
    /// so not one byte of the file (nor a WAL, SHM or journal) is created or changed; the copy is
    /// migrated in memory, so an older store can be previewed too.
    public static func inMemoryCopy(of path: String) throws -> LedgerStore {
        let source = try openReadOnly(path)
        do {
            let memory = try DatabaseQueue(configuration: configuration())
            try source.backup(to: memory)
            try source.close()
            return try LedgerStore(writer: memory, path: path)
        } catch let error as DatabaseError {
            throw StoreError.failure(error, path: path, operation: "read")
                ?? .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// The store at `path` for a command that only reads it (`status`): the file itself, opened
    /// read-only as `inMemoryCopy` opens it, when it is at the current schema (a 100k-row store
    /// then costs no copy); a migrated in-memory copy when it is older. Every write through the
    /// result fails.
    public static func readOnly(path: String) throws -> LedgerStore {
        let source = try openReadOnly(path)
        let migrator = StoreMigrations.migrator
        do {
            let applied = try source.read { try migrator.appliedIdentifiers($0) }
            let unknown = applied.subtracting(migrator.migrations).sorted()
            guard unknown.isEmpty else { throw StoreError.newerStore(path: path, unknownMigrations: unknown) }
            if applied == Set(migrator.migrations) { return LedgerStore(unmigrated: source, path: path) }
            try source.close()
        } catch let error as DatabaseError {
            throw StoreError.failure(error, path: path, operation: "read")
                ?? .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
        return try inMemoryCopy(of: path)
    }

    /// A read-only connection that creates and changes nothing beside the file.
    private static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(5)
        // Without a WAL file beside it the database file is complete: open it immutable, so SQLite
        // creates no -shm or -wal either. With one (another connection is open), read through it.
        let hasWAL = FileManager.default.fileExists(atPath: path + "-wal")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        do {
            return try DatabaseQueue(path: hasWAL ? path : "file:\(encoded)?immutable=1", configuration: readOnly)
        } catch let error as DatabaseError {
            throw StoreError.failure(error, path: path, operation: "read")
                ?? .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }
}
