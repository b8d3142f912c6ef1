import Synchronization

/// Rows a reader keeps in their compact source form (a CSV file's bytes and each record's range)
/// and decodes one at a time, so a table of a million rows is not a million arrays of strings.
public protocol RowSource: Sendable {
    var count: Int { get }
    /// The cells of data row `index`, decoded from the source.
    func row(_ index: Int) -> [Cell]
    /// The cell at `column` of data row `index` (`.empty` past the row's end).
    func cell(row index: Int, column: Int) -> Cell
    /// Visits data rows `rows` in order: `cell` with each cell of the row in column order, as its
    /// decoded UTF-8 bytes (an empty cell as no bytes; valid only during the call) until it returns
    /// false, then `endOfRow` with the row's index, which returns false to stop. Returns false without
    /// visiting anything when the source keeps no byte cells.
    func visitCells(
        rows: Range<Int>, cell: (UnsafeBufferPointer<UInt8>) -> Bool, endOfRow: (Int) -> Bool
    ) -> Bool
    /// What the reader's `RowObserver` saw of the rows as it read them, when it had one: handed over
    /// once (the next call answers nil), so that the one who takes it owns what it holds.
    func takeObservation() -> (any RowObserver)?
}

extension RowSource {
    public func visitCells(
        rows: Range<Int>, cell: (UnsafeBufferPointer<UInt8>) -> Bool, endOfRow: (Int) -> Bool
    ) -> Bool { false }

    public func takeObservation() -> (any RowObserver)? { nil }
}

/// A neutral sheet: a header row and data rows, as read from CSV, XLSX or Sheets.
///
/// `rows[i]` is the sheet's row `i + 2` (row 1 is the header). Rows may be shorter than the
/// header (omitted trailing cells) or longer (cells under no header).
///
/// A reader may hand the rows over as a `RowSource` instead of arrays of cells: `rowCount`,
/// `row(_:)`, `cell(row:column:)` and `visitCells` then decode only the rows asked for, which is
/// what the sync's read path uses (an unchanged row of a narrowed tab is never decoded). `rows`
/// still works on such a table: it decodes every row once (kept for later reads), and a change
/// through it turns the table into ordinary arrays of cells.
public struct Table: Hashable, Sendable {
    public var header: [String]
    private var storage: Storage
    /// Data rows (by index) whose structure the reader found broken (a stray quote swallowing
    /// the rows after it), with what is wrong. Such a row is rejected and the tab deletes nothing.
    public var damagedRows: [Int: String] = [:]
    /// Data rows (by index) whose bytes the reader cannot pass on intact (a NUL byte in a CSV cell),
    /// with the problem to report. Such a row is rejected and frozen as it is; its key still counts.
    public var refusedRows: [Int: FieldProblem] = [:]
    /// Whether the source's last row has no line end after it (a CSV file that does not end with a
    /// newline). Whole files are often saved so; with a last row short of cells or unreadable it
    /// marks a file cut off part-way (`CutShortFile`). Describes the bytes read, not the contents:
    /// not part of equality.
    public var lastRowUnterminated = false

    public init(header: [String], rows: [[Cell]] = []) {
        self.header = header
        self.storage = .cells(rows)
    }

    /// A table whose rows `source` decodes on demand.
    public init(header: [String], source: some RowSource) {
        self.header = header
        self.storage = .source(DecodedRows(source))
    }

    /// Every data row as cells. On a table read from a `RowSource` this decodes all rows once; the
    /// sync's read path uses `row(_:)` and friends instead.
    public var rows: [[Cell]] {
        get {
            switch storage {
            case .cells(let rows): return rows
            case .source(let decoded): return decoded.all()
            }
        }
        _modify {
            var rows: [[Cell]]
            switch storage {
            case .cells(let cells): rows = cells
            case .source(let decoded): rows = decoded.all()
            }
            // Let go of the stored array so that `rows` is its only owner: changed in place, not copied.
            storage = .cells([])
            defer { storage = .cells(rows) }
            yield &rows
        }
    }

