import CLibXML2

/// Receives the events of one XML part as libxml2's SAX2 push parser reports them.
///
/// Names and values are borrowed bytes, valid only during the call: handlers compare them in
/// place (`name == "c"`) and copy only what they keep, so no Swift string is made per node.
protocol XMLEventHandler: AnyObject {
    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws
    func endElement(_ name: XMLName) throws
    /// Text and CDATA content, possibly split across several calls.
    func characters(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// Why an XML part was not accepted.
enum XMLStreamProblem: Error {
    case doctype
    case malformed(message: String, line: Int)
    /// No element at all: junk where the document should start, nothing but whitespace (libxml2 says
    /// "Document is empty" for both), or nothing. `head` is the part's first bytes.
    case notXML(head: [UInt8])
    case handler(any Error)
}

/// A libxml2 SAX2 push parser fed in chunks; the whole document is never held in memory.
///
/// Safety: a DOCTYPE stops the parse (so no entity can be declared), the network is off, no DTD is
/// loaded, entities are not substituted and `XML_PARSE_HUGE` is not set, so libxml2's own limits on
/// text node size and nesting depth stay in force.
///
/// Make one with `XMLStreamParser.for(_:)`: events reach the handler through one class-method call
/// and a direct (specialised) call, not an existential, which matters at a million events a second.
class XMLStreamParser {
    private var context: xmlParserCtxtPtr?
    private var problem: XMLStreamProblem?
    @exclusivity(unchecked) fileprivate var stopped = false
    /// Whether an element has started: before one, a failure is about what the part holds instead of XML.
    @exclusivity(unchecked) fileprivate var sawElement = false
    /// The document's first bytes, for a message about a part that holds no XML at all.
    private var head: [UInt8] = []
    /// How many first bytes are kept: a description shows fewer, and says whether more followed.
    private static let headCount = 2 * LeadingBytes.count

    fileprivate init() {
        XMLStreamParser.initializeLibrary
    }

    static func `for`<Handler: XMLEventHandler>(_ handler: Handler) -> XMLStreamParser {
        HandlingParser(handler: handler)
    }

    fileprivate func receiveStart(_ name: XMLName, _ attributes: XMLAttributes) throws {}
    fileprivate func receiveEnd(_ name: XMLName) throws {}
    fileprivate func receiveCharacters(_ bytes: UnsafeBufferPointer<UInt8>) {}

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    /// Feeds the next chunk of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) throws(XMLStreamProblem) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        if head.count < Self.headCount { head += bytes.prefix(Self.headCount - head.count) }
        let chars = base.assumingMemoryBound(to: CChar.self)
        var offset = 0
        if context == nil {
            // The first bytes let libxml2 detect the encoding (UTF-8 or UTF-16 with a BOM).
            let head = min(4, bytes.count)
            context = makeContext(chars, Int32(head))
            offset = head
        }
        guard let context else { throw .malformed(message: "cannot create an XML parser", line: 0) }
        var remaining = bytes.count - offset
        while remaining > 0 {
            let step = min(remaining, 1 << 30)
            let status = xmlParseChunk(context, chars + offset, Int32(step), 0)
            try check(status)
            offset += step
            remaining -= step
        }
    }

    /// Ends the document; reports any error seen at its end (an unclosed element, say).
    func finish() throws(XMLStreamProblem) {
        if context == nil { throw .notXML(head: []) }
        guard let context else { return }
        let status = xmlParseChunk(context, nil, 0, 1)
        try check(status)
    }

    private func check(_ status: Int32) throws(XMLStreamProblem) {
        if let problem { throw problem }
        if status != 0 {
            throw .malformed(message: "not well-formed XML (libxml2 error \(status))", line: 0)
        }
    }

    private func makeContext(_ head: UnsafePointer<CChar>, _ count: Int32) -> xmlParserCtxtPtr? {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = saxStartElement
        sax.endElementNs = saxEndElement
        sax.characters = saxCharacters
        sax.ignorableWhitespace = saxCharacters  // whitespace-only strings (" ") are data
        sax.cdataBlock = saxCharacters
        sax.internalSubset = saxDoctype
        sax.serror = saxError
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let ctxt = xmlCreatePushParserCtxt(&sax, me, head, count, nil) else { return nil }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlCtxtUseOptions(ctxt, options)
        return ctxt
    }

    fileprivate func stop(_ reason: XMLStreamProblem) {
        stopped = true
        if problem == nil { problem = reason }
        if let context { xmlStopParser(context) }
    }

    fileprivate func recordError(_ error: xmlErrorPtr?) {
        guard problem == nil, let error else { return }
        let level = error.pointee.level
        guard level == XML_ERR_ERROR || level == XML_ERR_FATAL else { return }
        stopped = true
        var message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed XML"
        while message.last?.isNewline == true || message.last == " " { message.removeLast() }
        if !sawElement, error.pointee.code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue) || !Self.startsLikeXML(head) {
            // libxml2 says "Document is empty" for junk before the root element as for no content at all,
            // and "Extra content at the end of the document" for some whitespace: say what is there.
            problem = .notXML(head: head)
            return
        }
        problem = .malformed(message: message, line: Int(error.pointee.line))
    }

