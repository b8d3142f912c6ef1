import Foundation

/// Rewrites the A1 references in formulas and range lists when rows move, as Excel does when
/// rows are deleted: references below move up, a deleted cell becomes `#REF!`, a range loses its
/// deleted rows.
struct ReferenceShifter {
    /// The sheet whose rows move.
    let sheet: String
    let shift: RowShift

    /// A space-separated range list (`sqref`, `ref`): each range mapped, deleted ones dropped.
    /// Nil when every range is gone.
    func rangeList(_ text: String, grows: Bool) -> String? {
        let mapped = text.split(separator: " ", omittingEmptySubsequences: true).compactMap { item -> String? in
            guard let range = A1Range(item) else { return String(item) }
            return map(range, grows: grows)?.text
        }
        return mapped.isEmpty ? nil : mapped.joined(separator: " ")
    }

    /// A formula with its references to `sheet` moved; unqualified references count as `sheet`'s
    /// when `inSheet` (the formula lives in that sheet).
    func formula(_ text: String, inSheet: Bool, grows: Bool = false) -> String {
        FormulaReferences.rewrite(text) { qualifier, range in
            guard qualifier.map({ Self.sheetName($0).lowercased() == sheet.lowercased() }) ?? inSheet else { return nil }
            return map(range, grows: grows)?.text ?? "#REF!"
        }
    }

    /// A formula moved by `rows` (and `columns`) as a fill would move it: relative parts shift,
    /// `$` parts stay.
    static func translate(_ text: String, rows: Int, columns: Int = 0) -> String {
        FormulaReferences.rewrite(text) { _, range in
            var moved = range
            guard let start = moved.start.filled(rows: rows, columns: columns) else { return "#REF!" }
            moved.start = start
            if let end = moved.end {
                guard let filled = end.filled(rows: rows, columns: columns) else { return "#REF!" }
                moved.end = filled
            }
            return moved.text
        }
    }

    func map(_ range: A1Range, grows: Bool) -> A1Range? {
        var moved = range
        let last = range.end?.row ?? range.start.row
        guard let rows = shift.range(range.start.row, last, grows: grows) else { return nil }
        moved.start.row = rows.first
        if var end = moved.end {
            end.row = rows.last
            moved.end = end
        } else if rows.last != rows.first {
            moved.end = A1Cell(
                column: range.start.column, row: rows.last, absoluteColumn: range.start.absoluteColumn,
                absoluteRow: range.start.absoluteRow)
        }
        return moved
    }

    /// `'My Sheet'` → `My Sheet`, `Data` → `Data`.
    static func sheetName(_ qualifier: Substring) -> String {
        guard qualifier.hasPrefix("'"), qualifier.hasSuffix("'"), qualifier.count >= 2 else { return String(qualifier) }
        return qualifier.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
    }
}

/// One cell reference of A1 notation, `$` marks kept.
struct A1Cell: Equatable {
    var column: String
    var row: Int
    var absoluteColumn: Bool
    var absoluteRow: Bool

    var text: String { (absoluteColumn ? "$" : "") + column + (absoluteRow ? "$" : "") + String(row) }

    /// The cell `rows` below and `columns` right, relative parts only; nil when it leaves the grid.
    func filled(rows: Int, columns: Int) -> A1Cell? {
        var moved = self
        if !absoluteRow { moved.row += rows }
        if !absoluteColumn, columns != 0 {
            guard let number = CellReference.columnNumber(column) else { return nil }
            let shifted = number + columns
            guard shifted >= 1, shifted <= CellReference.maximumColumn else { return nil }
            moved.column = CellReference.columnLetters(shifted)
        }
        guard moved.row >= 1 else { return nil }
        return moved
    }
}

/// A cell or a rectangular range (`B2`, `$A$1:$H$50`).
struct A1Range: Equatable {
    var start: A1Cell
    var end: A1Cell?

    var text: String { end.map { start.text + ":" + $0.text } ?? start.text }

    init(start: A1Cell, end: A1Cell?) {
        self.start = start
        self.end = end
    }

    init?<S: StringProtocol>(_ text: S) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let start = Self.cell(parts[0]) else { return nil }
        self.start = start
        if parts.count == 2 {
            guard let end = Self.cell(parts[1]) else { return nil }
            self.end = end
        }
    }

    static func cell<S: StringProtocol>(_ text: S) -> A1Cell? {
        var rest = Substring(text)
        let absoluteColumn = rest.hasPrefix("$")
        if absoluteColumn { rest = rest.dropFirst() }
        let letters = rest.prefix { $0.isASCII && $0.isUppercase }
        guard (1...3).contains(letters.count) else { return nil }
        rest = rest.dropFirst(letters.count)
        let absoluteRow = rest.hasPrefix("$")
        if absoluteRow { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 7, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let row = Int(rest),
            row >= 1
        else { return nil }
        return A1Cell(column: String(letters), row: row, absoluteColumn: absoluteColumn, absoluteRow: absoluteRow)
    }
}
