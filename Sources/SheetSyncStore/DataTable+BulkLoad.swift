import GRDB
import SheetSyncCore

/// Loading a table the commit found empty (a first pull) without running the insert triggers per row.
///
/// While the engine applies a commit the triggers are quiet, but SQLite still evaluates their WHEN
/// clauses and bodies for every row: at 100k rows that is a third of the table's insert cost.
/// For rows the fix trigger would leave alone, what the insert triggers do is known in advance:
/// `fix_insert` does nothing, `count_insert` is quiet, and `untombstone` clears the tombstones of
/// the inserted keys, which one statement does for the whole load. So the three are set aside for
/// the load and put back, from their own SQL, inside the same transaction: no other connection
/// ever sees the table without them, and any failure rolls their removal back too.
extension DataTable {
    /// The triggers that fire on INSERT, as `createTriggers` names them.
    var insertTriggerNames: [String] {
        ["fix_insert", "untombstone", "count_insert"].map { "\(schema.tableName)_\($0)" }
    }

    /// Runs `body` (which only inserts into this table) with the insert triggers set aside when
    /// `bulk`, then puts them back and does their work for the rows now in the table.
    func withInsertTriggersAside<T>(_ bulk: Bool, _ db: Database, _ body: () throws -> T) throws -> T {
        guard bulk else { return try body() }
        // In creation order, so they fire in the same order once put back.
        let saved = try Row.fetchAll(
            db,
            sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY rowid",
            arguments: [schema.tableName]
        ).compactMap { row -> (name: String, sql: String)? in
            let name: String = row[0]
            return insertTriggerNames.contains(name) ? (name, row[1]) : nil
        }
        for trigger in saved { try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)") }
        let result = try body()
        for trigger in saved { try db.execute(sql: trigger.sql) }
        // `untombstone`, once for all the rows (the table was empty, so every row is a new one).
        try db.execute(
            sql: """
                DELETE FROM sync_tombstones WHERE tab = ?
                AND EXISTS (SELECT 1 FROM \(table) WHERE \(keyColumn) = sync_tombstones.key)
                """, arguments: [tab.rawValue])
        return result
    }

    /// Whether inserting `record` would make `fix_insert` rewrite it (its WHEN clause, decided on
    /// the values `values(of:)` binds): a UUID with capitals, no key, an empty timestamp, or
    /// `year`/`month` other than the `date`'s. Also true for a record `values(of:)` refuses, so
    /// that one takes the ordinary path and fails there as it always did.
    func needsFixOnInsert(_ record: LedgerRow) -> Bool {
        for field in schema.fields {
            let text = record[field.name]
            if field.kind == .uuid {
                if field.name == schema.keyField && text.isEmpty { return true }
                let bound = field.name == schema.keyField ? canonicalKey(text) : text
                // SQLite's lower() folds ASCII only.
                if bound.utf8.contains(where: { $0 &- 65 < 26 }) { return true }
            }
            if Self.timestampFields.contains(field.name) && text.isEmpty { return true }
        }
        guard schema.field(named: "date") != nil, schema.field(named: "year") != nil, schema.field(named: "month") != nil
        else { return false }
        guard let parts = Self.dateParts(record["date"]) else { return false }
        return Int64(record["year"]) != parts.year || Int64(record["month"]) != parts.month
    }

    /// The year and month of a text matching `SQLPattern.date` (`GLOB '[0-9][0-9][0-9][0-9]-…'`),
    /// as `CAST(substr(…) AS INTEGER)` reads them; nil for any other text.
    static func dateParts(_ text: String) -> (year: Int64, month: Int64)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        var year: Int64 = 0, month: Int64 = 0
        for (index, byte) in bytes.enumerated() where index != 4 && index != 7 {
            guard byte &- 48 < 10 else { return nil }
            if index < 4 { year = year * 10 + Int64(byte - 48) }
            if index == 5 || index == 6 { month = month * 10 + Int64(byte - 48) }
        }
        return (year, month)
    }
}
