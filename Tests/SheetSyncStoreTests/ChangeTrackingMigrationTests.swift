import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// Upgrading a store made before change tracking: nothing is known of what changed since its last
/// sync, so every row and base entry is marked and the next sync reads every row once.
@Suite struct ChangeTrackingMigrationTests {
    @Test func aStoreFromBeforeV4HasEveryRowMarkedAfterTheUpgrade() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        let old = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(old, upTo: "v3-receipt-uploads")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO categories (name, type, isActive, sortOrder, createdAt, lastModifiedAt)
                    VALUES ('Food', 'expense', 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
                    INSERT INTO sync_base (tab, key, fields) VALUES ('Categories', 'Gone', '{}');
                    """)
        }
        try old.close()
        let store = try LedgerStore(path: path)
        let marked = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT tab || '/' || key FROM sync_dirty ORDER BY 1")
        }
        #expect(marked == ["Categories/Food", "Categories/Gone"])
        // A store row written afterwards by another client is marked by the triggers.
        try store.writer.write { db in
            try db.execute(sql: "UPDATE categories SET emoji = '🍎' WHERE name = 'Food'")
            try db.execute(sql: "DELETE FROM sync_dirty")
            try db.execute(sql: "UPDATE categories SET emoji = '🍏' WHERE name = 'Food'")
        }
        #expect(try store.writer.read { try String.fetchAll($0, sql: "SELECT key FROM sync_dirty") } == ["Food"])
    }
}
