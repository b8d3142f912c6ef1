import SheetValues

/// The cell-level edits a push makes to one existing worksheet.
///
/// Row numbers are the sheet's rows as read (the header is row 1, `Table.rows[i]` is row `i + 2`);
/// columns are 1-based. Appended rows go after the table's last row, their cells listed like any
/// other row's.
public struct WorksheetPatch: Sendable {
    /// The sheet's name, as the workbook lists it.
    public var sheet: String
    /// New cells by row and column.
    public var cells: [Int: [Int: Cell]]
    /// The rows (old numbers) that are appended, so they take the style of the row above.
    public var appendedRows: Set<Int>
    /// The columns sheetsync owns; every other column is the user's.
    public var ledgerColumns: Set<Int>
    public var shift: RowShift
    /// Rows (sheet numbers) left exactly as found, cached formula results included: rejected rows.
    public var frozenRows: Set<Int> = []

    /// The patch that carries out `changes` on a sheet whose table had `dataRowCount` data rows.
    public init(sheet: String, changes: TableChanges, dataRowCount: Int, ledgerColumns: Set<Int>) {
        self.sheet = sheet
        var cells: [Int: [Int: Cell]] = [:]
        for (index, header) in changes.newColumns {
            cells[1, default: [:]][index + 1] = .text(header)
        }
        for change in changes.cells {
            cells[Table.sheetRowNumber(ofDataRow: change.row), default: [:]][change.column + 1] = change.cell
        }
        let lastDataRow = dataRowCount + 1
        var appended = Set<Int>()
        for (offset, row) in changes.appendedRows.enumerated() {
            let number = lastDataRow + 1 + offset
            appended.insert(number)
            var rowCells: [Int: Cell] = [:]
            for (index, cell) in row.enumerated() where !cell.isEmpty { rowCells[index + 1] = cell }
            cells[number] = rowCells
        }
        self.cells = cells
        self.appendedRows = appended
        self.ledgerColumns = ledgerColumns
        self.shift = RowShift(
            deleted: changes.deletedRows.map(Table.sheetRowNumber(ofDataRow:)), lastDataRow: lastDataRow,
            appended: changes.appendedRows.count)
    }

    public var isEmpty: Bool { cells.isEmpty && shift.deleted.isEmpty }
}

/// What patching a worksheet did, beyond the edits asked for.
public struct WorksheetPatchReport: Sendable, Equatable {
    /// Formula cells whose value had to change: the formula gave way to the value.
    public var replacedFormulas: [String] = []

    public init(replacedFormulas: [String] = []) { self.replacedFormulas = replacedFormulas }
}
