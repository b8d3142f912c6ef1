import Foundation
import GRDB

extension LedgerStore {
    /// The store at `path` copied into memory, for dry runs and read-only commands: opened read-only,
    /// so not one byte of the file (nor a WAL, SHM or journal) is created or changed; the copy is
    /// migrated in memory, so an older store can be previewed too.
    public static func inMemoryCopy(of path: String) throws -> LedgerStore {
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(5)
        // Without a WAL file beside it the database file is complete: open it immutable, so SQLite
        // creates no -shm or -wal either. With one (another connection is open), read through it.
        let hasWAL = FileManager.default.fileExists(atPath: path + "-wal")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let source: DatabaseQueue
        do {
            source = try DatabaseQueue(path: hasWAL ? path : "file:\(encoded)?immutable=1", configuration: readOnly)
        } catch let error as DatabaseError {
            throw StoreError.failure(error, path: path, operation: "read")
                ?? .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
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
}
