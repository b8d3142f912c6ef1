import SheetValues

/// The cells `check` and `status` look at closer in a CSV workbook, told by column and first byte so
/// that a scan decodes only those: any cell whose first byte can begin a formula
/// (`FormulaText.mayBeFormulaLike`), and, with `roundTrips`, a text field's cell whose first byte can
/// begin a number a spreadsheet program reformats (`SpreadsheetCoercion.mayChange`).
public struct CellCandidates: Sendable {
    /// Per column: whether it holds a text field (only those can be reformatted).
    private let isText: [Bool]

    public init(table: Table, tab: Tab, roundTrips: Bool) {
        let texts = roundTrips ? RoundTripChecks.textColumns(of: table, tab: tab) : [:]
        var isText = [Bool](repeating: false, count: (texts.keys.max() ?? -1) + 1)
        for column in texts.keys { isText[column] = true }
        self.isText = isText
    }

    public func contains(column: Int, firstByte byte: UInt8) -> Bool {
        FormulaText.mayBeFormulaLike(firstByte: byte)
            || (column < isText.count && isText[column] && SpreadsheetCoercion.mayChange(firstByte: byte))
    }
}

/// A cell a scan set aside for a closer look (`CellCandidates`): data row index, column, text.
public struct NotedCell: Hashable, Sendable {
    public var row: Int
    public var column: Int
    public var text: String

    public init(row: Int, column: Int, text: String) {
        (self.row, self.column, self.text) = (row, column, text)
    }
}
