import Foundation
import GRDB
import SheetSyncCore

/// The CREATE TABLE of a tab: the schema's fields in order, SQL types a person can use from the
/// sqlite3 shell, and the CHECKs SQLite can enforce for every writer.
extension DataTable {
    func create(_ db: Database) throws {
        try db.create(table: schema.tableName) { t in
            for field in schema.fields {
                let column = t.column(field.name, field.isIntegerColumn ? .integer : .text)
                if field.name == schema.keyField {
                    column.notNull().primaryKey()
                } else if field.required {
                    column.notNull()
                }
                for check in Self.checks(for: field, key: field.name == schema.keyField) {
                    column.check(sql: check)
                }
            }
        }
    }

    /// What SQLite checks for one column. A NULL passes every CHECK; NOT NULL handles required.
    static func checks(for field: FieldSpec, key: Bool) -> [String] {
        let name = field.name.quotedDatabaseIdentifier
        var checks: [String] = key ? ["\(name) <> ''"] : []
        switch field.kind {
        case .enumeration(let values):
            let list = values.map { $0.sqlLiteral }.joined(separator: ", ")
            checks.append("\(name) IN (\(list))")
        case .boolean:
            checks.append("\(name) IN (0, 1)")
        case .integer(let range):
            if range.lowerBound != Int.min { checks.append("\(name) >= \(range.lowerBound)") }
            if range.upperBound != Int.max { checks.append("\(name) <= \(range.upperBound)") }
        case .uuid:
            checks.append("\(name) GLOB '\(SQLPattern.uuid)'")
        case .date:
            checks.append("\(name) GLOB '\(SQLPattern.date)'")
        case .timestamp:
            checks.append("\(name) GLOB '\(SQLPattern.timestamp)'")
        case .amount:
            // A plain non-negative decimal (`12.50`, or `12.5` typed in the shell: the engine
            // canonicalizes); no sign, currency, grouping or exponent.
            checks.append("\(name) GLOB '[0-9]*' AND \(name) NOT GLOB '*[^0-9.]*'"
                + " AND \(name) NOT GLOB '*.*.*' AND \(name) NOT GLOB '*.'")
        case .text, .freeText:
            break
        }
        return checks
    }
}

/// GLOB patterns for the canonical texts (GLOB has no repetition, hence the spelled-out classes).
enum SQLPattern {
    static let digit = "[0-9]"
    static let hex = "[0-9a-f]"
    static let date = String(repeating: digit, count: 4) + "-" + digit + digit + "-" + digit + digit
    static let timestamp = date + "T" + digit + digit + ":" + digit + digit + ":" + digit + digit + "."
        + String(repeating: digit, count: 3) + "Z"
    static let uuid = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }.joined(separator: "-")
}

extension String {
    /// The text as an SQL string literal (`'it''s'`).
    var sqlLiteral: String { "'" + replacingOccurrences(of: "'", with: "''") + "'" }
}
