extension JSONParser {
    /// Reads a quoted string at `position`, decoding escapes and `\u` surrogate pairs.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        // Most strings hold no escape: make them straight from the input bytes.
        var scan = position
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let start = position
                position = scan + 1
                guard let text = String(validating: bytes[start..<scan], as: UTF8.self) else {
                    position = start
                    throw fail("string is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            scan += 1
        }
        var utf8: [UInt8] = []
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                utf8.append(contentsOf: bytes[runStart..<position])
                position += 1
                return try validated(utf8)
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: bytes[runStart..<position])
                try parseEscape(into: &utf8)
                runStart = position
            case 0x00..<0x20:
                throw fail("unescaped control character in a string")
            default:
                position += 1
            }
        }
        throw fail("unterminated string")
    }

    private func validated(_ utf8: [UInt8]) throws(JSONParseError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw fail("string is not valid UTF-8")
        }
        return text
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        position += 1
        guard position < bytes.count else { throw fail("unterminated escape") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape()
            utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            position -= 1
            throw fail("invalid escape '\\\(String(UnicodeScalar(escape)))'")
        }
    }

    /// Reads the hex digits after `\u`, joining a high and low surrogate into one scalar.
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw fail("high surrogate \\u\(hex(first)) without a low surrogate") }
            position += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw fail("high surrogate \\u\(hex(first)) followed by \\u\(hex(second))")
            }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw fail("invalid code point") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw fail("lone low surrogate \\u\(hex(first))") }
        return scalar
    }

    private func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
