import SheetSyncCore
import SheetValues

/// A cell already in a CSV workbook that a spreadsheet program opening the file may run as a formula
/// (`FormulaText.isFormulaLike`: `=cmd|' /C calc'!A0`). sheetsync keeps it exactly as typed (the workbook
/// is the ledger itself); `check` and `status` list such cells so that the user knows before opening the file.
public struct FormulaLikeCell: Codable, Hashable, Sendable {
    /// The tab's file name (`Transactions.csv`).
    public var file: String
    public var tab: String
    /// The row as a spreadsheet numbers it (the header is row 1).
    public var row: Int
    /// The column's header text (`note`), or `column N` for a column without one.
    public var column: String
    public var value: String

    /// `Transactions.csv row 2, note: '=cmd|' /C calc'!A0'` (a long value cut at 60 characters).
    public var place: String {
        let shown = value.count > 60 ? value.prefix(60) + "…" : Substring(value)
        return "\(file) row \(row), \(column): '\(shown)'"
    }

    /// The notice `check` gives.
    public var notice: SyncIssue {
        let shown = value.count > 60 ? value.prefix(60) + "…" : Substring(value)
        return .notice(
            .formulaLikeCell, at: IssuePlace(file: file, row: row, column: column),
            "'\(shown)' begins with '\(value.prefix(1))', which a spreadsheet program opening the file may run as a formula; "
                + "sheetsync keeps it as typed (open the file with formulas disabled, or import it as text)")
    }

    /// What `check` and `status` name in a CSV workbook's cells: the formula-like cells, and (with
    /// `roundTrips`) the text cells a spreadsheet program would change when it opens and saves the file
    /// (`RoundTripChecks`), tab by tab, row by row. Only the `CellCandidates` are decoded: those a scan
    /// of the tab set aside already (`noted`, from `PlainRows`), else found in one pass over its cells.
    public static func review(_ tables: [Tab: Table], roundTrips: Bool, noted: [Tab: [NotedCell]] = [:]) -> (
        formulaLike: [FormulaLikeCell], atRisk: [SyncIssue]
    ) {
        var formulaLike: [FormulaLikeCell] = [], atRisk: [SyncIssue] = []
        for tab in Tab.allCases {
            guard let table = tables[tab] else { continue }
            let texts = roundTrips ? RoundTripChecks.textColumns(of: table, tab: tab) : [:]
            let look = { (index: Int, column: Int, text: String) in
                if let cell = FormulaLikeCell(tab: tab, table: table, row: index, column: column, text: text) { formulaLike.append(cell) }
                if let name = texts[column], let line = RoundTripChecks.atRisk(tab: tab, row: index, name: name, text: text) {
                    atRisk.append(line)
                }
            }
            if let cells = noted[tab] {
                for cell in cells { look(cell.row, cell.column, cell.text) }
            } else {
                let candidates = CellCandidates(table: table, tab: tab, roundTrips: roundTrips)
                table.forEachCell(where: candidates.contains(column:firstByte:), look)
            }
        }
        return (formulaLike, atRisk)
    }

    /// At most `limit` notices, then how many more there are.
    static func notices(_ cells: [FormulaLikeCell], limit: Int = 20) -> [SyncIssue] {
        var lines = cells.prefix(limit).map(\.notice)
        if cells.count > limit {
            lines.append(
                .notice(.formulaLikeCell, "\(cells.count - limit) more formula-like cells (`sheetsync status --json` lists them all)"))
        }
        return lines
    }
}

extension FormulaLikeCell {
    /// The cell at data row `index` and `column` of a CSV tab, if its text is formula-like.
    init?(tab: Tab, table: Table, row index: Int, column: Int, text: String) {
        guard FormulaText.isFormulaLike(text) else { return nil }
        let header = column < table.header.count && !table.header[column].isEmpty ? table.header[column] : "column \(column + 1)"
        self.init(file: "\(tab.rawValue).csv", tab: tab.rawValue, row: Table.sheetRowNumber(ofDataRow: index), column: header, value: text)
    }
}
