/// Spreadsheet column letters (A1 notation), one implementation for the XLSX reader and writer, the
/// Google client and the emulator.
public enum ColumnLetters {
    /// The letters of a zero-based column index: 0 → `A`, 25 → `Z`, 26 → `AA`, 701 → `ZZ`, 702 → `AAA`.
    public static func letters(ofIndex index: Int) -> String {
        precondition(index >= 0, "column index must not be negative")
        var letters: [UInt8] = []
        var remaining = index + 1
        while remaining > 0 {
            let digit = (remaining - 1) % 26
            letters.append(UInt8(ascii: "A") + UInt8(digit))
            remaining = (remaining - 1) / 26
        }
        return String(decoding: letters.reversed(), as: UTF8.self)
    }

    /// The zero-based index of column letters; nil for anything but one to `maxLetters` ASCII letters.
    /// Lower case is accepted only when `caseInsensitive` (A1 ranges in the Sheets API are; OOXML cell
    /// references are not).
    public static func index(of letters: some StringProtocol, caseInsensitive: Bool = false, maxLetters: Int = 7) -> Int? {
        guard !letters.isEmpty, letters.utf8.count <= maxLetters else { return nil }
        var value = 0
        for var byte in letters.utf8 {
            if caseInsensitive, byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { byte -= 32 }
            guard byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return nil }
            value = value * 26 + Int(byte - UInt8(ascii: "A")) + 1
        }
        return value - 1
    }
}
