import Interchange

/// `valueInputOption`.
enum ValueInputOption: String, Sendable {
    case unspecified = "INPUT_VALUE_OPTION_UNSPECIFIED"
    case raw = "RAW"
    case userEntered = "USER_ENTERED"
}

/// What one write covered, for `UpdateValuesResponse`.
struct WriteSummary: Sendable {
    var sheetIndex = 0
    var rows: Range<Int> = 0..<0
    var columns: Range<Int> = 0..<0
    var cells = 0
    var sheetsTouched: Set<Int> = []

    mutating func add(_ other: WriteSummary) {
        rows = rows.isEmpty ? other.rows : rows.lowerBound..<rows.lowerBound + rows.count + other.rows.count
        columns = other.columns.count > columns.count ? other.columns : columns
        cells += other.cells
        sheetsTouched.formUnion(other.sheetsTouched)
    }

    func json(in sheet: SpreadsheetState) -> JSONObjectBuilder {
        var out = JSONObjectBuilder()
        guard cells > 0 else { return out }
        out.set("updatedRange", A1Range.format(sheet: sheet.sheets[sheetIndex].title, rows: rows, columns: columns))
        out.set("updatedRows", rows.count)
        out.set("updatedColumns", columns.count)
        out.set("updatedCells", cells)
        return out
    }

    func totalsJSON(spreadsheetId: String, responses: [JSONValue]) -> JSONValue {
        var out = JSONObjectBuilder()
        out.set("spreadsheetId", spreadsheetId)
        if cells > 0 {
            out.set("totalUpdatedRows", rows.count)
            out.set("totalUpdatedColumns", columns.count)
            out.set("totalUpdatedCells", cells)
            out.set("totalUpdatedSheets", sheetsTouched.count)
        }
        out.set("responses", .array(responses))
        return out.value
    }
}

extension SpreadsheetState {
    /// The range as Sheets echoes it, bounded by the grid (`Sheet1!A1:Z1000`).
    func echo(_ range: BoundRange) -> String {
        let sheet = sheets[range.sheetIndex]
        return A1Range.format(
            sheet: sheet.title, rows: range.rows.clamped(to: 0..<max(sheet.rowCount, 1)),
            columns: range.columns.clamped(to: 0..<max(sheet.columnCount, 1)))
    }

    /// A `ValueRange`: trailing empty cells and rows omitted, `values` absent when nothing is there.
    func read(_ range: BoundRange, major: String?, renderer: ValueRenderer) -> JSONValue {
        let sheet = sheets[range.sheetIndex]
        let rows = range.rows.clamped(to: 0..<sheet.rowCount)
        let columns = range.columns.clamped(to: 0..<sheet.columnCount)
        var grid: [[EmulatedCell]] = rows.map { r in columns.map { sheet.cell(row: r, column: $0) } }
        let byColumns = major == "COLUMNS"
        if byColumns {
            grid = columns.indices.map { c in grid.indices.map { grid[$0][c - columns.lowerBound] } }
        }
        var values: [JSONValue] = grid.map { line in
            var end = line.count
            while end > 0, line[end - 1].value.isEmpty { end -= 1 }
            return .array(line[..<end].map(renderer.render))
        }
        while let last = values.last, last == .array([]) { values.removeLast() }
        var out = JSONObjectBuilder()
        out.set("range", echo(range))
        out.set("majorDimension", byColumns ? "COLUMNS" : "ROWS")
        if !values.isEmpty { out.set("values", .array(values)) }
        return out.value
    }

