import GRDB
import SheetSyncCore

/// The store's migrations. A migration, once shipped, never changes: a new column or trigger
/// is a new migration (v1 is generated from the tab schemas as they were when it shipped, and
/// `SchemaTests` pins those columns).
enum StoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try createBookkeeping(db)
            for tab in Tab.allCases {
                let table = DataTable(tab)
                try table.create(db)
                try table.createTriggers(db)
            }
        }
        migrator.registerMigration("v2-deleted-rows") { db in
            try DeletedRows.create(db)
            // Rows an import loaded without an id, by content, so a second import of the same file skips them.
            try db.execute(
                sql: """
                    CREATE TABLE sync_import_fingerprints (
                      fingerprint TEXT PRIMARY KEY NOT NULL,
                      transactionId TEXT NOT NULL,
                      importedAt TEXT
                    )
                    """)
        }
        migrator.registerMigration("v3-receipt-uploads") { db in
            try ReceiptUploads.create(db)
            try ReceiptUploads.migrateOldQueue(db)
        }
        migrator.registerMigration("v4-change-tracking") { db in
            try ChangeTracking.create(db)
        }
        migrator.registerMigration("v5-base-hash-index") { db in
            try ChangeTracking.createHashIndex(db)
        }
        migrator.registerMigration("v6-rejection-codes") { db in
            // The kind of problem that holds a rejected row back (docs/issues.md); NULL for rows logged before.
            try db.alter(table: "sync_rejected") { t in t.add(column: "code", .text) }
        }
        return migrator
    }

    static var tabList: String { Tab.allCases.map(\.rawValue.sqlLiteral).joined(separator: ", ") }

    /// The `sync_*` tables: what the sync engine remembers between runs.
    static func createBookkeeping(_ db: Database) throws {
        // Holds a row only inside the engine's own write transaction; triggers look for it.
        try db.create(table: "sync_applying") { t in
            t.primaryKey("id", .integer)
        }
        try db.create(table: "sync_change_counter") { t in
            t.primaryKey("id", .integer).check(sql: "id = 1")
            t.column("value", .integer).notNull()
        }
        try db.execute(sql: "INSERT INTO sync_change_counter (id, value) VALUES (1, 0)")
        try db.create(table: "sync_state") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
        }
        try db.create(table: "sync_base") { t in
            t.column("tab", .text).notNull().check(sql: "tab IN (\(tabList))")
            t.column("key", .text).notNull()
            t.column("fields", .jsonText).notNull().check(sql: "json_valid(fields)")
            t.primaryKey(["tab", "key"])
        }
        try db.create(table: "sync_tombstones") { t in
            t.column("tab", .text).notNull().check(sql: "tab IN (\(tabList))")
            t.column("key", .text).notNull()
            t.column("deletedAt", .text).notNull()
            t.primaryKey(["tab", "key"])
        }
        try db.create(table: "sync_rejected") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("tab", .text).notNull().check(sql: "tab IN (\(tabList))")
            t.column("row", .integer).notNull()
            t.column("key", .text)
            t.column("message", .text).notNull()
            t.column("hint", .text)
            t.column("rawCells", .jsonText).notNull().check(sql: "json_valid(rawCells)")
            t.column("firstSeenAt", .text).notNull()
        }
        try db.create(table: "sync_conflicts") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("tab", .text).notNull().check(sql: "tab IN (\(tabList))")
            t.column("key", .text).notNull()
            t.column("field", .text).notNull()
            t.column("losingValue", .text).notNull()
            t.column("winningValue", .text).notNull()
            t.column("losingModifiedAt", .text).notNull()
            t.column("winningModifiedAt", .text).notNull()
            t.column("resolvedAt", .text).notNull()
        }
        // The conflict log is history: entries may be pruned, never rewritten.
        try db.execute(
            sql: """
                CREATE TRIGGER sync_conflicts_append_only BEFORE UPDATE ON sync_conflicts
                BEGIN SELECT RAISE(ABORT, 'sync_conflicts is append-only'); END
                """)
    }
}
