import SheetValues

/// Reads `<sheetData>` into rows of cells indexed by their real row number.
///
/// `rows[i]` is sheet row `i + 1`; rows the XML skips are `[]`, cells it skips are `.empty`, and
/// trailing empty cells and rows are dropped. Rows and cells without an `r` attribute take the
/// next row and the next column.
final class WorksheetHandler: XMLEventHandler {
    private let context: WorksheetContext
    // The parser calls in one at a time on one thread; dynamic exclusivity checks on every SAX
    // event cost more than the parse of the event itself.
    @exclusivity(unchecked) private(set) var rows: [[Cell]] = []

    @exclusivity(unchecked) private var row: [Cell] = []
    @exclusivity(unchecked) private var rowNumber = 0
    @exclusivity(unchecked) private var rowNumberImplicit = false
    @exclusivity(unchecked) private var inRow = false
    /// Cells and rows count only inside `<sheetData>`; extension lists may reuse the local names.
    @exclusivity(unchecked) private var inSheetData = false
    @exclusivity(unchecked) private var column = 0

    @exclusivity(unchecked) private var cellType = CellType.number
    @exclusivity(unchecked) private var cellStyle = 0
    @exclusivity(unchecked) private var hasValue = false
    @exclusivity(unchecked) private var hasFormula = false
    @exclusivity(unchecked) private var inInline = false
    @exclusivity(unchecked) private var capturing = false
    @exclusivity(unchecked) private var phoneticDepth = 0
    @exclusivity(unchecked) private var textStart = 0
    @exclusivity(unchecked) private var preserveSpace = false
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// Cells read, and the empty cells laid out to place them: a few bytes (`<c r="XFD9">`) can ask for
    /// 16,383 empty cells, so those are bounded by the cells the sheet really holds.
    @exclusivity(unchecked) private var filledCells = 0
    @exclusivity(unchecked) private var paddingCells = 0
    static let paddingAllowance = 1_000_000
    static let paddingPerFilledCell = 64

    init(context: WorksheetContext) {
        self.context = context
        text.reserveCapacity(64)
    }

    /// The rows with trailing empty rows removed.
    func finishedRows() -> [[Cell]] {
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
        guard inSheetData else {
            if name == "sheetData" { inSheetData = true }
            return
        }
        if name == "c" {
            try startCell(attributes)
        } else if name == "v" {
            if !text.isEmpty { text.removeAll(keepingCapacity: true) }
            capturing = true
            hasValue = true
        } else if name == "row" {
            try startRow(attributes)
        } else if name == "f" {
            hasFormula = true
        } else if name == "t" {
            if inInline && phoneticDepth == 0 {
                capturing = true
                textStart = text.count
                preserveSpace = XMLSpace.preserves(attributes)
            }
        } else if name == "is" {
            inInline = true
            hasValue = true
            if !text.isEmpty { text.removeAll(keepingCapacity: true) }
        } else if name == "rPh" {
            phoneticDepth += 1
        }
    }

    func endElement(_ name: XMLName) throws {
        guard inSheetData else { return }
        if name == "v" {
            capturing = false
        } else if name == "t" {
            if capturing && !preserveSpace { XMLSpace.trim(&text, from: textStart) }
            capturing = false
        } else if name == "c" {
            try endCell()
        } else if name == "row" {
            endRow()
        } else if name == "is" {
            inInline = false
        } else if name == "rPh" {
            phoneticDepth -= 1
        } else if name == "sheetData" {
            inSheetData = false
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        if capturing { text.append(contentsOf: bytes) }
    }

    private func startRow(_ attributes: XMLAttributes) throws {
        if let raw = attributes.bytes("r") {
            guard let number = CellReference.parseRow(raw) else {
                throw WorksheetProblem(message: "has a row numbered '\(XMLAttributes.decode(raw))', outside 1…1048576")
            }
            rowNumber = number
            rowNumberImplicit = false
        } else {
            rowNumber += 1
            rowNumberImplicit = true
            guard rowNumber <= CellReference.maximumRow else {
                throw WorksheetProblem(message: "has more than \(CellReference.maximumRow) rows")
            }
        }
        inRow = true
        column = 0
        row = []
        row.reserveCapacity(rows.last?.count ?? 8)
    }

    private func startCell(_ attributes: XMLAttributes) throws {
        if !inRow { try startRow(XMLAttributes(base: nil, count: 0)) }
        cellType = .number
        cellStyle = 0
        hasValue = false
        hasFormula = false
        var explicitColumn = 0
        if let base = attributes.base {
            for index in 0..<attributes.count {
                let tuple = base + index * 5
                guard let name = tuple[0], let start = tuple[3], let end = tuple[4] else { continue }
                let value = UnsafeBufferPointer(start: start, count: end - start)
                if XMLName(name) == "r" {
                    guard let ref = CellReference.parse(value) else {
                        throw WorksheetProblem(message: "has a cell reference '\(XMLAttributes.decode(value))' outside the grid")
                    }
                    explicitColumn = ref.column
                    if rowNumberImplicit, ref.row > 0, column == 0 {
                        rowNumber = ref.row
                        rowNumberImplicit = false
                    }
                } else if XMLName(name) == "s" {
                    cellStyle = WorksheetContext.parseIndex(value) ?? 0
                } else if XMLName(name) == "t" {
                    cellType = CellType(value)
                }
            }
        }
        column = explicitColumn > 0 ? explicitColumn : column + 1
        guard column <= CellReference.maximumColumn else {
            throw WorksheetProblem(message: "row \(rowNumber) has more than \(CellReference.maximumColumn) columns")
        }
    }

    private func endCell() throws {
        var cell = try context.cell(
            type: cellType, style: cellStyle, text: hasValue ? text : nil, column: column, row: rowNumber)
        // A formula with no value saved (a text formula's saved result may be the empty string).
        if hasFormula, case .empty = cell, !hasValue || cellType != .formulaString { cell = .error(Cell.formulaWithoutResult) }
        capturing = false
        inInline = false
        if case .empty = cell { return }
        filledCells += 1
        let index = column - 1
        if index == row.count {
            row.append(cell)
        } else if index > row.count {
            paddingCells += index - row.count
            guard paddingCells <= Self.paddingAllowance + Self.paddingPerFilledCell * filledCells else {
                throw WorksheetProblem(
                    message: "places \(filledCells) cells among \(paddingCells) empty ones (up to cell "
                        + "\(CellReference.name(column: column, row: rowNumber))): refused, as laying it out would exhaust memory")
            }
            row.append(contentsOf: repeatElement(.empty, count: index - row.count))
            row.append(cell)
        } else {
            row[index] = cell
        }
    }

    private func endRow() {
        inRow = false
        let index = rowNumber - 1
        if index == rows.count {
            rows.append(row)
        } else if index > rows.count {
            rows.append(contentsOf: repeatElement([], count: index - rows.count))
            rows.append(row)
        } else {
            // A row listed twice or out of order: later cells win, earlier ones stay.
            var merged = rows[index]
            for (offset, cell) in row.enumerated() where !cell.isEmpty || offset >= merged.count {
                if offset < merged.count { merged[offset] = cell } else { merged.append(cell) }
            }
            rows[index] = merged
        }
    }
}
