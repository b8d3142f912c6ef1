/// The first bytes of a file or part, in words for a message about what was found where a ZIP
/// archive or an XML document was expected: `"Date,Amount,Note"…`, `the bytes 25 50 44 46 … (a PDF)`.
enum LeadingBytes {
    /// How many bytes a description looks at (and a caller keeps).
    static let count = 32

    /// Signatures worth naming, by their first bytes.
    private static let signatures: [(bytes: [UInt8], name: String)] = [
        ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
        ([0xD0, 0xCF, 0x11, 0xE0], "an OLE compound file: a legacy Office document"),
        (Array("%PDF".utf8), "a PDF document"),
        ([0x1F, 0x8B], "a gzip file"),
        ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
        ([0xFF, 0xD8, 0xFF], "a JPEG image"),
    ]

    /// What `bytes` (the start of the content) show: quoted text when they read as text, else hex,
    /// naming the kind of file when the bytes are a known signature.
    static func describe(_ bytes: some Collection<UInt8>) -> String {
        let head = Array(bytes.prefix(count))
        if head.isEmpty { return "nothing" }
        if head.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return "only whitespace"
        }
        let shownBytes = "the bytes \(hex(head.prefix(8)))" + (bytes.count > 8 ? "…" : "")
        if let known = signatures.first(where: { head.starts(with: $0.bytes) }) {
            return "\(shownBytes) (\(known.name))"
        }
        if head.contains(0) {
            return "\(shownBytes) (binary data, or UTF-16 text without a byte-order mark)"
        }
        // Cut at a character boundary: a multi-byte character split by the prefix is left out.
        var text = head
        while !text.isEmpty, String(validating: text, as: UTF8.self) == nil, head.count - text.count < 4 {
            text.removeLast()
        }
        guard let string = String(validating: text, as: UTF8.self), !text.isEmpty,
            string.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        else {
            return shownBytes
        }
        var shown = ""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case "\"": shown += "\\\""
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return "\"\(shown)\"" + (bytes.count > text.count ? "…" : "")
    }

    /// What a part that should be an XML document holds instead, from its first bytes: nothing, only
    /// whitespace, or something else than XML before (or instead of) the root element.
    static func whereXMLWasExpected(_ head: [UInt8]) -> String {
        if head.isEmpty { return "is empty (0 bytes) where an XML document was expected" }
        let body = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
        if body.isEmpty { return "holds no XML: only a UTF-8 byte-order mark" }
        if describe(body) == "only whitespace" { return "holds no XML: it is only whitespace" }
        return "does not start as XML: it begins with \(describe(head))"
    }

    private static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
