/// SpreadsheetML's `_xHHHH_` escapes (ECMA-376 ST_Xstring): a UTF-16 code unit written as four
/// hex digits, used for characters XML 1.0 cannot carry (control characters, U+FFFE and U+FFFF) and
/// by Excel for `\r`. A literal `_xHHHH_` in the text is itself escaped as `_x005F_xHHHH_`, and so is a literal
/// `_xHHHH` right before a character that is escaped (whose escape begins with `_`).
enum OOXMLEscape {
    private static let underscore = UInt8(ascii: "_")
    private static let letterX = UInt8(ascii: "x")

    /// Decodes the escapes in `bytes` (UTF-8) into a string.
    static func unescape<C: RandomAccessCollection>(_ bytes: C) -> String where C.Element == UInt8, C.Index == Int {
        guard containsEscape(bytes) else { return String(decoding: bytes, as: UTF8.self) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count)
        var plain: [UInt8] = []
        var index = bytes.startIndex
        func flushPlain() {
            guard !plain.isEmpty else { return }
            units.append(contentsOf: String(decoding: plain, as: UTF8.self).utf16)
            plain.removeAll(keepingCapacity: true)
        }
        while index < bytes.endIndex {
            if let unit = escapedUnit(bytes, at: index) {
                flushPlain()
                units.append(unit)
                index += 7
            } else {
                plain.append(bytes[index])
                index += 1
            }
        }
        flushPlain()
        // Unpaired surrogates become U+FFFD, as String(decoding:) does for any ill-formed input.
        return String(decoding: units, as: UTF16.self)
    }

    /// Whether writing `text` may need escapes: a control character XML 1.0 forbids, or `_x`
    /// (possibly a literal `_xHHHH_` that a reader would otherwise decode). `escape` decides exactly.
    static func mayNeedEscaping(_ text: String.UTF8View) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in text {
            if isForbidden(byte) { return true }
            if byte == letterX && previous == underscore { return true }
            // U+FFFE, U+FFFF: EF BF BE, EF BF BF.
            if byte >= 0xBE && previous == 0xBF && beforePrevious == 0xEF { return true }
            (beforePrevious, previous) = (previous, byte)
        }
        return false
    }

    /// `text` with forbidden control characters and literal `_xHHHH_` sequences escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let bytes = Array(text.utf8)
        var index = 0
        var start = 0
        func flush(_ end: Int) {
            if end > start { out += String(decoding: bytes[start..<end], as: UTF8.self) }
        }
        while index < bytes.count {
            if let (unit, length) = forbiddenCharacter(bytes, at: index) {
                flush(index)
                out += "_x" + hex4(unit) + "_"
                index += length
                start = index
            } else if readsAsEscapeOnceWritten(bytes, at: index) {
                flush(index)
                out += "_x005F_"
                index += 1  // the literal's own "_" is now written; its "xHHHH_" follows as plain text
                start = index
            } else {
                index += 1
            }
        }
        flush(bytes.count)
        return out
    }

    private static func containsEscape<C: RandomAccessCollection>(_ bytes: C) -> Bool
    where C.Element == UInt8, C.Index == Int {
        var index = bytes.startIndex
        while index + 6 < bytes.endIndex {
            if bytes[index] == underscore, bytes[index + 1] == letterX, escapedUnit(bytes, at: index) != nil {
                return true
            }
            index += 1
        }
        return false
    }

    /// Whether the literal text at `index` would read back as an escape once written: `_xHHHH`
    /// followed by `_`, or by a character whose own escape begins with `_`.
    private static func readsAsEscapeOnceWritten(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + 6 < bytes.count else { return false }
        let next = bytes[index + 6]
        return (next == underscore || forbiddenCharacter(bytes, at: index + 6) != nil)
            && escapedUnit(bytes, at: index, endingWith: next) != nil
    }

    /// A control character XML 1.0 cannot carry (written as its escape).
    private static func isForbidden(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// The character at `index` that XML 1.0 cannot carry, as its UTF-16 code unit and its length in
    /// UTF-8: a control character, or U+FFFE or U+FFFF (EF BF BE, EF BF BF).
    private static func forbiddenCharacter(_ bytes: [UInt8], at index: Int) -> (unit: UInt16, length: Int)? {
        let byte = bytes[index]
        if isForbidden(byte) { return (UInt16(byte), 1) }
        guard byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE else { return nil }
        return (0xFFFE + UInt16(bytes[index + 2] - 0xBE), 3)
    }

    /// The code unit of the escape `_xHHHH_` at `index`; with `last`, of `_xHHHH` followed by `last`
    /// instead of `_`.
    private static func escapedUnit<C: RandomAccessCollection>(_ bytes: C, at index: Int, endingWith last: UInt8 = underscore) -> UInt16?
    where C.Element == UInt8, C.Index == Int {
        guard index + 6 < bytes.endIndex, bytes[index] == underscore, bytes[index + 1] == letterX,
            bytes[index + 6] == last
        else { return nil }
        var value: UInt16 = 0
        for offset in 2...5 {
            guard let digit = hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
