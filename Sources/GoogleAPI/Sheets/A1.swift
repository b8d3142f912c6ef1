import Interchange

/// A1 notation: quoted tab names and column letters.
public enum A1 {
    /// A tab name in single quotes, inner quotes doubled: `My Tab` → `'My Tab'`, `Bob's` → `'Bob''s'`.
    /// Quoting is always valid, and it keeps names such as `A1` or `Sheet 1` from being misread.
    public static func quoteSheetName(_ name: String) -> String {
        "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The letters of a zero-based column index: 0 → `A`, 25 → `Z`, 26 → `AA`, 701 → `ZZ`, 702 → `AAA`.
    public static func columnLetters(_ index: Int) -> String { ColumnLetters.letters(ofIndex: index) }

    /// The zero-based index of column letters (case-insensitive), or nil for anything else.
    public static func columnIndex(_ letters: String) -> Int? {
        ColumnLetters.index(of: letters, caseInsensitive: true)
    }

    /// `'Tab'!A1:N` style ranges. Rows are one-based as in the sheet; a nil end row means "to the bottom".
    public static func range(sheet: String, firstColumn: Int, firstRow: Int, lastColumn: Int, lastRow: Int? = nil) -> String {
        let start = columnLetters(firstColumn) + String(firstRow)
        let end = columnLetters(lastColumn) + (lastRow.map(String.init) ?? "")
        return quoteSheetName(sheet) + "!" + start + ":" + end
    }

    /// A whole tab.
    public static func wholeSheet(_ sheet: String) -> String {
        quoteSheetName(sheet)
    }

    /// The tab name of a range as Google returns it (`'My Tab'!A1:B2` → `My Tab`, `Data!A1` → `Data`).
    public static func sheetName(ofRange range: String) -> String {
        if range.hasPrefix("'") {
            var name = ""
            var characters = range.dropFirst()[...]
            while let character = characters.popFirst() {
                if character == "'" {
                    if characters.first == "'" {
                        name.append("'")
                        characters.removeFirst()
                    } else {
                        break
                    }
                } else {
                    name.append(character)
                }
            }
            return name
        }
        if let bang = range.lastIndex(of: "!") { return String(range[..<bang]) }
        return range
    }
}
