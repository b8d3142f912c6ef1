import GRDB
import SheetSyncCore

/// How a record's field texts become column values — one rule, used both for GRDB's
/// `[DatabaseValue]` (`values(of:)`) and for binding a row in place through a `RawStatement`
/// (`bindInsert`), which a first pull does 100k times: no array of values, no field looked up
/// by name, no `uppercased()` copy per row.
extension DataTable {
    /// A column value before it is bound: what `values(of:)` and `bindInsert` agree on.
    enum ColumnValue {
        case null
        case integer(Int64)
        case text(String)

        var databaseValue: DatabaseValue {
            switch self {
            case .null: return .null
            case .integer(let number): return number.databaseValue
            case .text(let text): return text.databaseValue
            }
        }
    }

    /// The value of `column` for `text` (a field of the record whose key is `key`): `""` is NULL,
    /// the key canonical, boolean texts `TRUE`/`FALSE`/`1`/`0` (any case) 1/0, integers decimal.
    func columnValue(_ text: String, _ column: PlannedColumn, key: String) throws -> ColumnValue {
        if text.isEmpty { return .null }
        switch column.rule {
        case .key:
            return .text(canonicalKey(text))
        case .boolean:
            // The engine's own texts first; any other spelling as `uppercased()` reads it.
            switch text {
            case FieldRule.trueText, "1": return .integer(1)
            case FieldRule.falseText, "0": return .integer(0)
            default: break
            }
            switch text.uppercased() {
            case FieldRule.trueText, "1": return .integer(1)
            case FieldRule.falseText, "0": return .integer(0)
            default:
                throw StoreError.invalidValue(
                    tab: tab, key: key, field: column.slot.name, value: text, expected: "boolean (TRUE, FALSE, 1 or 0)")
            }
        case .integer:
            guard let number = Int64(text) else {
                throw StoreError.invalidValue(tab: tab, key: key, field: column.slot.name, value: text, expected: "integer")
            }
            return .integer(number)
        case .text:
            return .text(text)
        }
    }

    /// The SQL values of `record`'s fields, in column order.
    func values(of record: LedgerRow) throws -> [DatabaseValue] {
        let columns = ColumnPlan.byTab[tab]
        let texts = columns.texts(of: record)
        let key = texts[columns.keyIndex]
        return try zip(columns.all, texts).map { try columnValue($1, $0, key: key).databaseValue }
    }

    /// Binds `record`'s fields to `statement`, a `RawStatement` of `insertSQL`, and runs it.
    func runInsert(_ record: LedgerRow, _ statement: RawStatement) throws {
        let columns = ColumnPlan.byTab[tab]
        let texts = columns.texts(of: record)
        let key = texts[columns.keyIndex]
        for (offset, column) in columns.all.enumerated() {
            let index = Int32(offset + 1)
            switch try columnValue(texts[offset], column, key: key) {
            case .null: try statement.bindNull(at: index)
            case .integer(let number): try statement.bindInteger(number, at: index)
            case .text(let text): try statement.bindText(text, at: index)
            }
        }
        try statement.step()
    }

    /// Whether inserting `record` would make `fix_insert` rewrite the row — its WHEN clause,
    /// decided in Swift on the values `columnValue` gives: a UUID with capitals (SQLite's lower()
    /// folds ASCII only; the key is bound canonical, so only a missing key counts), no key, an
    /// empty timestamp, or `year`/`month` other than the `date`'s. The caller binds the same
    /// record, so a text `columnValue` refuses is refused whatever this says.
    func needsFixOnInsert(_ record: LedgerRow) -> Bool {
        let texts = ColumnPlan.byTab[tab].texts(of: record)
        let fix = FixColumns.byTab[tab]
        for index in fix.uuids {
            let text = texts[index]
            if text.isEmpty {
                if index == fix.key { return true }
            } else if index != fix.key, text.utf8.contains(where: { $0 &- 65 < 26 }) {
                return true
            }
        }
        for index in fix.timestamps where texts[index].isEmpty { return true }
        guard let parts = fix.dateParts, let expected = Self.dateParts(texts[parts.date]) else { return false }
        return Self.integer(texts[parts.year]) != expected.year || Self.integer(texts[parts.month]) != expected.month
    }

    /// An integer column's value as bound (nil: NULL, for `""`).
    private static func integer(_ text: String) -> Int64? {
        text.isEmpty ? nil : Int64(text)
    }

    /// One column of a tab: where its text sits in the tab's records and how it is bound.
    struct PlannedColumn: Sendable {
        enum Rule: Sendable { case key, boolean, integer, text }
        let slot: FieldSlot
        let rule: Rule
    }

    /// A tab's columns in table order, found once.
    struct ColumnPlan: Sendable {
        let all: [PlannedColumn]
        let key: FieldSlot
        /// The key's position in `all`.
        let keyIndex: Int
        /// The tab's shared layout: a record of it holds its texts in column order.
        let layout: FieldLayout
        /// Whether keys are UUIDs (stored lowercase: see `canonicalKey`).
        let keyIsUUID: Bool

        static let byTab = PerTab { ColumnPlan($0) }

        /// `record`'s key text, by position when it has the tab's layout.
        func key(of record: LedgerRow) -> String {
            record.layout === layout ? record.values[keyIndex] : record[key]
        }

        /// `record`'s texts in column order: its own values when it has the tab's layout (every
        /// record the engine builds), else each field read by name (`""` when it has none).
        func texts(of record: LedgerRow) -> [String] {
            if record.layout === layout { return record.values }
            return all.map { record[$0.slot] }
        }

        private init(_ tab: Tab) {
            let schema = tab.schema
            all = schema.fields.map { field in
                let rule: PlannedColumn.Rule
                if field.key == schema.keyField {
                    rule = .key
                } else {
                    switch field.kind {
                    case .boolean: rule = .boolean
                    case .integer: rule = .integer
                    default: rule = .text
                    }
                }
                return PlannedColumn(slot: FieldSlot(field.key, of: tab), rule: rule)
            }
            key = FieldSlot(schema.keyField, of: tab)
            keyIndex = schema.fields.firstIndex { $0.key == schema.keyField } ?? 0
            layout = FieldLayout.of(tab)
            keyIsUUID = schema.field(schema.keyField)?.kind == .uuid
        }
    }
}
