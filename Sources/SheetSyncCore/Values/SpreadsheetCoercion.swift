/// What a spreadsheet program makes of a CSV cell's text when it opens the file and saves it again
/// with its default import (LibreOffice, Excel): a text that looks like a number comes back as the
/// number as it shows it (`00123` → `123`, `1e5` → `100000`, `+5` → `5`, `1.50` → `1.5`), and a
/// formula (`=1+1`) as its result. sheetsync says so when it writes such a text to a CSV workbook,
/// `check` lists them, and a sync holds back a row that comes back holding exactly that change of a
/// value sheetsync wrote (docs/spreadsheet-round-trips.md).
public enum SpreadsheetCoercion {
    /// What comes back in place of a text.
    public enum Outcome: Hashable, Sendable {
        /// The number, as a spreadsheet shows it in the General format.
        case number(String)
        /// A formula's result: some number (sheetsync does not compute formulas).
        case formula
    }

    /// Whether a text beginning with this byte may be one `of` changes: a formula's `=`, or a number's
    /// sign, digit or point. Any other text is left as it is (a scan decodes only these).
    public static func mayChange(firstByte byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// What a spreadsheet program saves in place of `text`; nil when it keeps the text as it is (or
    /// when sheetsync cannot tell: a number of more than 15 digits, or one shown in scientific form).
    public static func of(_ text: String) -> Outcome? {
        guard let first = text.utf8.first, mayChange(firstByte: first) else { return nil }
        if first == UInt8(ascii: "="), text.utf8.count > 1 { return .formula }
        guard let shown = shownNumber(text), shown != text else { return nil }
        return .number(shown)
    }

    /// Whether `cell` is exactly what a spreadsheet program makes of `written`.
    public static func cameBack(_ cell: String, for written: String) -> Bool {
        guard cell != written, let outcome = of(written) else { return false }
        switch outcome {
        case .number(let shown): return cell == shown
        case .formula: return shownNumber(cell) != nil
        }
    }

    /// How a spreadsheet shows the number `text` spells (an optional sign, digits with at most one
    /// point, an optional exponent), or nil for any other text.
    static func shownNumber(_ text: String) -> String? {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var mantissa = bytes, exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissa = bytes[..<e]
            var digits = bytes[bytes.index(after: e)...]
            var negativeExponent = false
            if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negativeExponent = sign == UInt8(ascii: "-")
                digits = digits.dropFirst()
            }
            guard (1...3).contains(digits.count), digits.allSatisfy(CanonicalText.isDigit),
                let value = Int(String(decoding: digits, as: UTF8.self))
            else { return nil }
            exponent = negativeExponent ? -value : value
        }
        let parts = mantissa.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, parts.count <= 2, whole.allSatisfy(CanonicalText.isDigit) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : mantissa[mantissa.endIndex...]
        guard fraction.allSatisfy(CanonicalText.isDigit), whole.count + fraction.count > 0 else { return nil }
        // The digits with the point moved by the exponent; then leading and trailing zeros dropped.
        var digits = Array(whole) + Array(fraction)
        var point = whole.count + exponent
        if point < 0 {
            digits = [UInt8](repeating: UInt8(ascii: "0"), count: -point) + digits
            point = 0
        } else if point > digits.count {
            digits += [UInt8](repeating: UInt8(ascii: "0"), count: point - digits.count)
        }
        var integer = digits[..<point].drop { $0 == UInt8(ascii: "0") }
        var decimals = digits[point...]
        while decimals.last == UInt8(ascii: "0") { decimals = decimals.dropLast() }
        // Beyond 15 significant digits or past 1E+15 a spreadsheet rounds or shows an exponent.
        let significant = (integer + decimals).drop { $0 == UInt8(ascii: "0") }.count
        guard significant <= 15, integer.count <= 15 else { return nil }
        // And below 0.0001 (`1E-05`).
        if integer.isEmpty, decimals.prefix(4).allSatisfy({ $0 == UInt8(ascii: "0") }), !decimals.isEmpty { return nil }
        if integer.isEmpty { integer = [UInt8(ascii: "0")][...] }
        let isZero = integer.allSatisfy { $0 == UInt8(ascii: "0") } && decimals.isEmpty
        let body = String(decoding: integer, as: UTF8.self) + (decimals.isEmpty ? "" : "." + String(decoding: decimals, as: UTF8.self))
        return negative && !isZero ? "-" + body : body
    }
}
