import Foundation

/// A rectangle of cells a formula reads, in one sheet, with the `$` marks that say which of its
/// edges stay put when the formula is filled to another cell (a shared formula's other cells).
struct FormulaArea: Equatable {
    /// The sheet as the formula spells it (quotes removed); nil when the formula names none.
    var sheet: String?
    var firstRow: Int
    var lastRow: Int
    var firstColumn: Int
    var lastColumn: Int
    var absolute: (firstRow: Bool, lastRow: Bool, firstColumn: Bool, lastColumn: Bool)

    static func == (a: FormulaArea, b: FormulaArea) -> Bool {
        a.sheet == b.sheet && a.firstRow == b.firstRow && a.lastRow == b.lastRow && a.firstColumn == b.firstColumn
            && a.lastColumn == b.lastColumn && a.absolute == b.absolute
    }

    /// The area as the same formula reads it `rows` below and `columns` right of where it is written.
    func filled(rows: Int, columns: Int) -> FormulaArea? {
        guard rows != 0 || columns != 0 else { return self }
        var moved = self
        if !absolute.firstRow { moved.firstRow += rows }
        if !absolute.lastRow { moved.lastRow += rows }
        if !absolute.firstColumn { moved.firstColumn += columns }
        if !absolute.lastColumn { moved.lastColumn += columns }
        guard moved.firstRow >= 1, moved.firstColumn >= 1, moved.lastRow <= CellReference.maximumRow,
            moved.lastColumn <= CellReference.maximumColumn
        else { return nil }
        return moved
    }
}

