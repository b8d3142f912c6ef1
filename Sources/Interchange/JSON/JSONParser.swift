import Foundation

/// Why a JSON document could not be read, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// The zero-based byte offset of the problem.
    public var offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

extension JSONValue {
    /// Parses a complete JSON document (RFC 8259); number literals are kept as text.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let buffer = Array(bytes)
        var parser = JSONParser(bytes: buffer)
        return try parser.parseDocument()
    }

    /// Parses a complete JSON document from text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses like `parse`, and also refuses an object naming the same key twice: in a file a person
    /// wrote (a config), the last copy silently winning would hide a mistake.
    public static func parseRejectingDuplicateKeys(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        parser.rejectsDuplicateKeys = true
        return try parser.parseDocument()
    }
}

/// A hand-written recursive-descent parser over UTF-8 bytes.
struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    private var depth = 0
    /// Whether an object with the same key twice is an error (else the last one wins).
    var rejectsDuplicateKeys = false
    // Deep nesting would otherwise overflow the stack on hostile input.
    private static let maximumDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated, as some tools write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        let value = try parseValue()
        skipWhitespace()
        if position != bytes.count { throw fail("unexpected '\(describe(bytes[position]))' after the document") }
        return value
    }

    func fail(_ message: String) -> JSONParseError {
        JSONParseError(message: message, offset: position)
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case let byte: throw fail("unexpected '\(describe(byte))'")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard position + count <= bytes.count, bytes[position..<position + count].elementsEqual(expected) else {
            throw fail("expected '\(literal)'")
        }
        position += count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        var object = JSONObject()
        try parseMembers(closing: UInt8(ascii: "}"), in: "an object") { (parser: inout Self) throws(JSONParseError) in
            try parser.parseMember(into: &object)
        }
        return .object(object)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        try parseMembers(closing: UInt8(ascii: "]"), in: "an array") { (parser: inout Self) throws(JSONParseError) in
            elements.append(try parser.parseValue())
        }
        return .array(elements)
    }

    /// Reads an object's or an array's members, from its opening byte through `close`: `member`
    /// reads one; the nesting depth, the commas and the end are dealt with here, once for both.
    private mutating func parseMembers(
        closing close: UInt8, in container: String, _ member: (inout Self) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try enter()
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == close {
            position += 1
            depth -= 1
            return
        }
        while true {
            try member(&self)
            skipWhitespace()
            guard position < bytes.count else { throw fail("unexpected end of input in \(container)") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == close {
                position += 1
                depth -= 1
                return
            } else {
                throw fail("expected ',' or '\(describe(close))' in \(container)")
            }
        }
    }

    /// One `"key": value` of an object.
    private mutating func parseMember(into object: inout JSONObject) throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw fail("expected a quoted object key")
        }
        let keyStart = position
        let key = try parseString()
        if rejectsDuplicateKeys, object[key] != nil {
            position = keyStart
            throw fail("duplicate key '\(key)'")
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':'") }
        position += 1
        object[key] = try parseValue()
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = position
        var end = position
        while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
        guard Self.numberLiteralEnd(bytes, from: start, to: end) == end else {
            throw fail("invalid number '\(String(decoding: bytes[start..<end], as: UTF8.self))'")
        }
        position = end
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
            UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    /// Whether the bytes are exactly one JSON number literal: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
    static func isValidNumber(_ literal: [UInt8]) -> Bool {
        numberLiteralEnd(literal, from: 0, to: literal.count) == literal.count
    }

    /// Where the longest number literal starting at `start` (and not passing `limit`) ends, or nil
    /// when none starts there.
    static func numberLiteralEnd(_ bytes: [UInt8], from start: Int, to limit: Int) -> Int? {
        var index = start
        func isDigit(_ at: Int) -> Bool { at < limit && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
        func digits() -> Int {
            let first = index
            while isDigit(index) { index += 1 }
            return index - first
        }
        if index < limit, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < limit, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return nil
        }
        if index < limit, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { return nil }
        }
        if index < limit, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < limit, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { return nil }
        }
        return index
    }
}
