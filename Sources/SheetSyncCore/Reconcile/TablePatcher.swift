import SheetValues

/// Carries a tab plan out on a table read from a workbook.
///
/// Cells are compared by value, not spelling: a cell is rewritten only when its value must change,
/// so `1/15/2026` in a date cell or `12.5` for `12.50` stay as the user typed them. Rejected rows,
/// blank rows and user-added columns are left exactly as they were.
public enum TablePatcher {
    /// The header of a new tab: the schema's columns in order.
    public static func newHeader(_ schema: TabSchema) -> [String] { schema.fields.map(\.header) }

    /// The changes, cell by cell, that make `table` carry out `plan`.
    public static func changes(_ plan: TabPlan, to table: Table, schema: TabSchema, typed: Bool) -> TableChanges {
        var changes = TableChanges()
        var header = table.header
        if header.allSatisfy({ $0.trimmingSpaces().isEmpty }) {
            header = newHeader(schema)
            changes.newColumns = header.enumerated().map { ($0.offset, $0.element) }
        }
        var map = (try? ColumnMap(header: header, schema: schema))?.columns ?? [:]
        // Columns sheetsync owns but the sheet lacks (e.g. lastGeneratedDate) are added when used.
        let used = Set(
            plan.remoteUpdates.flatMap { $0.fields.filter { !$0.value.isEmpty }.keys }
                + plan.remoteAppends.flatMap { $0.namedValues.filter { !$0.1.isEmpty }.map(\.0) })
        for field in schema.fields where map[field.key] == nil && used.contains(field.name) {
            map[field.key] = header.count
            changes.newColumns.append((header.count, field.header))
            header.append(field.header)
        }
        for update in plan.remoteUpdates where update.index < table.rowCount {
            let cells = table.row(update.index)
            for name in update.fields.keys.sorted() {
                guard let value = update.fields[name], let spec = schema.field(named: name), let column = map[spec.key] else { continue }
                let current = column < cells.count ? cells[column] : .empty
                if case .success(let existing) = FieldParser.canonical(current, spec, schema.forms), existing == value { continue }
                changes.cells.append(
                    CellChange(
                        row: update.index, column: column, key: update.key,
                        cell: FieldParser.cell(value, spec, typed: typed)))
            }
        }
        changes.deletedRows = plan.remoteDeletes.map(\.index).sorted()
        changes.appendedRows = plan.remoteAppends.map { row(for: $0, map: map, width: header.count, schema: schema, typed: typed) }
        return changes
    }

    /// The table after `plan`, for workbooks that are rewritten whole (CSV, XLSX).
    public static func apply(_ plan: TabPlan, to table: Table, schema: TabSchema, typed: Bool) -> Table {
        let changes = changes(plan, to: table, schema: schema, typed: typed)
        var table = table
        for (index, header) in changes.newColumns {
            if index < table.header.count { table.header[index] = header } else { table.header.append(header) }
        }
        for change in changes.cells {
            var cells = table.rows[change.row]
            if cells.count <= change.column { cells += Array(repeating: .empty, count: change.column + 1 - cells.count) }
            cells[change.column] = change.cell
            table.rows[change.row] = cells
        }
        if !changes.deletedRows.isEmpty {
            let doomed = Set(changes.deletedRows)
            table.rows = table.rows.enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
        }
        table.rows += changes.appendedRows
        return table
    }

    static func row(for record: LedgerRow, map: [FieldKey: Int], width: Int, schema: TabSchema, typed: Bool) -> [Cell] {
        var cells = Array(repeating: Cell.empty, count: width)
        for field in schema.fields {
            guard let column = map[field.key] else { continue }
            cells[column] = FieldParser.cell(record[field.key], field, typed: typed)
        }
        while let last = cells.last, last.isEmpty, cells.count > (map.values.max() ?? 0) + 1 { cells.removeLast() }
        return cells
    }
}
