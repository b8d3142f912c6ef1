/// Reads the shared string table: each `<si>` is one string, its rich-text runs joined and its
/// phonetic guides (`<rPh>`) left out. An `<si><t/></si>` is an empty string, not a missing one.
final class SharedStringsHandler: XMLEventHandler {
    private(set) var strings: [String] = []
    private var text: [UInt8] = []
    private var inItem = false
    private var inText = false
    private var phoneticDepth = 0

    init() { text.reserveCapacity(256) }

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
        if name == "t" {
            inText = inItem && phoneticDepth == 0
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
