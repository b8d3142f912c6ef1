import SheetValues

/// The text cells of a CSV workbook a spreadsheet program would change when it opens and saves the
/// file (`SpreadsheetCoercion`): rows that came back with exactly that change are held back, and
/// the texts at risk are named when sheetsync writes them and when `check` reads them.
public enum RoundTripChecks {
    /// The fields a spreadsheet program may coerce: texts (amounts, dates and the rest read the same
    /// as numbers).
    static func textFields(_ schema: TabSchema) -> [FieldSpec] {
        schema.fields.filter { $0.kind == .text || $0.kind == .freeText }
    }

    /// Rejects each row holding, in a text field, exactly the spreadsheet program's change of the
    /// value sheetsync last wrote there (`base`), instead of taking it as an edit.
    static func holdCoerced(_ rows: inout [SheetRow], schema: TabSchema, base: [String: LedgerRow]) {
        guard !base.isEmpty else { return }
        let fields = textFields(schema)
        for i in rows.indices {
            guard case .record(let record, _) = rows[i].outcome, let key = rows[i].key, let written = base[key] else { continue }
            let problems = fields.compactMap { field -> FieldProblem? in
                let value = record[field.key], before = written[field.key]
                guard value != before, SpreadsheetCoercion.cameBack(value, for: before) else { return nil }
                return FieldProblem(
                    field: field.header, value: value,
                    message: "\(field.header) '\(value)' is what a spreadsheet program makes of '\(before)', which sheetsync wrote "
                        + "(it read the text as a number when it opened and saved the file)",
                    hint: "type '\(before)' back (format the cell as text first), or, if '\(value)' is meant, set it with "
                        + "`sheetsync edit`", code: .coercedValue)
            }
            if !problems.isEmpty { rows[i].outcome = .rejected(problems) }
        }
    }

    /// A line for each text value sheetsync writes that a spreadsheet program would change.
    static func written(_ plan: TabPlan) -> [SyncIssue] {
        let tab = plan.tab, keyField = tab.schema.keyField
        let updated = plan.remoteUpdates.map { (IssuePlace.row(Table.sheetRowNumber(ofDataRow: $0.index), of: tab), Array($0.fields)) }
        let added = plan.remoteAppends.map { (IssuePlace.key($0[keyField], of: tab), $0.namedValues.map { ($0, $1) }) }
        return (updated + added).flatMap { place, values in
            values.compactMap { name, value in line(tab, place, name: name, value: value, says: "is written as text") }
        }
    }

    /// The columns of `table` holding text fields, by index, with their field names: where `atRisk`
    /// looks.
    public static func textColumns(of table: Table, tab: Tab) -> [Int: String] {
        guard let map = try? ColumnMap(header: table.header, schema: tab.schema) else { return [:] }
        let columns = textFields(tab.schema).compactMap { field in map.columns[field.key].map { ($0, field.name) } }
        return Dictionary(columns, uniquingKeysWith: { first, _ in first })
    }

    /// The line for a text cell of a CSV tab (field `name`, data row `index`) that a spreadsheet
    /// program would change, or nil; only a text `SpreadsheetCoercion.mayChange` lets through can be one.
    public static func atRisk(tab: Tab, row index: Int, name: String, text: String) -> SyncIssue? {
        line(tab, .row(Table.sheetRowNumber(ofDataRow: index), of: tab), name: name, value: text, says: "is text")
    }

    private static func line(_ tab: Tab, _ place: IssuePlace, name: String, value: String, says: String) -> SyncIssue? {
        guard let field = tab.schema.field(named: name), field.kind == .text || field.kind == .freeText,
            let outcome = SpreadsheetCoercion.of(value)
        else { return nil }
        let becomes: String
        switch outcome {
        case .number(let shown): becomes = "'\(shown)'"
        case .formula: becomes = "the formula's result"
        }
        return .notice(
            .valueAtRisk, at: place,
            "\(field.header) '\(value)' \(says) that a spreadsheet program turns into \(becomes) when it opens "
                + "and saves the CSV (sheetsync then holds the row back); import that column as text to keep it")
    }
}
