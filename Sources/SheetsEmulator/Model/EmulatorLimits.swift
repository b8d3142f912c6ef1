/// The documented limits of the real services, which the emulator enforces as Google does.
public enum EmulatorLimits {
    /// Sheets refuses request bodies larger than this (400 INVALID_ARGUMENT).
    public static let maxPayloadBytes = 10_485_760
    /// The most characters one cell holds.
    public static let maxCellCharacters = 50_000
    /// The most cells a spreadsheet holds, over all its tabs.
    public static let maxCells = 10_000_000
}

extension SpreadsheetState {
    /// Every tab's grid, in cells.
    var cellCount: Int { sheets.reduce(0) { $0 + $1.rowCount * $1.columnCount } }

    /// Refuses growth past `EmulatorLimits.maxCells` before any row is allocated.
    func checkGrowth(addingCells cells: Int) throws(GoogleAPIError) {
        guard cellCount + cells <= EmulatorLimits.maxCells else { throw .tooManyCells() }
    }
}
