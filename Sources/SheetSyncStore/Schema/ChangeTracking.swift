import GRDB
import SheetSyncCore

/// What lets a sync read only what changed: `sync_dirty` holds the key of every store row
/// written or deleted since the last sync by anyone but the engine (kept by the counting triggers,
/// with the change counter's value as `seq`), and `sync_base.raw_hash` the `RowHash` of the sheet row
/// that reads as each base (0: none recorded).
///
/// The rule the engine keeps: a key without a dirty mark has its store row equal to its base.
enum ChangeTracking {
    static let table = "sync_dirty"

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE sync_dirty (
                  tab TEXT NOT NULL CHECK (tab IN (\(StoreMigrations.tabList))),
                  key TEXT NOT NULL,
                  seq INTEGER NOT NULL,
                  PRIMARY KEY (tab, key)
                ) WITHOUT ROWID;
                ALTER TABLE sync_base ADD COLUMN raw_hash INTEGER NOT NULL DEFAULT 0;
                """)
        for tab in Tab.allCases { try DataTable(tab).createCountingTriggers(db) }
        // Nothing is known of rows changed before this migration: the next sync reads them all once.
        try markAllDirty(db)
    }

    /// Every sync reads each base key with its row hash (`LedgerStore.baseHashes`); from this index
    /// (it covers the query) instead of the table, whose rows carry the base's JSON: about 6 of 47 MB
    /// at 100k rows, 8 ms of a 120 ms sync after one store edit (perf stat, median of six).
    static func createHashIndex(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS sync_base_hashes ON sync_base (tab, key, raw_hash)")
    }

    /// Marks every store row and base entry changed: the next sync reads every row whole.
    static func markAllDirty(_ db: Database) throws {
        let seq = "(SELECT value FROM sync_change_counter)"
        for tab in Tab.allCases {
            let table = DataTable(tab)
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
                    SELECT \(tab.rawValue.sqlLiteral), \(table.keyColumn), \(seq) FROM \(table.table)
                    WHERE \(table.keyColumn) IS NOT NULL
                    """)
        }
        try db.execute(sql: "INSERT OR REPLACE INTO sync_dirty (tab, key, seq) SELECT tab, key, \(seq) FROM sync_base")
    }
}

extension DataTable {
    /// The counting triggers of v1, now also marking the row's key (old and new) dirty.
    func createCountingTriggers(_ db: Database) throws {
        let name = schema.tableName
        let tabLiteral = tab.rawValue.sqlLiteral
        let mark = { (row: String) in
            """
            INSERT OR REPLACE INTO sync_dirty (tab, key, seq)
              SELECT \(tabLiteral), \(row).\(self.keyColumn), value FROM sync_change_counter WHERE \(row).\(self.keyColumn) IS NOT NULL;
            """
        }
        let marks = ["INSERT": mark("NEW"), "UPDATE": mark("OLD") + "\n" + mark("NEW"), "DELETE": mark("OLD")]
        for event in ["INSERT", "UPDATE", "DELETE"] {
            let trigger = "\(name)_count_\(event.lowercased())".quotedDatabaseIdentifier
            try db.execute(
                sql: """
                    DROP TRIGGER IF EXISTS \(trigger);
                    CREATE TRIGGER \(trigger)
                    AFTER \(event) ON \(table) WHEN \(Self.notApplying)
                    BEGIN
                      UPDATE sync_change_counter SET value = value + 1;
                      \(marks[event] ?? "")
                    END;
                    """)
        }
    }
}
