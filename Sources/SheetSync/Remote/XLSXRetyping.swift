import Foundation
import SheetSyncCore
import SheetValues

/// Amounts and dates a person typed as text (`$1,000.00`, `1/15/2026`), accepted by the reader,
/// written back as the number or date cell they stand for, so a `SUM()` in the sheet counts them.
/// A read that finds such cells marks its snapshot, and the sync that accepts them writes them
/// back even when nothing else changes. The cell keeps its style; rejected and blank rows are
/// left exactly as they are, and so is text that a typed cell could not hold exactly (it is text on purpose).
enum XLSXRetyping {
    static func changes(_ table: Table, plan: TabPlan, adding changes: TableChanges) -> TableChanges {
        let frozen = Set(plan.rejections.map { $0.row - 2 }).union(changes.deletedRows)
        let written = Set(changes.cells.map { [$0.row, $0.column] })
        var result = changes
        let schema = plan.tab.schema.reading(plan.forms)
        for (row, column, cell) in retypable(table, schema: schema) where !frozen.contains(row) && !written.contains([row, column]) {
            result.cells.append(CellChange(row: row, column: column, key: keyText(table.rows[row], table.header, schema), cell: cell))
        }
        return result
    }

    /// Whether any row of `table` holds an amount or date as text that would be written back typed.
    static func hasRetypable(_ table: Table, schema: TabSchema) -> Bool {
        !retypable(table, schema: schema, first: true).isEmpty
    }

    /// The text cells of amount and date columns whose value parses, with the typed cell each becomes.
    private static func retypable(_ table: Table, schema: TabSchema, first: Bool = false) -> [(Int, Int, Cell)] {
        var columns: [(index: Int, spec: FieldSpec)] = []
        for (index, header) in table.header.enumerated() {
            let name = header.trimmingCharacters(in: .whitespaces).lowercased()
            guard let field = schema.fields.first(where: { $0.header.lowercased() == name }) else { continue }
            switch field.kind {
            case .amount, .date: columns.append((index, field))
            default: break
            }
        }
        var found: [(Int, Int, Cell)] = []
        guard !columns.isEmpty else { return found }
        for (row, cells) in table.rows.enumerated() {
            // By index: most cells are typed and never need their column's spec (a copy per cell).
            for i in columns.indices where columns[i].index < cells.count {
                let column = columns[i].index
                guard case .text = cells[column],
                    case .success(let value) = FieldParser.canonical(cells[column], columns[i].spec, schema.forms),
                    !value.isEmpty
                else { continue }
                // A value a typed cell cannot hold exactly (more than 15 digits, a date before 1900) is
                // written as text on purpose: it stays as it is, and is no retyping to report.
                let typed = FieldParser.cell(value, columns[i].spec, typed: true)
                if case .text = typed { continue }
                found.append((row, column, typed))
                if first { return found }
            }
        }
        return found
    }

    private static func keyText(_ cells: [Cell], _ header: [String], _ schema: TabSchema) -> String {
        let keyHeader = schema.field(schema.keyField)?.header.lowercased()
        guard let index = header.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == keyHeader }),
            index < cells.count
        else { return "" }
        return cells[index].rawText
    }
}
