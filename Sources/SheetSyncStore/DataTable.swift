import Foundation
import GRDB
import SheetSyncCore

/// SQL access to the table of one tab, generated from its `TabSchema`.
///
/// Rows travel as `LedgerRow`s of text. Reading interprets nothing beyond the SQL storage type
/// (the engine canonicalizes); writing turns texts into the column's SQL type.
struct DataTable: Sendable {
    let schema: TabSchema

    init(_ tab: Tab) { schema = tab.schema }

    var tab: Tab { schema.tab }
    var table: String { schema.tableName.quotedDatabaseIdentifier }
    var keyColumn: String { schema.keyField.rawValue.quotedDatabaseIdentifier }
    /// This tab's statements, written once: a sync runs them once per row, through GRDB's
    /// statement cache, so each is compiled (with its triggers) once per connection.
    private var sql: SQLTexts { SQLTexts.byTab[tab] }

    /// UUID keys are stored lowercase (the insert trigger would lowercase them anyway); looking
    /// them up the same way keeps a lookup and the row it finds in agreement.
    func canonicalKey(_ key: String) -> String {
        guard ColumnPlan.byTab[tab].keyIsUUID else { return key }
        // ASCII without capitals lowercases to itself: keep the string rather than copy it.
        if !key.utf8.contains(where: { $0 &- 65 < 26 || $0 >= 0x80 }) { return key }
        return key.lowercased()
    }

    /// Every row, in insertion order.
    func fetchAll(_ db: Database) throws -> [LedgerRow] {
        // A cursor reads each row in place: no `Row` copy per row before it becomes a record.
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql.selectAll))
        var records: [LedgerRow] = []
        while let row = try rows.next() { records.append(record(from: row)) }
        return records
    }

    /// Whether the table has no row at all.
    func isEmpty(_ db: Database) throws -> Bool {
        try !(Bool.fetchOne(db.cachedStatement(sql: sql.exists)) ?? false)
    }

    func fetch(key: String, _ db: Database) throws -> LedgerRow? {
        try Row.fetchOne(db.cachedStatement(sql: sql.selectOne), arguments: [canonicalKey(key)]).map(record(from:))
    }

    /// The INSERT of every column, for a `RawStatement`.
    var insertSQL: String { sql.insert }

    func insert(_ record: LedgerRow, _ db: Database) throws {
        let key = record[schema.keyField]
        try run(key: key) {
            try Self.execute(db.cachedStatement(sql: sql.insert), try values(of: record))
        }
    }

    /// Overwrites every non-key column of the row with `record`'s key.
    func update(_ record: LedgerRow, _ db: Database) throws {
        let key = record[schema.keyField]
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(schema.fields.count)
        for (field, value) in zip(schema.fields, try values(of: record)) where field.key != schema.keyField {
            arguments.append(value)
        }
        arguments.append(canonicalKey(key).databaseValue)
        try run(key: key) {
            try Self.execute(db.cachedStatement(sql: sql.update), arguments)
        }
    }

    /// Runs one of this file's statements with exactly one value per placeholder (so the count
    /// check of `execute(arguments:)` has nothing to find), skipping GRDB's per-value key-path
    /// conversion, which costs more than the insert itself.
    private static func execute(_ statement: Statement, _ values: [DatabaseValue]) throws {
        statement.setUncheckedArguments(StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? }))
        try statement.execute()
    }

    /// Deletes the row; false when there was none.
    func delete(key: String, _ db: Database) throws -> Bool {
        try run(key: key) {
            try db.cachedStatement(sql: sql.delete).execute(arguments: [canonicalKey(key)])
        }
        return db.changesCount > 0
    }

    /// Names the tab and key in SQLite's refusals, so a CHECK failure points at its row.
    func run(key: @autoclosure () -> String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where StoreTrouble(error) == nil {
            // Only a refusal of this row names it; a full disk or a damaged file is the store's
            // trouble, not the row's, and goes up as it is (`LedgerStore.naming` adds the path).
            throw StoreError.rowRejected(tab: tab, key: key(), reason: error.message ?? "\(error.resultCode)")
        }
    }

    // MARK: Text <-> SQL

    func record(from row: Row) -> LedgerRow {
        let fields = schema.fields
        var values: [String] = []
        values.reserveCapacity(fields.count)
        for index in fields.indices {
            values.append(Self.text(of: row[index] as DatabaseValue, boolean: fields[index].kind == .boolean))
        }
        return sql.template.record(values)
    }

    /// The text of an SQL value: INTEGER in decimal (booleans `TRUE`/`FALSE`), REAL in its
    /// shortest round-trip form, TEXT as is, NULL as `""`.
    static func text(of value: DatabaseValue, boolean: Bool) -> String {
        switch value.storage {
        case .null:
            return ""
        case .int64(let i):
            return boolean ? (i != 0 ? FieldRule.trueText : FieldRule.falseText) : String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return "\(d)"
        case .string(let s):
            return s
        case .blob(let data):
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Whether two records agree on every field of the schema (a missing field is `""`).
    func sameFields(_ a: LedgerRow, _ b: LedgerRow) -> Bool {
        schema.fields.allSatisfy { a[$0.key] == b[$0.key] }
    }
}

/// The SQL of one tab's row statements, built once per tab.
struct SQLTexts: Sendable {
    let selectAll: String
    let selectOne: String
    let insert: String
    let update: String
    let delete: String
    let exists: String
    /// Records of this tab are built by field position (see `LedgerRowTemplate`).
    let template: LedgerRowTemplate

    static let byTab = PerTab { SQLTexts($0) }

    private init(_ tab: Tab) {
        let schema = tab.schema
        let table = schema.tableName.quotedDatabaseIdentifier
        let key = schema.keyField.rawValue.quotedDatabaseIdentifier
        let columns = schema.fieldNames.map(\.quotedDatabaseIdentifier)
        selectAll = "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY rowid"
        selectOne = "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(key) = ?"
        insert =
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        let assignments = schema.fieldNames.filter { $0 != schema.keyField.rawValue }.map { "\($0.quotedDatabaseIdentifier) = ?" }
        update = "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(key) = ?"
        delete = "DELETE FROM \(table) WHERE \(key) = ?"
        exists = "SELECT EXISTS (SELECT 1 FROM \(table))"
        template = LedgerRowTemplate(names: schema.fieldNames)
    }
}
