import Foundation
import Interchange

/// A range as written in A1 notation, before it is bound to a sheet's size.
/// Indexes are zero-based; ends are exclusive; `nil` means "to the edge of the grid".
struct A1Range: Sendable, Equatable {
    var sheetName: String?
    var startRow: Int?
    var endRow: Int?
    var startColumn: Int?
    var endColumn: Int?
    /// `B5` alone: for writes Sheets takes it as the top-left corner of the values, not a bound.
    var isSingleCell = false

    /// Parses `'My Tab'!A1:N`, `A:N`, `A2:N`, `B5`, `2:5` or a tab name alone.
    /// `sheetNames` decides whether a bare word names a tab or a cell.
    static func parse(_ text: String, sheetNames: [String]) -> A1Range? {
        var rest = Substring(text)
        var name: String?
        if rest.hasPrefix("'") {
            var unquoted = ""
            var index = rest.index(after: rest.startIndex)
            var closed = false
            while index < rest.endIndex {
                let c = rest[index]
                index = rest.index(after: index)
                if c == "'" {
                    if index < rest.endIndex, rest[index] == "'" {
                        unquoted.append("'")
                        index = rest.index(after: index)
                    } else {
                        closed = true
                        break
                    }
                } else {
                    unquoted.append(c)
                }
            }
            guard closed, !unquoted.isEmpty else { return nil }
            name = unquoted
            rest = rest[index...]
            if rest.isEmpty { return A1Range(sheetName: name) }
            guard rest.hasPrefix("!") else { return nil }
            rest = rest.dropFirst()
        } else if let bang = rest.lastIndex(of: "!") {
            name = String(rest[..<bang])
            rest = rest[rest.index(after: bang)...]
        } else if sheetNames.contains(String(rest)) {
            return A1Range(sheetName: String(rest))
        }
        guard var range = parseCells(rest) else { return nil }
        range.sheetName = name
        return range
    }

    private static func parseCells(_ text: Substring) -> A1Range? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let start = parseCell(parts[0]) else { return nil }
        if parts.count == 1 {
            guard let column = start.column, let row = start.row else { return nil }
            return A1Range(startRow: row, endRow: row + 1, startColumn: column, endColumn: column + 1, isSingleCell: true)
        }
        guard let end = parseCell(parts[1]) else { return nil }
        // `A:N` and `2:5` select whole columns or rows; `A2:N` runs to the bottom of the grid.
        if start.column == nil && end.column != nil || start.row == nil && start.column == nil { return nil }
        if start.column == nil {
            guard end.column == nil, let startRow = start.row, let endRow = end.row else { return nil }
            return A1Range(startRow: min(startRow, endRow), endRow: max(startRow, endRow) + 1)
        }
        guard let startColumn = start.column, let endColumn = end.column else {
            // `A1:5` is not something Sheets accepts either.
            return nil
        }
        var range = A1Range(startColumn: min(startColumn, endColumn), endColumn: max(startColumn, endColumn) + 1)
        switch (start.row, end.row) {
        case (let s?, let e?):
            range.startRow = min(s, e)
            range.endRow = max(s, e) + 1
        case (let s?, nil):
            range.startRow = s
        case (nil, let e?):
            range.startRow = 0
            range.endRow = e + 1
        case (nil, nil):
            break
        }
        return range
    }

    /// `B5` → (column 1, row 4); `B` → (1, nil); `5` → (nil, 4).
    private static func parseCell(_ text: Substring) -> (column: Int?, row: Int?)? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "$") }) else { return nil }
        let plain = text.filter { $0 != "$" }
        let letters = plain.prefix { $0.isLetter }
        let digits = plain.dropFirst(letters.count)
        guard digits.allSatisfy(\.isNumber), !(letters.isEmpty && digits.isEmpty) else { return nil }
        var column: Int?
        if !letters.isEmpty {
            guard letters.count <= 3 else { return nil }
            column = letters.uppercased().unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 } - 1
        }
        var row: Int?
        if !digits.isEmpty {
            guard let number = Int(digits), number >= 1 else { return nil }
            row = number - 1
        }
        return (column, row)
    }

    /// `0` → `A`, `26` → `AA`.
    static func columnLetters(_ index: Int) -> String { index < 0 ? "" : ColumnLetters.letters(ofIndex: index) }

    /// A tab name as Sheets writes it in a range: quoted unless it is a plain word.
    static func quotedSheetName(_ name: String) -> String {
        let plain =
            name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            && parseCell(Substring(name)) == nil
        return plain ? name : "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `'My Tab'!A1:N20` for a bound grid rectangle.
    static func format(sheet: String, rows: Range<Int>, columns: Range<Int>) -> String {
        let start = columnLetters(columns.lowerBound) + String(rows.lowerBound + 1)
        let end = columnLetters(max(columns.lowerBound, columns.upperBound - 1)) + String(max(rows.lowerBound, rows.upperBound - 1) + 1)
        return quotedSheetName(sheet) + "!" + (start == end ? start : start + ":" + end)
    }
}
