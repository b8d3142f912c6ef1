import Foundation
import SheetSyncCore

/// Amounts and dates a person typed as text (`$1,000.00`, `1/15/2026`), accepted by the reader,
/// written back as the number or date cell they stand for whenever the workbook is written, so a
/// `SUM()` in the sheet counts them. The cell keeps its style; rejected and blank rows are left
/// exactly as they are.
enum XLSXRetyping {
    static func changes(_ table: Table, plan: TabPlan, adding changes: TableChanges) -> TableChanges {
        let schema = plan.tab.schema
        var columns: [(index: Int, spec: FieldSpec)] = []
        for (index, header) in table.header.enumerated() {
            let name = header.trimmingCharacters(in: .whitespaces).lowercased()
            guard let field = schema.fields.first(where: { $0.header.lowercased() == name }) else { continue }
            switch field.kind {
            case .amount, .date: columns.append((index, field))
            default: break
            }
        }
        guard !columns.isEmpty else { return changes }
        let frozen = Set(plan.rejections.map { $0.row - 2 }).union(changes.deletedRows)
        let written = Set(changes.cells.map { [$0.row, $0.column] })
        var result = changes
        for (row, cells) in table.rows.enumerated() where !frozen.contains(row) {
            for (column, spec) in columns where column < cells.count && !written.contains([row, column]) {
                guard case .text = cells[column], case .success(let value) = FieldParser.canonical(cells[column], spec),
                    !value.isEmpty
                else { continue }
                let key = keyText(cells, table.header, schema)
                result.cells.append(CellChange(row: row, column: column, key: key, cell: FieldParser.cell(value, spec, typed: true)))
            }
        }
        return result
    }

    private static func keyText(_ cells: [Cell], _ header: [String], _ schema: TabSchema) -> String {
        let keyHeader = schema.field(named: schema.keyField)?.header.lowercased()
        guard let index = header.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == keyHeader }),
            index < cells.count
        else { return "" }
        return cells[index].rawText
    }
}
