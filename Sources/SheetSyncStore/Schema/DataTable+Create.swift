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
                if field.key == schema.keyField {
                    column.notNull().primaryKey()
                } else if field.required {
                    column.notNull()
                }
            }
            // Named constraints, so a refusal says what is wrong in words
            // (`CHECK constraint failed: month must be between 1 and 12`).
            for field in schema.fields {
                for check in Self.checks(for: field, key: field.key == schema.keyField) {
                    t.constraint(sql: "CONSTRAINT \(check.rule.quotedDatabaseIdentifier) CHECK (\(check.sql))")
                }
            }
        }
    }

    /// What SQLite checks for one column, each with the rule in words: the key's, then the
    /// field kind's (`FieldKind.rule`). A NULL passes every CHECK; NOT NULL covers required fields.
    static func checks(for field: FieldSpec, key: Bool) -> [(rule: String, sql: String)] {
        let checks = (key ? [FieldRule.keyCheck] : []) + [field.kind.rule.check].compactMap { $0 }
        return checks.map { $0.constraint(field.name, quotedName: field.name.quotedDatabaseIdentifier) }
    }
}

extension DataTable {
    /// Whether a field's text (as bytes; empty is NULL), bound as `columnValue` binds it, passes
    /// every CHECK `checks(for:key:)` gives the field, decided in Swift (`FieldKind.passesCheck`).
    /// True only when SQLite would agree (`FieldRuleAgreementTests` and `PassesChecksTests` put
    /// each kind's edge cases through SQLite's own CHECKs); false also for some texts SQLite would
    /// take: the caller then lets SQLite decide.
    static func passesChecks(_ text: UnsafeBufferPointer<UInt8>, _ field: FieldSpec) -> Bool {
        text.isEmpty || field.kind.passesCheck(text)
    }
}
