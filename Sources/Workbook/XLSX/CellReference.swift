import Interchange

/// A1-style cell references, read from and written as bytes.
enum CellReference {
    /// Excel's grid: 1,048,576 rows by 16,384 columns (XFD).
    static let maximumRow = 1_048_576
    static let maximumColumn = 16_384

    /// Splits `AB12` into column 28 and row 12; either is 0 when absent (`AB`, `12`).
    /// Returns nil when the bytes are not a reference, or point outside Excel's grid.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (column: Int, row: Int)? {
        var column = 0
        var row = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index] | 0x20  // ASCII lowercase
            guard byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") else { break }
            column = column * 26 + Int(byte - UInt8(ascii: "a")) + 1
            if column > maximumColumn { return nil }
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "$") { index += 1 }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            row = row * 10 + Int(byte - UInt8(ascii: "0"))
            if row > maximumRow { return nil }
            index += 1
        }
        return (column, row)
    }

    /// Parses a plain decimal row number such as the `r` of a `<row>`.
    static func parseRow(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var row = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            row = row * 10 + Int(byte - UInt8(ascii: "0"))
            if row > maximumRow { return nil }
        }
        return row >= 1 ? row : nil
    }

    /// The letters of a 1-based column: 1 → `A`, 28 → `AB`.
    /// Empty for column 0 (callers index letter tables from 1).
    static func columnLetters(_ column: Int) -> String { column < 1 ? "" : ColumnLetters.letters(ofIndex: column - 1) }

    /// The 1-based column of its letters: `A` → 1, `AB` → 28; nil past `XFD` or for other text.
    static func columnNumber(_ letters: String) -> Int? {
        guard let index = ColumnLetters.index(of: letters, maxLetters: 3), index < maximumColumn else { return nil }
        return index + 1
    }

    /// `B5` for column 2, row 5.
    static func name(column: Int, row: Int) -> String {
        columnLetters(column) + String(row)
    }
}
