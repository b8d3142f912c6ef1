import Interchange

/// A `ValueRange` of the Sheets API: a range and its cells, row-major.
///
/// Google omits trailing empty cells of a row, trailing empty rows, and `values` itself for an
/// empty range; `values` keeps that ragged shape and `cell(row:column:)` reads past it as nil.
public struct ValueRange: Hashable, Sendable {
    public var range: String
    public var majorDimension: String
    public var values: [[JSONValue]]

    public init(range: String, majorDimension: String = "ROWS", values: [[JSONValue]]) {
        self.range = range
        self.majorDimension = majorDimension
        self.values = values
    }

    /// Reads one from the API's JSON; a missing `values` is an empty range.
    public init(json: JSONValue) throws(GoogleAPIError) {
        guard json.objectValue != nil else { throw GoogleAPIError.invalidResponse("a ValueRange is not an object") }
        range = json["range"]?.stringValue ?? ""
        majorDimension = json["majorDimension"]?.stringValue ?? "ROWS"
        var rows: [[JSONValue]] = []
        if let items = json["values"] {
            guard let array = items.arrayValue else {
                throw GoogleAPIError.invalidResponse("'values' of range '\(range)' is not an array")
            }
            rows.reserveCapacity(array.count)
            for (index, row) in array.enumerated() {
                guard let cells = row.arrayValue else {
                    throw GoogleAPIError.invalidResponse("row \(index + 1) of range '\(range)' is not an array")
                }
                rows.append(cells)
            }
        }
        values = rows
    }

    /// The cell at zero-based `row` and `column`, or nil where Google left it out.
    public func cell(row: Int, column: Int) -> JSONValue? {
        guard row >= 0, row < values.count, column >= 0, column < values[row].count else { return nil }
        return values[row][column]
    }

    /// The rows, each padded or cut to `width` cells, empty cells as `""` (how Sheets reports blanks).
    public func rectangularRows(width: Int) -> [[JSONValue]] {
        values.map { row in
            row.count >= width ? Array(row.prefix(width)) : row + Array(repeating: .string(""), count: width - row.count)
        }
    }

    /// The JSON the API takes in `data` of a values.batchUpdate.
    public var json: JSONValue {
        .object([
            "range": .string(range), "majorDimension": .string(majorDimension),
            "values": .array(values.map { .array($0) }),
        ])
    }
}

/// What a values.batchUpdate reports.
public struct BatchUpdateValuesResult: Hashable, Sendable {
    public var totalUpdatedRows: Int
    public var totalUpdatedColumns: Int
    public var totalUpdatedCells: Int
    public var totalUpdatedSheets: Int
    /// Each range's `updatedRange`, in request order.
    public var updatedRanges: [String]

    init(json: JSONValue) {
        totalUpdatedRows = json["totalUpdatedRows"]?.intValue ?? 0
        totalUpdatedColumns = json["totalUpdatedColumns"]?.intValue ?? 0
        totalUpdatedCells = json["totalUpdatedCells"]?.intValue ?? 0
        totalUpdatedSheets = json["totalUpdatedSheets"]?.intValue ?? 0
        updatedRanges = (json["responses"]?.arrayValue ?? []).compactMap { $0["updatedRange"]?.stringValue }
    }
}
