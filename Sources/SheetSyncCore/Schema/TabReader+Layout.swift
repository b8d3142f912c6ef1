import SheetValues

/// Where the fields that defaults and checks name sit in a schema's field list, so a row is parsed
/// into an array of texts and becomes a `LedgerRow` once, instead of through a dictionary per cell.
struct RowLayout: Sendable {
    var key: Int
    var createdAt: Int
    var lastModifiedAt: Int
    /// Transactions: `type`, `date`, `year`, `month`.
    var type = 0, date = 0, year = 0, month = 0
    /// RecurringRules: `interval`; Categories: `isActive`.
    var interval = 0, isActive = 0
    /// Builds a row's record from its array of texts over the tab's shared layout, so no field
    /// name is hashed per row.
    var template = LedgerRowTemplate(names: [])
    /// Positions of the required fields other than the key, in field order.
    var requiredSlots: [Int] = []

    /// The layout of `schema`, or nil when a field the defaults name is missing or a name repeats
    /// (then `TabReader.parseByName` handles the row, with the same rules).
    static func of(_ schema: TabSchema) -> RowLayout? {
        if let known = standard[schema.tab], known.fields == schema.fields, known.keyField == schema.keyField {
            return known.layout
        }
        return make(schema)
    }

    /// The five tabs' layouts; comparing a schema's field array with these is an identity check.
    private static let standard: [Tab: (fields: [FieldSpec], keyField: FieldKey, layout: RowLayout?)] =
        Dictionary(uniqueKeysWithValues: Tab.allCases.map { ($0, ($0.schema.fields, $0.schema.keyField, make($0.schema))) })

    private static func make(_ schema: TabSchema) -> RowLayout? {
        let names = schema.fieldNames
        guard Set(names).count == names.count else { return nil }
        func at(_ key: FieldKey) -> Int? { schema.fields.firstIndex { $0.key == key } }
        guard let key = at(schema.keyField), let created = at(.createdAt), let modified = at(.lastModifiedAt) else { return nil }
        var layout = RowLayout(key: key, createdAt: created, lastModifiedAt: modified)
        layout.template = LedgerRowTemplate(names: names)
        layout.requiredSlots = schema.fields.indices.filter { schema.fields[$0].required && schema.fields[$0].key != schema.keyField }
        switch schema.tab {
        case .transactions:
            guard let type = at(.type), let date = at(.date), let year = at(.year), let month = at(.month) else { return nil }
            (layout.type, layout.date, layout.year, layout.month) = (type, date, year, month)
        case .recurringRules:
            guard let interval = at(.interval) else { return nil }
            layout.interval = interval
        case .categories:
            guard let isActive = at(.isActive) else { return nil }
            layout.isActive = isActive
        case .receipts, .settings:
            break
        }
        return layout
    }
}

extension TabReader {
    /// `parseByName` over field positions: `cellAt(i)` is the cell of `schema.fields[i]`.
    static func parse(schema: TabSchema, layout: RowLayout, seenAt: Timestamp, cellAt: (Int) -> Cell) -> (SheetRow.Outcome, String?) {
        var values: [String] = []
        return parse(schema: schema, layout: layout, seenAt: seenAt, scratch: &values, cellAt: cellAt)
    }

    /// `parse` with the caller's array for the row's texts, reused from row to row.
    static func parse(
        schema: TabSchema, layout: RowLayout, seenAt: Timestamp, scratch values: inout [String],
        cellAt: (Int) -> Cell
    ) -> (SheetRow.Outcome, String?) {
        let fields = schema.fields
        if values.count != fields.count { values = [String](repeating: "", count: fields.count) }
        var problems: [FieldProblem] = []
        for i in fields.indices {
            switch FieldParser.canonical(cellAt(i), fields[i], schema.forms) {
            case .success(let value): values[i] = value
            case .failure(let problem):
                values[i] = ""
                problems.append(problem)
            }
        }
        let keyField = schema.keyField
        let keyReadable = problems.isEmpty || !problems.contains { $0.field == schema.field(keyField)?.header }
        let key: String? = keyReadable ? values[layout.key] : nil
        var fixes: Set<String> = []
        applyDefaults(&values, fixes: &fixes, layout: layout, schema: schema, seenAt: seenAt)
        for i in layout.requiredSlots where values[i].isEmpty {
            if let problem = emptyRequiredProblem(fields[i], tab: schema.tab, problems: problems) { problems.append(problem) }
        }
        if !problems.isEmpty { return (.rejected(problems), key) }
        // A row never edited has equal stamps: they share one string (a stamp is a heap string, and
        // a million rows would otherwise hold it twice).
        if values[layout.lastModifiedAt] == values[layout.createdAt] { values[layout.lastModifiedAt] = values[layout.createdAt] }
        let record = layout.template.record(values)
        // The record owns this array now: the next row starts a fresh one rather than copying it.
        values = []
        return (.record(record, fixes: fixes), key)
    }

    /// `applyDefaults` over field positions.
    static func applyDefaults(_ values: inout [String], fixes: inout Set<String>, layout: RowLayout, schema: TabSchema, seenAt: Timestamp) {
        let fields = schema.fields
        func set(_ i: Int, _ value: String) {
            values[i] = value
            fixes.insert(fields[i].name)
        }
        if values[layout.createdAt].isEmpty || values[layout.lastModifiedAt].isEmpty {
            let now = seenAt.description
            for i in [layout.createdAt, layout.lastModifiedAt] where values[i].isEmpty { set(i, now) }
        }
        switch schema.tab {
        case .transactions:
            if values[layout.type].isEmpty { set(layout.type, "expense") }
            if let date = CanonicalText.isoDate(values[layout.date]) {
                let year = String(date.year), month = String(date.month)
                if values[layout.year] != year { set(layout.year, year) }
                if values[layout.month] != month { set(layout.month, month) }
            }
        case .recurringRules:
            if values[layout.interval].isEmpty { set(layout.interval, "1") }
        case .categories:
            if values[layout.isActive].isEmpty { set(layout.isActive, "TRUE") }
        case .receipts, .settings:
            break
        }
    }
}
