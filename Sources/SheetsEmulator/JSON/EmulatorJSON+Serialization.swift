extension EmulatorJSON {
    /// Parses a JSON document from bytes.
    public init(parsing bytes: [UInt8]) throws(EmulatorJSONError) {
        self = try JSONParser.parse(bytes)
    }

    /// Parses a JSON document from text.
    public init(parsing text: String) throws(EmulatorJSONError) {
        self = try JSONParser.parse(text)
    }

    /// Compact JSON text; Google answers are pretty-printed, but clients must not care.
    public var serialized: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text, as Google serves with `prettyPrint` (its default).
    public var prettySerialized: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let text): out += text
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, to: &out, indent: indent, level: level) {
                out, i in elements[i].write(to: &out, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, to: &out, indent: indent, level: level) {
                out, i in
                Self.writeString(members[i].0, to: &out)
                out += indent == nil ? ":" : ": "
                members[i].1.write(to: &out, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, to out: inout String, indent: String?, level: Int,
        element: (inout String, Int) -> Void
    ) {
        out += open
        guard count > 0 else {
            out += close
            return
        }
        for i in 0..<count {
            if i > 0 { out += "," }
            if let indent {
                out += "\n" + String(repeating: indent, count: level + 1)
            }
            element(&out, i)
        }
        if let indent {
            out += "\n" + String(repeating: indent, count: level)
        }
        out += close
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
