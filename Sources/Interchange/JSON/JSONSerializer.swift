import Foundation

extension JSONValue {
    /// Compact JSON text as UTF-8 bytes; object keys keep their order and numbers their literal text.
    ///
    /// A `.number` is written exactly as held, so build numbers with `JSONValue.decimal(_:)` or
    /// `JSONValue.integer(_:)` when the text comes from outside.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        JSONSerializer.write(self, into: &output)
        return output
    }

    /// Compact JSON text.
    public func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }

    /// Compact JSON text as `Data`, for request bodies.
    public func serializedData() -> Data {
        Data(serialized())
    }

    /// Appends `text` as a quoted JSON string, escaped exactly as `serialized()` escapes strings, for
    /// a writer of a fixed-shape document that would otherwise build a `JSONValue` per row.
    public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        JSONSerializer.writeString(text, into: &output)
    }

    /// `appendQuoted` of a text given as its UTF-8 bytes.
    public static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        JSONSerializer.writeString(utf8: bytes, into: &output)
    }

    /// Indented JSON text as Google serves it by default (`prettyPrint`): one member or element
    /// a line, two spaces a level, `": "` after keys, and `{}` / `[]` for empty containers.
    public func prettySerializedString() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        JSONSerializer.write(self, into: &output, indentLevel: 0)
        return String(decoding: output, as: UTF8.self)
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serializedString() }
}

enum JSONSerializer {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(true): output.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        case .bool(false): output.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `value` indented, its first line at the current position and nested lines at
    /// `indentLevel + 1` levels.
    static func write(_ value: JSONValue, into output: inout [UInt8], indentLevel: Int) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newLine(into: &output, indentLevel: indentLevel + 1)
                write(element, into: &output, indentLevel: indentLevel + 1)
            }
            newLine(into: &output, indentLevel: indentLevel)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newLine(into: &output, indentLevel: indentLevel + 1)
                writeString(member.key, into: &output)
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                write(member.value, into: &output, indentLevel: indentLevel + 1)
            }
            newLine(into: &output, indentLevel: indentLevel)
            output.append(UInt8(ascii: "}"))
        default:
            write(value, into: &output)
        }
    }

    private static func newLine(into output: inout [UInt8], indentLevel: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indentLevel))
    }

    /// Writes a quoted string, escaping quotes, backslashes and control characters; other
    /// characters, including those outside the BMP, go out as UTF-8, which JSON allows.
    static func writeString(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { writeString(utf8: $0, into: &output) }
    }

    static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            default:
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        output.append(UInt8(ascii: "\""))
    }
}