    /// Writes a `values` matrix at the top-left of `range`. Nulls leave cells as they are; `""` clears.
    mutating func writeValues(_ input: [[JSONValue]], major: String?, into range: BoundRange, option: ValueInputOption)
        throws(GoogleAPIError) -> WriteSummary
    {
        var values = input
        if major == "COLUMNS" {
            let height = values.map(\.count).max() ?? 0
            values = (0..<height).map { r in values.map { r < $0.count ? $0[r] : .null } }
        }
        let height = values.count
        let width = values.map(\.count).max() ?? 0
        let sheet = sheets[range.sheetIndex]
        guard height > 0, width > 0 else { return WriteSummary(sheetIndex: range.sheetIndex) }
        let target = BoundRange(
            sheetIndex: range.sheetIndex, rows: range.rows.lowerBound..<range.rows.lowerBound + height,
            columns: range.columns.lowerBound..<range.columns.lowerBound + width)
        let explicitEnd = range.openEndedRows ? sheet.rowCount : range.rows.upperBound
        if target.rows.upperBound > sheet.rowCount || target.columns.upperBound > sheet.columnCount
            || range.rows.upperBound > sheet.rowCount || range.columns.upperBound > sheet.columnCount
        {
            throw .gridLimits(sheet, rows: target.rows, columns: target.columns)
        }
        if !range.anchorOnly, height > explicitEnd - range.rows.lowerBound {
            throw .invalidArgument("Requested writing within range [\(echo(range))], but tried writing to row [\(target.rows.upperBound)]")
        }
        if !range.anchorOnly, width > range.columns.count {
            throw .invalidArgument(
                "Requested writing within range [\(echo(range))], but tried writing to column "
                    + "[\(A1Range.columnLetters(target.columns.upperBound - 1))]")
        }
        var cells = 0
        for (r, line) in values.enumerated() {
            for (c, json) in line.enumerated() {
                let row = target.rows.lowerBound + r
                let column = target.columns.lowerBound + c
                var cell = sheets[range.sheetIndex].cell(row: row, column: column)
                switch json {
                case .null: continue
                case .number(let text): cell.value = .number(Double(text) ?? 0)
                case .bool(let flag): cell.value = .bool(flag)
                case .string(let text):
                    if option == .userEntered {
                        cell = EmulatedCell.userEntered(text, keeping: cell.numberFormat)
                    } else {
                        cell.value = text.isEmpty ? .empty : .string(text)
                    }
                case .array, .object:
                    throw .invalidArgument("Invalid values[\(r)][\(c)]: \(json.serializedString())")
                }
                try write(cell, sheet: range.sheetIndex, row: row, column: column)
                cells += 1
            }
        }
        return WriteSummary(
            sheetIndex: range.sheetIndex, rows: target.rows, columns: target.columns, cells: cells,
            sheetsTouched: [range.sheetIndex])
    }

    /// Clears values (formats stay), as `values.clear` does.
    mutating func clearValues(_ range: BoundRange) {
        let sheet = sheets[range.sheetIndex]
        for r in range.rows.clamped(to: 0..<sheet.rowCount) {
            for c in range.columns.clamped(to: 0..<sheet.columnCount) where !sheet.cell(row: r, column: c).value.isEmpty {
                var cell = sheet.cell(row: r, column: c)
                cell.value = .empty
                sheets[range.sheetIndex].rows[r].setCell(c, cell)
            }
        }
    }
}

extension SpreadsheetState {
    /// `values.append`: writes below the last row holding a value in the range's columns, growing the
    /// grid when needed (as Sheets does), and returns the table's range as found plus the write.
    mutating func append(_ values: [[JSONValue]], major: String?, after range: BoundRange, option: ValueInputOption, insertRows: Bool)
        throws(GoogleAPIError) -> (table: String?, summary: WriteSummary)
    {
        let sheet = sheets[range.sheetIndex]
        // The table is found from the range's first row down to the last row holding data, as Sheets does
        // (a range such as `Sheet1!A1` names where the table starts, not where it ends).
        let columns = range.anchorOnly ? range.columns.lowerBound..<sheet.columnCount : range.columns.clamped(to: 0..<sheet.columnCount)
        let searched = (range.rows.lowerBound..<max(range.rows.lowerBound, sheet.rowCount)).clamped(to: 0..<sheet.rowCount)
        let lastUsed = searched.last { r in columns.contains { !sheet.cell(row: r, column: $0).value.isEmpty } }
        let start = (lastUsed ?? (searched.lowerBound - 1)) + 1
        let height = major == "COLUMNS" ? (values.map(\.count).max() ?? 0) : values.count
        var table: String?
        if let lastUsed {
            let first = searched.first { r in columns.contains { !sheet.cell(row: r, column: $0).value.isEmpty } } ?? lastUsed
            table = A1Range.format(sheet: sheet.title, rows: first..<lastUsed + 1, columns: columns)
        }
        if insertRows, start < sheet.rowCount {
            try insert(.rows, sheet: range.sheetIndex, at: start, count: max(height, 1), inheritFromBefore: start > 0)
        } else if start + height > sheet.rowCount {
            try self.append(.rows, sheet: range.sheetIndex, count: start + height - sheet.rowCount)
        }
        let target = BoundRange(
            sheetIndex: range.sheetIndex, rows: start..<start + max(height, 1),
            columns: columns.lowerBound..<sheets[range.sheetIndex].columnCount, anchorOnly: true)
        return (table, try writeValues(values, major: major, into: target, option: option))
    }
}
