/// One row of a tab: its cells (trailing blanks trimmed) and the developer metadata anchored on it,
/// kept together so metadata moves with its row on insert, delete and sort.
struct RowState: Sendable, Equatable, Codable {
    var cells: [EmulatedCell] = []
    var metadataIds: [Int] = []

    func cell(_ column: Int) -> EmulatedCell {
        column < cells.count ? cells[column] : .blank
    }

    mutating func setCell(_ column: Int, _ cell: EmulatedCell) {
        if column >= cells.count {
            guard !cell.isBlank else { return }
            cells.append(contentsOf: repeatElement(.blank, count: column - cells.count + 1))
        }
        cells[column] = cell
        while let last = cells.last, last.isBlank { cells.removeLast() }
    }
}

/// Where a developer metadata entry lives; row and column entries are found through their anchors.
enum MetadataPlacement: String, Sendable, Codable {
    case spreadsheet = "SPREADSHEET"
    case sheet = "SHEET"
    case row = "ROW"
    case column = "COLUMN"
}

/// A developer metadata entry without its (derived) position.
struct MetadataRecord: Sendable, Equatable, Codable {
    var id: Int
    var key: String
    var value: String?
    var visibility: String
    var placement: MetadataPlacement
    var sheetId: Int?
    /// How many rows or columns the entry spans from its anchor.
    var span: Int = 1
}

/// One tab: its grid size, rows and column anchors.
struct SheetState: Sendable, Equatable, Codable {
    var sheetId: Int
    var title: String
    var rowCount: Int
    var columnCount: Int
    var frozenRowCount = 0
    var frozenColumnCount = 0
    var hidden = false
    var rows: [RowState]
    /// Developer metadata ids anchored on each column, one entry per column.
    var columnMetadata: [[Int]]

    init(sheetId: Int, title: String, rowCount: Int = 1000, columnCount: Int = 26) {
        self.sheetId = sheetId
        self.title = title
        self.rowCount = rowCount
        self.columnCount = columnCount
        self.rows = Array(repeating: RowState(), count: rowCount)
        self.columnMetadata = Array(repeating: [], count: columnCount)
    }

    /// The last row and column holding a value or format, for trimming answers.
    var usedRowCount: Int {
        (rows.lastIndex { !$0.cells.isEmpty } ?? -1) + 1
    }

    func cell(row: Int, column: Int) -> EmulatedCell {
        row < rows.count ? rows[row].cell(column) : .blank
    }
}

/// A whole spreadsheet as the emulator holds it. A value type, so a batch of requests is applied
/// to a copy and committed only when every request succeeded (Google's batches are atomic).
struct SpreadsheetState: Sendable, Equatable, Codable {
    var id: String
    var title: String
    var locale = "en_US"
    var timeZone = "Etc/GMT"
    var sheets: [SheetState] = []
    var metadata: [Int: MetadataRecord] = [:]
    var nextSheetSeed = 1
    var nextMetadataId = 1

    func sheetIndex(id sheetId: Int) -> Int? {
        sheets.firstIndex { $0.sheetId == sheetId }
    }

    func sheetIndex(title: String) -> Int? {
        sheets.firstIndex { $0.title == title }
    }

    /// Sheet ids look like Google's: the first is 0, later ones large and unpredictable-looking.
    mutating func makeSheetId() -> Int {
        defer { nextSheetSeed += 1 }
        var candidate = (nextSheetSeed &* 1_103_515_245 &+ 12_345) % 2_000_000_000
        while sheetIndex(id: candidate) != nil { candidate += 1 }
        return abs(candidate)
    }

    /// Adds a tab; `index` nil appends it.
    @discardableResult
    mutating func addSheet(title: String, sheetId: Int? = nil, index: Int? = nil, rowCount: Int = 1000, columnCount: Int = 26)
        throws(GoogleAPIError) -> Int
    {
        guard !title.isEmpty else { throw .invalidArgument("Invalid sheet title: a sheet name cannot be empty.") }
        guard sheetIndex(title: title) == nil else {
            throw .invalidArgument(
                "Invalid requests[0].addSheet: A sheet with the name \"\(title)\" already exists. Please enter another name.")
        }
        let id = sheetId ?? (sheets.isEmpty ? 0 : makeSheetId())
        guard sheetIndex(id: id) == nil else { throw .invalidArgument("Invalid requests[0].addSheet: Sheet with id \(id) already exists.") }
        try checkGrowth(addingCells: rowCount * columnCount)
        let sheet = SheetState(sheetId: id, title: title, rowCount: rowCount, columnCount: columnCount)
        let position = min(max(index ?? sheets.count, 0), sheets.count)
        sheets.insert(sheet, at: position)
        return position
    }

    /// Finds the tab a range names, or the first tab when it names none.
    func resolveSheet(of range: A1Range, text: String) throws(GoogleAPIError) -> Int {
        guard let name = range.sheetName else {
            guard !sheets.isEmpty else { throw .invalidArgument("Unable to parse range: \(text)") }
            return 0
        }
        guard let index = sheetIndex(title: name) else { throw .invalidArgument("Unable to parse range: \(text)") }
        return index
    }

    /// Parses an A1 range and binds it to its tab's grid: (sheet index, rows, columns).
    func bind(_ text: String) throws(GoogleAPIError) -> BoundRange {
        guard let range = A1Range.parse(text, sheetNames: sheets.map(\.title)) else {
            throw .invalidArgument("Unable to parse range: \(text)")
        }
        let index = try resolveSheet(of: range, text: text)
        let sheet = sheets[index]
        let rows = (range.startRow ?? 0)..<(range.endRow ?? max(sheet.rowCount, range.startRow ?? 0))
        let columns = (range.startColumn ?? 0)..<(range.endColumn ?? max(sheet.columnCount, range.startColumn ?? 0))
        return BoundRange(
            sheetIndex: index, rows: rows, columns: columns, openEndedRows: range.endRow == nil, anchorOnly: range.isSingleCell)
    }
}

/// A range bound to one tab.
struct BoundRange: Sendable, Equatable {
    var sheetIndex: Int
    var rows: Range<Int>
    var columns: Range<Int>
    /// `A2:N`: the range runs to the grid's bottom, so writes may use as many rows as the grid has.
    var openEndedRows = false
    /// A single cell written to: the values may extend right and down from it.
    var anchorOnly = false
}
