import GRDB
import SheetSyncCore

/// A row deleted from the store, kept with its last values so `sheetsync restore` can bring it back.
public struct DeletedRow: Hashable, Sendable {
    public var id: Int64
    public var tab: Tab
    public var key: String
    /// The row's columns as SQLite's `json_object` wrote them.
    public var json: String
    public var deletedAt: String
    /// `deleted in the store` (by a person or a SQLite client) or `deleted in the workbook` (a sync applied it).
    public var reason: String
    /// Whether the store has a row with this key again (restored, or added anew): `restore` skips it.
    public var inStore = false
}

/// `sync_deleted_rows`: filled by an AFTER DELETE trigger on every data table, so no delete by any
/// writer (the engine, `category rename`, the sqlite3 shell) is beyond recovery.
enum DeletedRows {
    static let table = "sync_deleted_rows"

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE \(table) (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  tab TEXT NOT NULL,
                  key TEXT NOT NULL,
                  rowJSON TEXT NOT NULL,
                  deletedAt TEXT NOT NULL,
                  reason TEXT NOT NULL
                );
                CREATE INDEX sync_deleted_rows_deletedAt ON \(table) (deletedAt);
                CREATE INDEX sync_deleted_rows_key ON \(table) (tab, key);
                """)
        for tab in Tab.allCases {
            let data = DataTable(tab)
            let columns = tab.schema.fieldNames.map { "\($0.sqlLiteral), OLD.\($0.quotedDatabaseIdentifier)" }
            try db.execute(
                sql: """
                    CREATE TRIGGER \("\(tab.schema.tableName)_keep_deleted".quotedDatabaseIdentifier) AFTER DELETE ON \(data.table)
                    BEGIN
                      INSERT INTO \(table) (tab, key, rowJSON, deletedAt, reason)
                      VALUES (\(tab.rawValue.sqlLiteral), OLD.\(data.keyColumn), json_object(\(columns.joined(separator: ", "))),
                              \(DataTable.now),
                              CASE WHEN \(DataTable.notApplying) THEN 'deleted in the store' ELSE 'deleted in the workbook' END);
                    END;
                    """)
        }
    }

    /// Per tab, key → `lastModifiedAt` of the newest version deleted in the store (by a person or a
    /// SQLite client) of each key kept: an old copy of the workbook holding that version (or an older
    /// one) does not bring the row back (`TabState.deleted`). Rows deleted in the workbook are left out:
    /// one that comes back there is the user's undo, as before.
    static func lastVersions(_ db: Database) throws -> [Tab: [String: String]] {
        var out: [Tab: [String: String]] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT tab, key, json_extract(rowJSON, '$.lastModifiedAt') AS modified FROM \(table) "
                    + "WHERE reason = 'deleted in the store' ORDER BY id"))
        while let row = try rows.next() {
            guard let tab = Tab(rawValue: row["tab"]), let modified: String = row["modified"] else { continue }
            out[tab, default: [:]][row["key"]] = modified
        }
        return out
    }

    static func fetch(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [DeletedRow] {
        let inStore = Tab.allCases.map { tab in
            let data = DataTable(tab)
            return "WHEN \(tab.rawValue.sqlLiteral) THEN EXISTS (SELECT 1 FROM \(data.table) WHERE \(data.keyColumn) = \(table).key)"
        }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT id, tab, key, rowJSON, deletedAt, reason, CASE tab \(inStore.joined(separator: " ")) ELSE 0 END AS inStore
                FROM \(table) \(sql)
                """, arguments: arguments
        )
        .compactMap { row in
            guard let tab = Tab(rawValue: row["tab"]) else { return nil }
            return DeletedRow(
                id: row["id"], tab: tab, key: row["key"], json: row["rowJSON"], deletedAt: row["deletedAt"],
                reason: row["reason"], inStore: row["inStore"])
        }
    }
}

extension LedgerStore {
    /// Deleted rows kept since `since` (all when nil), newest first.
    public func deletedRows(since: String? = nil) throws -> [DeletedRow] {
        try reading { db in
            try DeletedRows.fetch(db, sql: "WHERE deletedAt >= ? ORDER BY id DESC", arguments: [since ?? ""])
        }
    }

    /// How many deleted rows are kept.
    public func deletedRowCount() throws -> Int {
        try reading { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(DeletedRows.table)") ?? 0 }
    }

    /// Puts deleted rows back as ordinary local writes (the next sync pushes them). A key that is in
    /// the store again is skipped; of several deletes of one key, the newest is restored.
    /// - Parameter now: the restored rows' `lastModifiedAt`: bringing a row back is a local change made
    ///   now (the sync that follows keeps it over the delete it undoes, as over a recurring instance's
    ///   delete on another machine, `DeletedInstances`); every other field keeps its last value.
    /// - Returns: the restored rows and the keys skipped because the store has them.
    public func restore(_ rows: [DeletedRow], now: Timestamp) throws -> (restored: [DeletedRow], skipped: [DeletedRow]) {
        try writing { db in
            var restored: [DeletedRow] = []
            var skipped: [DeletedRow] = []
            var seen: Set<String> = []
            for row in rows.sorted(by: { $0.id > $1.id }) where seen.insert("\(row.tab.rawValue)/\(row.key)").inserted {
                let data = DataTable(row.tab)
                if try data.fetch(key: row.key, db) != nil {
                    skipped.append(row)
                    continue
                }
                let names = row.tab.schema.fieldNames
                let values = names.map {
                    $0 == FieldKey.lastModifiedAt.rawValue
                        ? now.description.sqlLiteral : "json_extract(rowJSON, \("$.\"\($0)\"".sqlLiteral))"
                }
                try db.execute(
                    sql: """
                        INSERT INTO \(data.table) (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))
                        SELECT \(values.joined(separator: ", ")) FROM \(DeletedRows.table) WHERE id = ?
                        """, arguments: [row.id])
                restored.append(row)
            }
            return (restored, skipped)
        }
    }

    /// Forgets deleted rows older than `cutoff` (`restore` keeps them at least 90 days).
    public func purgeDeletedRows(before cutoff: String) throws {
        try writing { try $0.cachedStatement(sql: "DELETE FROM \(DeletedRows.table) WHERE deletedAt < ?").execute(arguments: [cutoff]) }
    }

    /// Drops the base and tombstones, so every row on each side counts as new (a union by key) at the
    /// next sync: how a workbook recreated from the store gets every row.
    public func forgetBase() throws {
        try writing { db in
            try db.execute(sql: "DELETE FROM sync_base; DELETE FROM sync_tombstones")
            // Without a base every store row differs from it: all are read at the next sync.
            try ChangeTracking.markAllDirty(db)
            try Self.setState("remoteVersion", nil, db)
        }
    }
}

extension LedgerStore {
    /// The content fingerprints of rows imported without an id.
    public func importFingerprints() throws -> Set<String> {
        try reading { Set(try String.fetchAll($0, sql: "SELECT fingerprint FROM sync_import_fingerprints")) }
    }
}
