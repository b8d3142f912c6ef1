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
    static func columnLetters(_ column: Int) -> String {
        var letters: [UInt8] = []
        var rest = column
        while rest > 0 {
            let digit = (rest - 1) % 26
            letters.append(UInt8(ascii: "A") + UInt8(digit))
            rest = (rest - 1) / 26
        }
        return String(decoding: letters.reversed(), as: UTF8.self)
    }

    /// The 1-based column of its letters: `A` → 1, `AB` → 28; nil past `XFD` or for other text.
    static func columnNumber(_ letters: String) -> Int? {
        var column = 0
        for byte in letters.utf8 {
            guard byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return nil }
            column = column * 26 + Int(byte - UInt8(ascii: "A")) + 1
        }
        return column >= 1 && column <= maximumColumn ? column : nil
    }

    /// `B5` for column 2, row 5.
    static func name(column: Int, row: Int) -> String {
        columnLetters(column) + String(row)
    }
}
