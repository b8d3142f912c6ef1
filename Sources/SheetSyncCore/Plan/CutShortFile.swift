import SheetValues

/// A workbook file cut off part-way through a save or copy: its last row has no line end after it
/// and is short of cells or unreadable. The rows after the cut are missing, not deleted (a
/// tab with a row rejected for its structure deletes nothing), so the cut row is rejected and the
/// tab only feeds the store this run: nothing of it is deleted and the file is not written.
enum CutShortFile {
    /// The data row index of the cut row, with that row in `rows` now rejected; nil when `table` does
    /// not look cut (its last row is whole, ends with a line end, or was left out as unchanged).
    static func mark(_ rows: inout [SheetRow], table: Table) -> Int? {
        guard table.lastRowUnterminated, table.rowCount > 0 else { return nil }
        let last = table.rowCount - 1
        guard let at = rows.lastIndex(where: { $0.index == last }) else { return nil }
        let cells = table.row(last)
        var problems: [FieldProblem] = []
        switch rows[at].outcome {
        case .rejected(let found): problems = found
        case .record where cells.count < table.header.count: break
        case .record, .blank: return nil
        }
        problems.append(
            FieldProblem(
                field: "", value: "",
                message: "the file ends in the middle of this row (\(cells.count) of \(table.header.count) cells, "
                    + "no line end after it): it looks cut short by a save or copy that did not finish, "
                    + "and rows after it may be missing",
                hint: "complete the row, or put the whole file back (from a backup, or .sheetsync-backup/ where "
                    + "sheetsync keeps the copies it replaced); the store still has every row"))
        rows[at] = SheetRow(index: last, cells: cells, outcome: .rejected(problems), key: rows[at].key)
        return last
    }

    /// What the run holds back for the cut tab.
    static func held(_ tab: Tab, row: Int) -> SyncIssue {
        .heldBack(
            .damagedTab, at: .tab(tab),
            "the file ends in the middle of row \(Table.sheetRowNumber(ofDataRow: row)) (cut short?); "
                + "nothing of the tab was deleted and it is not written until that row is whole")
    }
}
