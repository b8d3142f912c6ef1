/// `xml:space`: a `<t>` without `xml:space="preserve"` loses its leading and trailing white space,
/// as Excel and calamine read it; writers that mean the spaces say "preserve".
enum XMLSpace {
    static func preserves(_ attributes: XMLAttributes) -> Bool {
        guard let value = attributes.bytes("space") else { return false }
        return value.equals("preserve")
    }

    /// Trims XML white space off both ends of `text[start...]`.
    static func trim(_ text: inout [UInt8], from start: Int) {
        var end = text.count
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        var first = start
        while first < end, isSpace(text[first]) { first += 1 }
        if end < text.count { text.removeSubrange(end...) }
        if first > start { text.removeSubrange(start..<first) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// Reads the shared string table: each `<si>` is one string, its rich-text runs joined and its
/// phonetic guides (`<rPh>`) left out. An `<si><t/></si>` is an empty string, not a missing one.
final class SharedStringsHandler: XMLEventHandler {
    @exclusivity(unchecked) private(set) var strings: [String] = []
    @exclusivity(unchecked) private var text: [UInt8] = []
    @exclusivity(unchecked) private var inItem = false
    @exclusivity(unchecked) private var inText = false
    @exclusivity(unchecked) private var phoneticDepth = 0
    @exclusivity(unchecked) private var textStart = 0
    @exclusivity(unchecked) private var preserveSpace = false

    init() { text.reserveCapacity(256) }

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
        if name == "t" {
            inText = inItem && phoneticDepth == 0
            textStart = text.count
            preserveSpace = XMLSpace.preserves(attributes)
        } else if name == "si" {
            inItem = true
            text.removeAll(keepingCapacity: true)
        } else if name == "rPh" {
            phoneticDepth += 1
        } else if name == "sst" {
            // The declared count sizes the table; capped so a lying header cannot reserve gigabytes.
            if let count = attributes.string("uniqueCount").flatMap(Int.init), count > 0 {
                strings.reserveCapacity(min(count, 1 << 20))
            }
        }
    }

    func endElement(_ name: XMLName) throws {
        if name == "t" {
            if inText && !preserveSpace { XMLSpace.trim(&text, from: textStart) }
            inText = false
        } else if name == "si" {
            strings.append(OOXMLEscape.unescape(text))
            inItem = false
        } else if name == "rPh" {
            phoneticDepth -= 1
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        if inText { text.append(contentsOf: bytes) }
    }
}