    public var rowCount: Int {
        switch storage {
        case .cells(let rows): return rows.count
        case .source(let decoded): return decoded.source.count
        }
    }

    /// Data row `index`'s cells, decoding only that row.
    public func row(_ index: Int) -> [Cell] {
        switch storage {
        case .cells(let rows): return rows[index]
        case .source(let decoded): return decoded.source.row(index)
        }
    }

    /// The cell at `column` of data row `index`; `.empty` past the row's end.
    public func cell(row index: Int, column: Int) -> Cell {
        switch storage {
        case .cells(let rows): return column < rows[index].count ? rows[index][column] : .empty
        case .source(let decoded): return decoded.source.cell(row: index, column: column)
        }
    }

    /// `RowSource.visitCells` of data rows `rows`: false (and nothing visited) when the rows are not
    /// kept as bytes; then read `row(_:)`.
    public func visitCells(
        rows: Range<Int>, cell: (UnsafeBufferPointer<UInt8>) -> Bool, endOfRow: (Int) -> Bool
    ) -> Bool {
        guard case .source(let decoded) = storage else { return false }
        return decoded.source.visitCells(rows: rows, cell: cell, endOfRow: endOfRow)
    }

    /// Calls `body` with data row index, column and text of every cell whose column and first byte
    /// pass `candidate`, row by row, in column order: a scan for the rare cell that needs a closer look
    /// (a formula-like text, a number a spreadsheet program would reformat), which decodes only those.
    public func forEachCell(
        where candidate: (_ column: Int, _ firstByte: UInt8) -> Bool, _ body: (_ row: Int, _ column: Int, _ text: String) -> Void
    ) {
        // The row's index comes at its end: its candidates wait until then.
        var column = 0
        var pending: [(Int, String)] = []
        let visited = visitCells(
            rows: 0..<rowCount,
            cell: { bytes in
                if let first = bytes.first, candidate(column, first) { pending.append((column, String(decoding: bytes, as: UTF8.self))) }
                column += 1
                return true
            },
            endOfRow: { index in
                for (at, text) in pending { body(index, at, text) }
                pending.removeAll(keepingCapacity: true)
                column = 0
                return true
            })
        guard !visited else { return }
        for index in 0..<rowCount {
            for (column, cell) in row(index).enumerated() {
                let text = cell.rawText
                if let first = text.utf8.first, candidate(column, first) { body(index, column, text) }
            }
        }
    }

    /// What the reader's `RowObserver` saw of the rows as it read them, handed over once (every copy
    /// of the table shares it); nil when the reader had none, it was taken, or the rows were changed since.
    public func takeObservation() -> (any RowObserver)? {
        guard case .source(let decoded) = storage else { return nil }
        return decoded.source.takeObservation()
    }

    /// The sheet row number (1-based, header is row 1) of data row `index`.
    public static func sheetRowNumber(ofDataRow index: Int) -> Int { index + 2 }

    public static func == (a: Table, b: Table) -> Bool {
        guard a.header == b.header, a.damagedRows == b.damagedRows, a.refusedRows == b.refusedRows,
            a.rowCount == b.rowCount
        else { return false }
        if case .source(let x) = a.storage, case .source(let y) = b.storage, x === y { return true }
        return (0..<a.rowCount).allSatisfy { a.row($0) == b.row($0) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(rowCount)
        for index in 0..<rowCount { hasher.combine(row(index)) }
        hasher.combine(damagedRows)
        hasher.combine(refusedRows)
    }

    private enum Storage: Sendable {
        case cells([[Cell]])
        case source(DecodedRows)
    }
}

/// A row source with the whole decoding kept once someone asked for every row.
private final class DecodedRows: Sendable {
    let source: any RowSource
    private let decoded = Mutex<[[Cell]]?>(nil)

    init(_ source: some RowSource) {
        self.source = source
    }

    func all() -> [[Cell]] {
        decoded.withLock { kept in
            if let kept { return kept }
            let rows = (0..<source.count).map { source.row($0) }
            kept = rows
            return rows
        }
    }
}
