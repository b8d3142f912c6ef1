import Foundation
import GRDB
import SheetSyncCore

/// SQL access to the table of one tab, generated from its `TabSchema`.
///
/// Rows travel as `Record`s of text. Reading interprets nothing beyond the SQL storage type
/// (the engine canonicalizes); writing turns texts into the column's SQL type.
struct DataTable: Sendable {
    let schema: TabSchema

    init(_ tab: Tab) { schema = tab.schema }

    var tab: Tab { schema.tab }
    var table: String { schema.tableName.quotedDatabaseIdentifier }
    var keyColumn: String { schema.keyField.quotedDatabaseIdentifier }
    private var columnList: String { schema.fieldNames.map(\.quotedDatabaseIdentifier).joined(separator: ", ") }

    /// UUID keys are stored lowercase (the insert trigger would lowercase them anyway); looking
    /// them up the same way keeps a lookup and the row it finds in agreement.
    func canonicalKey(_ key: String) -> String {
        schema.field(named: schema.keyField)?.kind == .uuid ? key.lowercased() : key
    }

    /// Every row, in insertion order.
    func fetchAll(_ db: Database) throws -> [SheetSyncCore.Record] {
        try Row.fetchAll(db, sql: "SELECT \(columnList) FROM \(table) ORDER BY rowid").map(record(from:))
    }

    func fetch(key: String, _ db: Database) throws -> SheetSyncCore.Record? {
        try Row.fetchOne(db, sql: "SELECT \(columnList) FROM \(table) WHERE \(keyColumn) = ?",
            arguments: [canonicalKey(key)]).map(record(from:))
    }

    func insert(_ record: SheetSyncCore.Record, _ db: Database) throws {
        let key = record[schema.keyField]
        let placeholders = Array(repeating: "?", count: schema.fields.count).joined(separator: ", ")
        try run(key: key) {
            try db.execute(sql: "INSERT INTO \(table) (\(columnList)) VALUES (\(placeholders))",
                arguments: StatementArguments(try values(of: record)))
        }
    }

    /// Overwrites every non-key column of the row with `record`'s key.
    func update(_ record: SheetSyncCore.Record, _ db: Database) throws {
        let key = record[schema.keyField]
        var assignments: [String] = []
        var arguments: [DatabaseValue] = []
        for (field, value) in zip(schema.fields, try values(of: record)) where field.name != schema.keyField {
            assignments.append("\(field.name.quotedDatabaseIdentifier) = ?")
            arguments.append(value)
        }
        arguments.append(canonicalKey(key).databaseValue)
        try run(key: key) {
            try db.execute(sql: "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(keyColumn) = ?",
                arguments: StatementArguments(arguments))
        }
    }

    /// Deletes the row; false when there was none.
    func delete(key: String, _ db: Database) throws -> Bool {
        try run(key: key) {
            try db.execute(sql: "DELETE FROM \(table) WHERE \(keyColumn) = ?", arguments: [canonicalKey(key)])
        }
        return db.changesCount > 0
    }

    /// Names the tab and key in SQLite's refusals, so a CHECK failure points at its row.
    private func run(key: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError {
            throw StoreError.rowRejected(tab: tab, key: key, reason: error.message ?? "\(error.resultCode)")
        }
    }

    // MARK: Text <-> SQL

    func record(from row: Row) -> SheetSyncCore.Record {
        var fields: [String: String] = [:]
        for (index, field) in schema.fields.enumerated() {
            fields[field.name] = Self.text(of: row[index] as DatabaseValue, boolean: field.kind == .boolean)
        }
        return SheetSyncCore.Record(fields)
    }

    /// The text of an SQL value: INTEGER in decimal (booleans `TRUE`/`FALSE`), REAL in its
    /// shortest round-trip form, TEXT as is, NULL as `""`.
    static func text(of value: DatabaseValue, boolean: Bool) -> String {
        switch value.storage {
        case .null:
            return ""
        case .int64(let i):
            return boolean ? (i != 0 ? "TRUE" : "FALSE") : String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return "\(d)"
        case .string(let s):
            return s
        case .blob(let data):
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// The SQL values of `record`'s fields, in column order.
    func values(of record: SheetSyncCore.Record) throws -> [DatabaseValue] {
        let key = record[schema.keyField]
        return try schema.fields.map { field in
            let text = record[field.name]
            if text.isEmpty { return .null }
            if field.name == schema.keyField { return canonicalKey(text).databaseValue }
            switch field.kind {
            case .boolean:
                switch text.uppercased() {
                case "TRUE", "1": return 1.databaseValue
                case "FALSE", "0": return 0.databaseValue
                default:
                    throw StoreError.invalidValue(tab: tab, key: key, field: field.name, value: text,
                        expected: "boolean (TRUE, FALSE, 1 or 0)")
                }
            case .integer:
                guard let number = Int64(text) else {
                    throw StoreError.invalidValue(tab: tab, key: key, field: field.name, value: text,
                        expected: "integer")
                }
                return number.databaseValue
            default:
                return text.databaseValue
            }
        }
    }

    /// Whether two records agree on every field of the schema (a missing field is `""`).
    func sameFields(_ a: SheetSyncCore.Record, _ b: SheetSyncCore.Record) -> Bool {
        schema.fieldNames.allSatisfy { a[$0] == b[$0] }
    }
}