    /// Whether a document's first bytes start as XML does: `<` after a UTF-8 byte-order mark and
    /// whitespace, or a UTF-16 byte-order mark (whose text libxml2 decodes and judges itself).
    private static func startsLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            // Whitespace as far as the kept bytes go: blank only if that is all there was.
            return bytes.count >= headCount
        }
        return first == UInt8(ascii: "<")
    }

    private static let initializeLibrary: Void = { xmlInitParser() }()
}

/// The parser for one handler type.
private final class HandlingParser<Handler: XMLEventHandler>: XMLStreamParser {
    private let handler: Handler

    init(handler: Handler) {
        self.handler = handler
        super.init()
    }

    override func receiveStart(_ name: XMLName, _ attributes: XMLAttributes) throws {
        try handler.startElement(name, attributes)
    }

    override func receiveEnd(_ name: XMLName) throws {
        try handler.endElement(name)
    }

    override func receiveCharacters(_ bytes: UnsafeBufferPointer<UInt8>) {
        handler.characters(bytes)
    }
}

/// Runs `body` with the parser behind a callback's context pointer, without retaining it: the
/// parser outlives every callback (it owns the libxml2 context that makes them).
@inline(__always)
private func withParser(_ ctx: UnsafeMutableRawPointer?, _ body: (XMLStreamParser) -> Void) {
    guard let ctx else { return }
    Unmanaged<XMLStreamParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef(body)
}

private func saxStartElement(
    _ ctx: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int32, _ defaulted: Int32,
    _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    guard let localName else { return }
    let attrs = XMLAttributes(base: attributes, count: Int(attributeCount))
    withParser(ctx) { parser in
        guard !parser.stopped else { return }
        parser.sawElement = true
        do { try parser.receiveStart(XMLName(localName), attrs) } catch { parser.stop(.handler(error)) }
    }
}

private func saxEndElement(
    _ ctx: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
) {
    guard let localName else { return }
    withParser(ctx) { parser in
        guard !parser.stopped else { return }
        do { try parser.receiveEnd(XMLName(localName)) } catch { parser.stop(.handler(error)) }
    }
}

private func saxCharacters(_ ctx: UnsafeMutableRawPointer?, _ chars: UnsafePointer<xmlChar>?, _ length: Int32) {
    guard let chars, length > 0 else { return }
    let buffer = UnsafeBufferPointer(start: chars, count: Int(length))
    withParser(ctx) { parser in
        if !parser.stopped { parser.receiveCharacters(buffer) }
    }
}

private func saxDoctype(
    _ ctx: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ externalID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?
) {
    withParser(ctx) { $0.stop(.doctype) }
}

private func saxError(_ ctx: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    withParser(ctx) { $0.recordError(error) }
}
