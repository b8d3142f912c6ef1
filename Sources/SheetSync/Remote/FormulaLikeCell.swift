import SheetSyncCore

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

    /// The one-line notice `check` gives.
    public var notice: String {
        "\(place) begins with '\(value.prefix(1))', which a spreadsheet program opening the file may run as a formula; "
            + "sheetsync keeps it as typed (open the file with formulas disabled, or import it as text)"
    }

    /// Every formula-like cell of the rows of `tables` (a CSV workbook's tabs), tab by tab, row by row.
    public static func all(in tables: [Tab: Table]) -> [FormulaLikeCell] {
        var found: [FormulaLikeCell] = []
        for tab in Tab.allCases {
            guard let table = tables[tab] else { continue }
            table.forEachCell(startingWith: FormulaText.mayBeFormulaLike) { index, column, text in
                guard FormulaText.isFormulaLike(text) else { return }
                let header = column < table.header.count && !table.header[column].isEmpty ? table.header[column] : "column \(column + 1)"
                found.append(
                    FormulaLikeCell(
                        file: "\(tab.rawValue).csv", tab: tab.rawValue, row: Table.sheetRowNumber(ofDataRow: index), column: header,
                        value: text))
            }
        }
        return found
    }

    /// At most `limit` notices, then how many more there are.
    static func notices(_ cells: [FormulaLikeCell], limit: Int = 20) -> [String] {
        var lines = cells.prefix(limit).map(\.notice)
        if cells.count > limit {
            lines.append("\(cells.count - limit) more formula-like cells (`sheetsync status --json` lists them all)")
        }
        return lines
    }
}
