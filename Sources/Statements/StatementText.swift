import Foundation

/// A statement's bytes as text: UTF-8 with or without a BOM, UTF-16 with a BOM, else Windows-1252
/// (what German and US banks' exports are when they are not UTF-8).
public enum StatementText {
    public enum Encoding: String, Sendable {
        case utf8 = "UTF-8"
        case utf16 = "UTF-16"
        case windows1252 = "Windows-1252"
    }

    /// The decoded text and the encoding it was read in; nil for bytes no text file holds.
    public static func decode(_ bytes: [UInt8]) -> (text: String, encoding: Encoding)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (String(decoding: bytes.dropFirst(3), as: UTF8.self), .utf8)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return (utf16(bytes.dropFirst(2), bigEndian: bytes[0] == 0xFE), .utf16)
        }
        if bytes.contains(0) { return nil }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, .utf8) }
        return (windows1252(bytes), .windows1252)
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Windows-1252: Latin-1 but for 0x80–0x9F, which hold `€`, typographic quotes and dashes.
    static func windows1252(_ bytes: [UInt8]) -> String {
        // Written as UTF-8 and decoded once: appending scalar by scalar to a string costs far more.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            let scalar = (0x80...0x9F).contains(byte) ? high[Int(byte - 0x80)] : UInt32(byte)
            switch scalar {
            case ..<0x80: utf8.append(UInt8(scalar))
            case ..<0x800:
                utf8.append(UInt8(0xC0 | scalar >> 6))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            default:
                utf8.append(UInt8(0xE0 | scalar >> 12))
                utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// 0x80–0x9F; the five bytes Windows-1252 leaves undefined stay as their C1 control.
    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// How the first bytes of a file that is no text look: `the bytes 89 50 4E 47`.
    static func leadingBytes(_ bytes: [UInt8]) -> String {
        let hex = bytes.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "the bytes \(hex.joined(separator: " "))"
    }

    /// The text split into lines (`\r\n`, `\n` or a lone `\r`), without their endings.
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// `trimmingCharacters(in: .whitespaces)`, or `.whitespacesAndNewlines` with `newlines`: Foundation's
    /// answer, asked only where there may be something to trim. Foundation costs about a microsecond a
    /// call even then, and a statement's cells are trimmed several times each; printable ASCII (`!`…`~`)
    /// is in neither set, so a text that starts and ends with it is its own answer, as most cells are.
    package func trimmingWhitespace(newlines: Bool = false) -> String {
        guard let first = utf8.first, let last = utf8.last else { return "" }
        if (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last) { return String(self) }
        return trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
    }
}
