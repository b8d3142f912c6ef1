import Foundation
import SheetSyncStore
import TestSupport

/// A new store's file as migrating an empty store leaves it, made once per test process. A model
/// machine's store starts as a copy of it: opening the copy still runs the migrator, which finds every
/// migration applied. (Migrating a new store is checked by the store's own tests, SheetSyncStoreTests,
/// and by every other test that opens a store of its own.)
enum MigratedStore {
    private static let bytes = Result<Data, any Error> {
        let path = try ScratchFolders.make("migrated-store").appendingPathComponent("empty.sqlite").path
        // Released at once: its connection closes, and SQLite moves the WAL into the file and removes it.
        _ = try LedgerStore(path: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The migrated empty store's file, written at `path` (readable by its owner only, as a new store is).
    static func copy(to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: try bytes.get(), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
