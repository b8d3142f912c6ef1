/// What a statement's scanners (`DelimitedRecords`, `OFXTags`) read a text by: its `Character`s, or —
/// where every `Character` is one Unicode scalar (`StatementText.scansByBytes`), as in nearly every
/// bank's file — its UTF-8 bytes, which then read the same and cost a fraction. One scanner serves
/// both: it only compares units with ASCII marks and turns runs of units back into text.
protocol TextUnit: Equatable {
    init(ascii: UInt8)
    /// The text of a run of units.
    static func text(_ units: some Collection<Self>) -> String
    /// `\r\n` where it is one unit (a `Character`), nil where it is two.
    static var crlf: Self? { get }
}

extension UInt8: TextUnit {
    init(ascii: UInt8) { self = ascii }
    static func text(_ units: some Collection<UInt8>) -> String { String(decoding: units, as: UTF8.self) }
    static var crlf: UInt8? { nil }
}

extension Character: TextUnit {
    init(ascii: UInt8) { self.init(Unicode.Scalar(ascii)) }
    static func text(_ units: some Collection<Character>) -> String { String(units) }
    static var crlf: Character? { "\r\n" }
}

extension Array where Element: TextUnit {
    /// How many units the line break at `index` takes (`\n`, `\r`, `\r\n`), or nil when none starts there.
    func lineBreak(at index: Int) -> Int? {
        let unit = self[index]
        if unit == Element(ascii: 0x0D) { return index + 1 < count && self[index + 1] == Element(ascii: 0x0A) ? 2 : 1 }
        return unit == Element(ascii: 0x0A) || unit == Element.crlf ? 1 : nil
    }
}

extension StatementText {
    /// Whether `text` may be scanned by its UTF-8 bytes: whether each of its `Character`s is one scalar
    /// (`\r\n` aside) that equals no other. True when every scalar is below U+0300 (no combining mark,
    /// joiner or prepended mark, which join a neighbour into one `Character`, and no scalar that Unicode
    /// takes for another, as U+037E for `;`) or is among the punctuation and currency signs banks print
    /// (`–`, `„`, `…`, `€`, `™`), which join nothing either. Anything else is scanned by `Character`s.
    package static func scansByBytes(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case ..<0x300, 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0, 0x2122: true
            default: false
            }
        }
    }
}
