/// One key of a sort: a column (absolute index) and its direction.
struct SortKey: Sendable, Equatable {
    var column: Int
    var ascending: Bool
}

extension SpreadsheetState {
    /// Sorts `rows` of a tab by `keys`, like the Sheets "sort range" command: empty cells last in
    /// either direction, numbers before text before booleans, text without regard to case, and
    /// rows with equal keys keeping their order.
    ///
    /// When the sorted columns hold every value of those rows, whole rows move, with their developer
    /// metadata; otherwise only the cells inside the columns move.
    mutating func sort(sheet s: Int, rows: Range<Int>, columns: Range<Int>, keys: [SortKey]) throws(GoogleAPIError) {
        let sheet = sheets[s]
        guard rows.lowerBound >= 0, rows.upperBound <= sheet.rowCount, columns.lowerBound >= 0,
            columns.upperBound <= sheet.columnCount
        else {
            throw .invalidArgument("Invalid requests[0].sortRange: range is out of bounds.")
        }
        guard !keys.isEmpty, keys.allSatisfy({ columns.contains($0.column) }) else {
            throw .invalidArgument("Invalid requests[0].sortRange: sort column is outside the range being sorted.")
        }
        let original = Array(sheet.rows[rows])
        let order = original.indices.sorted { a, b in
            for key in keys {
                let comparison = Self.compare(
                    original[a].cell(key.column).value, original[b].cell(key.column).value, ascending: key.ascending)
                if comparison != 0 { return comparison < 0 }
            }
            return a < b
        }
        let wholeRows = original.allSatisfy { row in
            row.cells.indices.allSatisfy { columns.contains($0) || row.cells[$0].isBlank }
        }
        if wholeRows {
            sheets[s].rows.replaceSubrange(rows, with: order.map { original[$0] })
            return
        }
        for (offset, source) in order.enumerated() {
            for column in columns {
                sheets[s].rows[rows.lowerBound + offset].setCell(column, original[source].cell(column))
            }
        }
    }

    /// Negative when `a` sorts before `b`.
    static func compare(_ a: EmulatedValue, _ b: EmulatedValue, ascending: Bool) -> Int {
        switch (a.isEmpty, b.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        default: break
        }
        let result: Int
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB {
            result = rankA < rankB ? -1 : 1
        } else {
            switch (a, b) {
            case (.number(let x), .number(let y)): result = x == y ? 0 : (x < y ? -1 : 1)
            case (.bool(let x), .bool(let y)): result = x == y ? 0 : (!x ? -1 : 1)
            default:
                let (x, y) = (text(a).lowercased(), text(b).lowercased())
                result = x == y ? 0 : (x < y ? -1 : 1)
            }
        }
        return ascending ? result : -result
    }

    private static func rank(_ value: EmulatedValue) -> Int {
        switch value {
        case .number: return 0
        case .string, .formula, .empty: return 1
        case .bool: return 2
        }
    }

    private static func text(_ value: EmulatedValue) -> String {
        switch value {
        case .string(let s), .formula(let s): return s
        default: return ""
        }
    }
}
