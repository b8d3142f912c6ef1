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
/// ever sees the table without them, and any failure rolls their removal back too. The first row
/// the fix trigger would rewrite puts them back before it is inserted, so it and every later row
/// go through them as always.
final class InsertTriggersAside {
    private let table: DataTable
    private let db: Database
    private var saved: [(name: String, sql: String)] = []
    /// Whether the triggers are aside now.
    private(set) var isAside = false

    /// Sets the table's insert triggers aside.
    init(_ table: DataTable, _ db: Database) throws {
        self.table = table
        self.db = db
        let names = table.insertTriggerNames
        // In creation order, so they fire in the same order once put back.
        saved = try Row.fetchAll(
            db,
            sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY rowid",
            arguments: [table.schema.tableName]
        ).compactMap { row -> (name: String, sql: String)? in
            let name: String = row[0]
            return names.contains(name) ? (name, row[1]) : nil
        }
        for trigger in saved { try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)") }
        isAside = true
    }

    /// Puts the triggers back and does `untombstone`'s work for the rows inserted meanwhile (the
    /// table was empty, so every row in it is new). A `RawStatement` prepared while they were aside
    /// must not run again: the caller prepares a new one.
    func putBack() throws {
        guard isAside else { return }
        isAside = false
        for trigger in saved { try db.execute(sql: trigger.sql) }
        try db.execute(
            sql: """
                DELETE FROM sync_tombstones WHERE tab = ?
                AND EXISTS (SELECT 1 FROM \(table.table) WHERE \(table.keyColumn) = sync_tombstones.key)
                """, arguments: [table.tab.rawValue])
    }
}

extension DataTable {
    /// The triggers that fire on INSERT, as `createTriggers` names them.
    var insertTriggerNames: [String] {
        ["fix_insert", "untombstone", "count_insert"].map { "\(schema.tableName)_\($0)" }
    }

    /// The year and month of a text matching `SQLPattern.date` (`GLOB '[0-9][0-9][0-9][0-9]-…'`),
    /// as `CAST(substr(…) AS INTEGER)` reads them; nil for any other text.
    static func dateParts(_ text: String) -> (year: Int64, month: Int64)? {
        var year: Int64 = 0, month: Int64 = 0, count = 0
        for byte in text.utf8 {
            defer { count += 1 }
            if count == 4 || count == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard count < 10, byte &- 48 < 10 else { return nil }
            if count < 4 { year = year * 10 + Int64(byte &- 48) }
            if count == 5 || count == 6 { month = month * 10 + Int64(byte &- 48) }
        }
        return count == 10 ? (year, month) : nil
    }
}

/// The column positions `needsFixOnInsert` looks at, per tab, found once.
struct FixColumns: Sendable {
    var key: Int
    var uuids: [Int]
    var timestamps: [Int]
    var dateParts: (date: Int, year: Int, month: Int)?

    static let byTab = PerTab { FixColumns($0) }

    private init(_ tab: Tab) {
        let fields = tab.schema.fields
        func at(_ key: FieldKey) -> Int? { fields.firstIndex { $0.key == key } }
        key = at(tab.schema.keyField) ?? -1
        uuids = fields.indices.filter { fields[$0].kind == .uuid }
        timestamps = fields.indices.filter { DataTable.timestampFields.contains(fields[$0].key) }
        if let date = at(.date), let year = at(.year), let month = at(.month) {
            dateParts = (date, year, month)
        }
    }
}

extension DataTable {
    /// Binds a row's field texts (`PlainLoad.FieldTexts`, by schema field index) to `statement`, a
    /// `RawStatement` of `insertSQL`, and runs it: `runInsert` for texts given as bytes, with the
    /// same column rules (`columnValue`).
    func runInsert(_ texts: PlainLoad.FieldTexts, _ statement: RawStatement) throws {
        let columns = ColumnPlan.byTab[tab]
        for (offset, column) in columns.all.enumerated() {
            let index = Int32(offset + 1)
            let text = texts[offset]
            if text.isEmpty {
                try statement.bindNull(at: index)
                continue
            }
            if column.rule == .text || (column.rule == .key && RowKey.uuidBits(text) != nil) {
                // A canonical UUID key is its own canonical key.
                try statement.bindText(text, at: index)
            } else if column.rule == .integer, let number = CanonicalText.plainInteger(text) {
                try statement.bindInteger(Int64(number), at: index)
            } else {
                // Keys (canonical already), booleans (the loaded tabs have none) and any integer
                // that is not plain digits: the ordinary rule on the text.
                let key = String(decoding: texts[columns.keyIndex], as: UTF8.self)
                switch try columnValue(String(decoding: text, as: UTF8.self), column, key: key) {
                case .null: try statement.bindNull(at: index)
                case .integer(let number): try statement.bindInteger(number, at: index)
                case .text(let value): try statement.bindText(value, at: index)
                }
            }
        }
        try statement.step()
    }

    /// `needsFixOnInsert` of a row given as its field texts.
    func needsFixOnInsert(_ texts: PlainLoad.FieldTexts) -> Bool {
        let fix = FixColumns.byTab[tab]
        for index in fix.uuids {
            let text = texts[index]
            if text.isEmpty {
                if index == fix.key { return true }
            } else if text.contains(where: { $0 &- 65 < 26 }) {
                return true
            }
        }
        for index in fix.timestamps where texts[index].isEmpty { return true }
        guard let parts = fix.dateParts,
            let expected = Self.dateParts(String(decoding: texts[parts.date], as: UTF8.self))
        else { return false }
        let year = CanonicalText.plainInteger(texts[parts.year]).map(Int64.init)
        let month = CanonicalText.plainInteger(texts[parts.month]).map(Int64.init)
        return year != expected.year || month != expected.month
    }
}
