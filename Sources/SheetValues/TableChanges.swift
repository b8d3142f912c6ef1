/// The cell-level changes a tab plan makes to a table as it was read.
public struct TableChanges: Hashable, Sendable {
    /// Header cells to add: (column index, header text).
    public var newColumns: [(index: Int, header: String)] = []
    /// Cells to rewrite in existing rows: (data row index, column index, new cell).
    public var cells: [CellChange] = []
    /// Data row indexes to delete.
    public var deletedRows: [Int] = []
    /// Whole new rows, in header order.
    public var appendedRows: [[Cell]] = []

    public init() {}

    public var isEmpty: Bool { newColumns.isEmpty && cells.isEmpty && deletedRows.isEmpty && appendedRows.isEmpty }

    public static func == (a: TableChanges, b: TableChanges) -> Bool {
        a.newColumns.map(\.index) == b.newColumns.map(\.index) && a.newColumns.map(\.header) == b.newColumns.map(\.header)
            && a.cells == b.cells && a.deletedRows == b.deletedRows && a.appendedRows == b.appendedRows
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cells)
        hasher.combine(deletedRows)
        hasher.combine(appendedRows)
    }
}

public struct CellChange: Hashable, Sendable {
    public var row: Int
    public var column: Int
    public var key: String
    public var cell: Cell

    public init(row: Int, column: Int, key: String, cell: Cell) {
        self.row = row
        self.column = column
        self.key = key
        self.cell = cell
    }
}
