import Interchange

/// `updateCells` and `repeatCell`: write `CellData` under a field mask.
enum CellUpdates {
    static func updateCells(_ body: JSONValue, in sheet: inout SpreadsheetState) throws(GoogleAPIError) {
        let mask = try fieldMask(body, kind: "updateCells")
        let rows = body["rows"]?.arrayValue ?? []
        if let range = body["range"] {
            // With a range, every cell of the range is written: cells the rows leave out are cleared.
            let bound = try sheet.bind(grid: range, path: "requests[0].updateCells.range")
            try checkGrid(bound, in: sheet, kind: "updateCells")
            for (offset, r) in bound.rows.enumerated() {
                let values = offset < rows.count ? rows[offset]["values"]?.arrayValue ?? [] : []
                for (columnOffset, c) in bound.columns.enumerated() {
                    let data = columnOffset < values.count ? values[columnOffset] : .object([:])
                    try apply(data, mask: mask, sheet: &sheet, s: bound.sheetIndex, row: r, column: c)
                }
            }
            return
        }
        guard let start = body["start"] else {
            throw .invalidArgument("Invalid requests[0].updateCells: one of 'start' or 'range' must be set.")
        }
        let sheetId = start["sheetId"]?.integerValue ?? 0
        guard let s = sheet.sheetIndex(id: sheetId) else {
            throw .invalidArgument("Invalid requests[0].updateCells: No grid with id: \(sheetId)")
        }
        let firstRow = start["rowIndex"]?.integerValue ?? 0
        let firstColumn = start["columnIndex"]?.integerValue ?? 0
        let width = rows.map { $0["values"]?.arrayValue?.count ?? 0 }.max() ?? 0
        if !rows.isEmpty, width > 0 {
            try checkGrid(
                BoundRange(sheetIndex: s, rows: firstRow..<firstRow + rows.count, columns: firstColumn..<firstColumn + width),
                in: sheet, kind: "updateCells")
        }
        for (offset, row) in rows.enumerated() {
            for (columnOffset, data) in (row["values"]?.arrayValue ?? []).enumerated() {
                try apply(data, mask: mask, sheet: &sheet, s: s, row: firstRow + offset, column: firstColumn + columnOffset)
            }
        }
    }

    static func repeatCell(_ body: JSONValue, in sheet: inout SpreadsheetState) throws(GoogleAPIError) {
        let mask = try fieldMask(body, kind: "repeatCell")
        let bound = try sheet.bind(grid: body["range"] ?? .object([:]), path: "requests[0].repeatCell.range")
        try checkGrid(bound, in: sheet, kind: "repeatCell")
        let data = body["cell"] ?? .object([:])
        for r in bound.rows {
            for c in bound.columns {
                try apply(data, mask: mask, sheet: &sheet, s: bound.sheetIndex, row: r, column: c)
            }
        }
    }

    /// The parts of `CellData` a field mask selects, worked out once per request rather than per cell.
    struct CellMask {
        var value: Bool
        var numberFormat: Bool
    }

    private static func fieldMask(_ body: JSONValue, kind: String) throws(GoogleAPIError) -> CellMask {
        guard let text = body["fields"]?.stringValue, !text.isEmpty, let mask = try? FieldMask(parsing: text) else {
            throw .invalidArgument("Invalid requests[0].\(kind): At least one field must be specified in 'fields'.")
        }
        return CellMask(value: mask.covers("userEnteredValue"), numberFormat: mask.covers("userEnteredFormat.numberFormat"))
    }

    private static func checkGrid(_ range: BoundRange, in sheet: SpreadsheetState, kind: String) throws(GoogleAPIError) {
        let grid = sheet.sheets[range.sheetIndex]
        guard range.rows.upperBound <= grid.rowCount, range.columns.upperBound <= grid.columnCount else {
            throw .gridLimits(grid, rows: range.rows, columns: range.columns, prefix: "Invalid requests[0].\(kind): ")
        }
    }

    /// Writes the parts of one `CellData` the mask selects; selected but absent parts are cleared.
    private static func apply(_ data: JSONValue, mask: CellMask, sheet: inout SpreadsheetState, s: Int, row: Int, column: Int)
        throws(GoogleAPIError)
    {
        var cell = sheet.sheets[s].cell(row: row, column: column)
        if mask.value {
            cell.value = SpreadsheetState.value(ofExtended: data["userEnteredValue"])
        }
        if mask.numberFormat {
            if let format = data["userEnteredFormat"]?["numberFormat"], let type = format["type"]?.stringValue {
                cell.numberFormat = EmulatedNumberFormat(type: type, pattern: format["pattern"]?.stringValue ?? "")
            } else {
                cell.numberFormat = nil
            }
        }
        try sheet.write(cell, sheet: s, row: row, column: column)
    }
}
