/// `ROWS` or `COLUMNS`, as the API names them.
enum Dimension: String, Sendable {
    case rows = "ROWS"
    case columns = "COLUMNS"
}

extension SpreadsheetState {
    /// Inserts blank rows or columns before `start`; the new ones take the number formats of a
    /// neighbour, as Sheets does (the one before when `inheritFromBefore`, else the one after).
    mutating func insert(_ dimension: Dimension, sheet s: Int, at start: Int, count: Int, inheritFromBefore: Bool)
        throws(GoogleAPIError)
    {
        let limit = dimension == .rows ? sheets[s].rowCount : sheets[s].columnCount
        guard count > 0, start >= 0, start <= limit else {
            throw .invalidArgument(
                "Invalid requests[0].insertDimension: range ([\(start), \(start + count))) is out of bounds (max: \(limit)).")
        }
        try checkGrowth(addingCells: count * (dimension == .rows ? sheets[s].columnCount : sheets[s].rowCount))
        let neighbour = inheritFromBefore ? start - 1 : start
        switch dimension {
        case .rows:
            var template = RowState()
            if (0..<sheets[s].rowCount).contains(neighbour) {
                template.cells = sheets[s].rows[neighbour].cells.map { EmulatedCell(.empty, numberFormat: $0.numberFormat) }
                while let last = template.cells.last, last.isBlank { template.cells.removeLast() }
            }
            sheets[s].rows.insert(contentsOf: repeatElement(template, count: count), at: start)
            sheets[s].rowCount += count
        case .columns:
            for r in sheets[s].rows.indices where sheets[s].rows[r].cells.count > start {
                let format = (0..<sheets[s].columnCount).contains(neighbour) ? sheets[s].rows[r].cell(neighbour).numberFormat : nil
                sheets[s].rows[r].cells.insert(
                    contentsOf: repeatElement(EmulatedCell(.empty, numberFormat: format), count: count), at: start)
            }
            sheets[s].columnMetadata.insert(contentsOf: repeatElement([], count: count), at: start)
            sheets[s].columnCount += count
        }
    }

    /// Deletes rows or columns `range`; metadata anchored on them goes with them.
    mutating func delete(_ dimension: Dimension, sheet s: Int, range: Range<Int>) throws(GoogleAPIError) {
        let limit = dimension == .rows ? sheets[s].rowCount : sheets[s].columnCount
        guard range.lowerBound >= 0, range.upperBound <= limit, !range.isEmpty else {
            throw .invalidArgument(
                "Invalid requests[0].deleteDimension: range ([\(range.lowerBound), \(range.upperBound))) is out of bounds (max: \(limit)).")
        }
        guard range.count < limit else {
            let noun = dimension == .rows ? "rows" : "columns"
            throw .invalidArgument("Invalid requests[0].deleteDimension: You can't delete all the \(noun) on the sheet.")
        }
        switch dimension {
        case .rows:
            for row in sheets[s].rows[range] { for id in row.metadataIds { metadata[id] = nil } }
            sheets[s].rows.removeSubrange(range)
            sheets[s].rowCount -= range.count
        case .columns:
            for ids in sheets[s].columnMetadata[range] { for id in ids { metadata[id] = nil } }
            for r in sheets[s].rows.indices where sheets[s].rows[r].cells.count > range.lowerBound {
                sheets[s].rows[r].cells.removeSubrange(range.clamped(to: 0..<sheets[s].rows[r].cells.count))
                while let last = sheets[s].rows[r].cells.last, last.isBlank { sheets[s].rows[r].cells.removeLast() }
            }
            sheets[s].columnMetadata.removeSubrange(range)
            sheets[s].columnCount -= range.count
        }
    }

    /// Moves rows or columns `source` so they sit before `destination` (an index in the original order).
    mutating func move(_ dimension: Dimension, sheet s: Int, source: Range<Int>, destination: Int) throws(GoogleAPIError) {
        let limit = dimension == .rows ? sheets[s].rowCount : sheets[s].columnCount
        guard source.lowerBound >= 0, source.upperBound <= limit, !source.isEmpty, (0...limit).contains(destination) else {
            throw .invalidArgument("Invalid requests[0].moveDimension: range is out of bounds (max: \(limit)).")
        }
        func reorder<T>(_ items: [T]) -> [T] {
            var rest = items
            let moving = Array(rest[source])
            rest.removeSubrange(source)
            let target = destination > source.lowerBound ? destination - source.count : destination
            rest.insert(contentsOf: moving, at: max(0, min(target, rest.count)))
            return rest
        }
        switch dimension {
        case .rows:
            sheets[s].rows = reorder(sheets[s].rows)
        case .columns:
            let width = sheets[s].columnCount
            for r in sheets[s].rows.indices where !sheets[s].rows[r].cells.isEmpty {
                var full = sheets[s].rows[r].cells
                full.append(contentsOf: repeatElement(.blank, count: max(0, width - full.count)))
                full = reorder(full)
                while let last = full.last, last.isBlank { full.removeLast() }
                sheets[s].rows[r].cells = full
            }
            sheets[s].columnMetadata = reorder(sheets[s].columnMetadata)
        }
    }

    /// Adds rows or columns at the end of the grid.
    mutating func append(_ dimension: Dimension, sheet s: Int, count: Int) throws(GoogleAPIError) {
        guard count > 0 else { throw .invalidArgument("Invalid requests[0].appendDimension: length must be positive.") }
        try checkGrowth(addingCells: count * (dimension == .rows ? sheets[s].columnCount : sheets[s].rowCount))
        switch dimension {
        case .rows:
            sheets[s].rows.append(contentsOf: repeatElement(RowState(), count: count))
            sheets[s].rowCount += count
        case .columns:
            sheets[s].columnMetadata.append(contentsOf: repeatElement([], count: count))
            sheets[s].columnCount += count
        }
    }

    /// Writes one cell, refusing cells outside the grid with Sheets' own message.
    mutating func write(_ cell: EmulatedCell, sheet s: Int, row: Int, column: Int) throws(GoogleAPIError) {
        guard row < sheets[s].rowCount, column < sheets[s].columnCount, row >= 0, column >= 0 else {
            throw .gridLimits(sheets[s], rows: row..<row + 1, columns: column..<column + 1)
        }
        if case .string(let text) = cell.value, text.utf16.count > EmulatorLimits.maxCellCharacters { throw .cellTooLong() }
        if case .formula(let text) = cell.value, text.utf16.count > EmulatorLimits.maxCellCharacters { throw .cellTooLong() }
        sheets[s].rows[row].setCell(column, cell)
    }
}