/// Reads which cells a formula depends on: cell and range references (`F2`, `$F$2:$F$9`), whole
/// columns and rows (`F:F`, `2:5`), other sheets (`'My Sheet'!B2`), defined names and tables
/// (`Ledger[Amount]` reads the whole table), which `names` turns into their areas. Functions,
/// numbers and strings read nothing; references to other workbooks (`[1]Sheet!A1`) are skipped.
enum FormulaAreas {
    static func areas(in text: String, names: (String) -> [FormulaArea] = { _ in [] }) -> [FormulaArea] {
        let chars = Array(text.utf8)
        var found: [FormulaArea] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == UInt8(ascii: "\"") {
                i = FormulaReferences.closing(of: UInt8(ascii: "\""), in: chars, from: i)
            } else if c == UInt8(ascii: "'") {
                let end = FormulaReferences.closing(of: UInt8(ascii: "'"), in: chars, from: i)
                if end < chars.count, chars[end] == UInt8(ascii: "!") {
                    let quoted = String(decoding: chars[(i + 1)..<(end - 1)], as: UTF8.self).replacingOccurrences(of: "''", with: "'")
                    i = reference(chars, at: end + 1, sheet: quoted, into: &found)
                } else {
                    i = end
                }
            } else if c == UInt8(ascii: "[") {
                // A structured reference's brackets, or an external workbook's index: neither is read.
                var depth = 0
                while i < chars.count {
                    if chars[i] == UInt8(ascii: "[") { depth += 1 }
                    if chars[i] == UInt8(ascii: "]") { depth -= 1 }
                    i += 1
                    if depth == 0 { break }
                }
                if i < chars.count, isWord(chars[i]) { i = skipWord(chars, from: i) }
            } else if isWord(c) {
                let end = skipWord(chars, from: i)
                if end < chars.count, chars[end] == UInt8(ascii: "!") {
                    let sheet = String(decoding: chars[i..<end], as: UTF8.self)
                    i = reference(chars, at: end + 1, sheet: sheet, into: &found)
                } else if end < chars.count, chars[end] == UInt8(ascii: "(") {
                    i = end
                } else if end < chars.count, chars[end] == UInt8(ascii: "[") {
                    found += names(String(decoding: chars[i..<end], as: UTF8.self))
                    i = end
                } else {
                    let after = reference(chars, at: i, sheet: nil, into: &found)
                    if after > i {
                        i = after
                    } else {
                        let word = String(decoding: chars[i..<end], as: UTF8.self)
                        if word.first.map({ !$0.isNumber }) ?? false { found += names(word) }
                        i = end
                    }
                }
            } else {
                i += 1
            }
        }
        return found
    }

    /// Reads the reference at `start` into `found`; returns the index after it, or `start` when
    /// there is none (after a sheet qualifier, the word that follows is skipped instead).
    private static func reference(_ chars: [UInt8], at start: Int, sheet: String?, into found: inout [FormulaArea]) -> Int {
        let end = skipWord(chars, from: start)
        let first = chars[start..<end]
        var last: ArraySlice<UInt8>?
        var after = end
        if end < chars.count, chars[end] == UInt8(ascii: ":") {
            let secondEnd = skipWord(chars, from: end + 1)
            if secondEnd > end + 1 {
                last = chars[(end + 1)..<secondEnd]
                after = secondEnd
            }
        }
        let followedByCall = after < chars.count && (chars[after] == UInt8(ascii: "(") || chars[after] == UInt8(ascii: "["))
        guard !followedByCall, let area = area(first, last, sheet: sheet) else {
            return sheet == nil ? start : max(end, start + 1)
        }
        if sheet.map({ !$0.contains("[") }) ?? true { found.append(area) }
        return after
    }

    /// `F2`, `$F$2:$G9`, `F:F`, `2:5` as an area; nil for anything else.
    static func area(_ first: ArraySlice<UInt8>, _ last: ArraySlice<UInt8>?, sheet: String?) -> FormulaArea? {
        let a = part(first)
        guard let last else {
            guard let column = a.column, let row = a.row else { return nil }
            return FormulaArea(
                sheet: sheet, firstRow: row, lastRow: row, firstColumn: column, lastColumn: column,
                absolute: (a.absoluteRow, a.absoluteRow, a.absoluteColumn, a.absoluteColumn))
        }
        let b = part(last)
        switch (a.column, a.row, b.column, b.row) {
        case (let c1?, let r1?, let c2?, let r2?):
            return FormulaArea(
                sheet: sheet, firstRow: min(r1, r2), lastRow: max(r1, r2), firstColumn: min(c1, c2), lastColumn: max(c1, c2),
                absolute: (a.absoluteRow, b.absoluteRow, a.absoluteColumn, b.absoluteColumn))
        case (let c1?, nil, let c2?, nil):
            return FormulaArea(
                sheet: sheet, firstRow: 1, lastRow: CellReference.maximumRow, firstColumn: min(c1, c2), lastColumn: max(c1, c2),
                absolute: (true, true, a.absoluteColumn, b.absoluteColumn))
        case (nil, let r1?, nil, let r2?):
            return FormulaArea(
                sheet: sheet, firstRow: min(r1, r2), lastRow: max(r1, r2), firstColumn: 1, lastColumn: CellReference.maximumColumn,
                absolute: (a.absoluteRow, b.absoluteRow, true, true))
        default:
            return nil
        }
    }

    /// One side of a reference: `$F$2` → column 6, row 2, both absolute; `F` or `2` alone.
    private static func part(_ bytes: ArraySlice<UInt8>) -> (column: Int?, row: Int?, absoluteColumn: Bool, absoluteRow: Bool) {
        let none: (Int?, Int?, Bool, Bool) = (nil, nil, false, false)
        var i = bytes.startIndex
        let dollar = UInt8(ascii: "$")
        let absoluteColumn = i < bytes.endIndex && bytes[i] == dollar
        if absoluteColumn { i += 1 }
        var column = 0
        var letters = 0
        while i < bytes.endIndex, bytes[i] >= UInt8(ascii: "A"), bytes[i] <= UInt8(ascii: "Z") {
            column = column * 26 + Int(bytes[i] - UInt8(ascii: "A")) + 1
            letters += 1
            i += 1
        }
        guard letters <= 3 else { return none }
        let absoluteRow = i < bytes.endIndex && bytes[i] == dollar
        if absoluteRow { i += 1 }
        var row = 0
        var digits = 0
        while i < bytes.endIndex, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9"), digits < 8 {
            row = row * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            digits += 1
            i += 1
        }
        guard i == bytes.endIndex, letters + digits > 0 else { return none }
        if letters == 0, absoluteRow { return none }
        let columnValue = letters > 0 && column <= CellReference.maximumColumn ? column : nil
        let rowValue = digits > 0 && row >= 1 && row <= CellReference.maximumRow ? row : nil
        if letters > 0, columnValue == nil { return none }
        if digits > 0, rowValue == nil { return none }
        if letters == 0 { return (nil, rowValue, false, absoluteColumn) }
        return (columnValue, rowValue, absoluteColumn, absoluteRow)
    }

    private static func skipWord(_ chars: [UInt8], from start: Int) -> Int {
        var i = start
        while i < chars.count, isWord(chars[i]) { i += 1 }
        return i
    }

    /// Letters, digits and the marks a name, a reference or a sheet name can hold (`$`, `_`, `.`, `\`).
    private static func isWord(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "$") || c == UInt8(ascii: "_")
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "\\") || c >= 0x80
    }
}
