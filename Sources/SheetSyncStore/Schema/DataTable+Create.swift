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
            }
            // Named constraints, so a refusal says what is wrong in words
            // (`CHECK constraint failed: month must be between 1 and 12`).
            for field in schema.fields {
                for check in Self.checks(for: field, key: field.name == schema.keyField) {
                    t.constraint(sql: "CONSTRAINT \(check.rule.quotedDatabaseIdentifier) CHECK (\(check.sql))")
                }
            }
        }
    }

    /// What SQLite checks for one column, each with the rule in words. A NULL passes every
    /// CHECK; NOT NULL covers required fields.
    static func checks(for field: FieldSpec, key: Bool) -> [(rule: String, sql: String)] {
        let name = field.name.quotedDatabaseIdentifier
        let label = field.name
        var checks: [(rule: String, sql: String)] = key ? [("\(label) must not be empty", "\(name) <> ''")] : []
        switch field.kind {
        case .enumeration(let values):
            let list = values.map(\.sqlLiteral).joined(separator: ", ")
            checks.append(("\(label) must be one of \(values.joined(separator: ", "))", "\(name) IN (\(list))"))
        case .boolean:
            checks.append(("\(label) must be 0 or 1", "\(name) IN (0, 1)"))
        case .integer(let range):
            switch (range.lowerBound == Int.min, range.upperBound == Int.max) {
            case (false, false):
                checks.append(
                    (
                        "\(label) must be between \(range.lowerBound) and \(range.upperBound)",
                        "\(name) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
                    ))
            case (false, true):
                checks.append(("\(label) must be at least \(range.lowerBound)", "\(name) >= \(range.lowerBound)"))
            case (true, false):
                checks.append(("\(label) must be at most \(range.upperBound)", "\(name) <= \(range.upperBound)"))
            case (true, true):
                break
            }
        case .uuid:
            checks.append(("\(label) must be a UUID", "\(name) GLOB '\(SQLPattern.uuid)'"))
        case .date:
            // `+0 days` makes SQLite normalize, so `2026-02-30` comes back different and fails.
            checks.append(("\(label) must be a real date YYYY-MM-DD", "date(\(name), '+0 days') IS \(name)"))
        case .timestamp:
            checks.append(
                (
                    "\(label) must be a timestamp like 2026-11-21T22:31:20.123Z",
                    "strftime('%Y-%m-%dT%H:%M:%fZ', \(name), '+0 days') IS \(name)"
                ))
        case .amount:
            // A plain non-negative decimal (`12.50`, or `12.5` typed in the shell: the engine
            // canonicalizes); no sign, currency, grouping or exponent.
            checks.append(
                (
                    "\(label) must be a non-negative decimal like 12.50",
                    "\(name) GLOB '[0-9]*' AND \(name) NOT GLOB '*[^0-9.]*' AND \(name) NOT GLOB '*.*.*'"
                        + " AND \(name) NOT GLOB '*.'"
                ))
        case .text, .freeText:
            break
        }
        return checks
    }
}

extension DataTable {
    /// Whether a field's text (as bytes; empty is NULL), bound as `columnValue` binds it, passes
    /// every CHECK `checks(for:key:)` gives the field, decided in Swift. True only when SQLite would
    /// agree (`StoreFormTests` puts each kind's edge cases through SQLite's own CHECKs); false also
    /// for some texts SQLite would take: the caller then lets SQLite decide.
    static func passesChecks(_ text: UnsafeBufferPointer<UInt8>, _ field: FieldSpec) -> Bool {
        guard !text.isEmpty else { return true }
        switch field.kind {
        case .enumeration(let values):
            return values.contains { value in value.utf8.elementsEqual(text) }
        case .boolean:
            // Bound as 1 or 0, or refused before SQLite sees it.
            return true
        case .integer(let range):
            return CanonicalText.plainInteger(text).map(range.contains) ?? false
        case .uuid:
            return RowKey.uuidBits(text) != nil
        case .date:
            return CanonicalText.isDate(text)
        case .timestamp:
            return CanonicalText.isTimestamp(text)
        case .amount:
            // `GLOB '[0-9]*'`, digits and points only, at most one point, not last.
            guard CanonicalText.isDigit(text[0]), text[text.count - 1] != UInt8(ascii: ".") else { return false }
            var points = 0
            for byte in text {
                if byte == UInt8(ascii: ".") {
                    points += 1
                } else if !CanonicalText.isDigit(byte) {
                    return false
                }
            }
            return points <= 1
        case .text, .freeText:
            return true
        }
    }
}

/// GLOB patterns for the canonical texts (GLOB has no repetition, hence the spelled-out classes).
enum SQLPattern {
    static let digit = "[0-9]"
    static let hex = "[0-9a-f]"
    static let date = String(repeating: digit, count: 4) + "-" + digit + digit + "-" + digit + digit
    static let uuid = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }.joined(separator: "-")
}

extension String {
    /// The text as an SQL string literal (`'it''s'`).
    var sqlLiteral: String { "'" + replacingOccurrences(of: "'", with: "''") + "'" }
}
