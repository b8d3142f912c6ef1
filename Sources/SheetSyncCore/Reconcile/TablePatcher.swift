/// Carries a tab plan out on a table read from a file workbook.
///
/// Cells are compared by value, not spelling: a cell is rewritten only when its value must change,
/// so `1/15/2026` in a date cell or `12.5` for `12.50` stay as the user typed them. Rejected rows,
/// blank rows and user-added columns are left exactly as they were.
public enum TablePatcher {
    /// The header of a new tab: the schema's columns in order.
    public static func newHeader(_ schema: TabSchema) -> [String] { schema.fields.map(\.header) }

    public static func apply(_ plan: TabPlan, to table: Table, schema: TabSchema, typed: Bool) -> Table {
        var table = table
        if table.header.allSatisfy({ $0.trimmingSpaces().isEmpty }) { table.header = newHeader(schema) }
        var map = (try? ColumnMap(header: table.header, schema: schema))?.columns ?? [:]
        // Columns sheetsync owns but the sheet lacks (e.g. lastGeneratedDate) are added when used.
        let written = plan.remoteUpdates.flatMap { $0.fields.filter { !$0.value.isEmpty }.keys } + plan.remoteAppends.flatMap { $0.fields.filter { !$0.value.isEmpty }.keys }
        for field in schema.fields where map[field.name] == nil && written.contains(field.name) {
            map[field.name] = table.header.count
            table.header.append(field.header)
        }
        for update in plan.remoteUpdates where update.index < table.rows.count {
            var cells = table.rows[update.index]
            for (name, value) in update.fields {
                guard let column = map[name], let spec = schema.field(named: name) else { continue }
                if cells.count <= column { cells += Array(repeating: .empty, count: column + 1 - cells.count) }
                if case .success(let current) = FieldParser.canonical(cells[column], spec), current == value { continue }
                cells[column] = FieldParser.cell(value, spec, typed: typed)
            }
            table.rows[update.index] = cells
        }
        let doomed = Set(plan.remoteDeletes.map(\.index))
        if !doomed.isEmpty {
            table.rows = table.rows.enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
        }
        for record in plan.remoteAppends {
            table.rows.append(row(for: record, map: map, width: table.header.count, schema: schema, typed: typed))
        }
        return table
    }

    static func row(for record: Record, map: [String: Int], width: Int, schema: TabSchema, typed: Bool) -> [Cell] {
        var cells = Array(repeating: Cell.empty, count: width)
        for field in schema.fields {
            guard let column = map[field.name] else { continue }
            cells[column] = FieldParser.cell(record[field.name], field, typed: typed)
        }
        while let last = cells.last, last.isEmpty, cells.count > (map.values.max() ?? 0) + 1 { cells.removeLast() }
        return cells
    }
}
