import CLibXML2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An element or attribute local name as libxml2 hands it over (NUL-terminated UTF-8, borrowed).
///
/// Parts are matched by local name only, so Transitional, Strict and prefixed (`x:c`) documents
/// read alike.
struct XMLName {
    let pointer: UnsafePointer<xmlChar>

    init(_ pointer: UnsafePointer<xmlChar>) { self.pointer = pointer }

    @inline(__always)
    static func == (name: XMLName, literal: StaticString) -> Bool {
        let lit = literal.utf8Start
        let count = literal.utf8CodeUnitCount
        // Reading stops at the first mismatch, so the name is never read past its NUL.
        var index = 0
        while index < count {
            if name.pointer[index] != lit[index] { return false }
            index += 1
        }
        return name.pointer[count] == 0
    }

    var string: String { String(cString: pointer) }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `literal`, without the generic collection machinery.
    @inline(__always)
    func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount, let base = baseAddress else { return count == 0 && literal.utf8CodeUnitCount == 0 }
        return memcmp(base, literal.utf8Start, count) == 0
    }
}

/// The attributes of one start tag, as libxml2's SAX2 five-pointer tuples
/// (local name, prefix, namespace URI, value start, value end).
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    /// The raw bytes of the first attribute with this local name (any namespace).
    func bytes(_ localName: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for index in 0..<count {
            let tuple = base + index * 5
            guard let name = tuple[0], XMLName(name) == localName else { continue }
            return Self.value(tuple)
        }
        return nil
    }

    /// The attribute value as text, or nil when absent.
    func string(_ localName: StaticString) -> String? {
        bytes(localName).map(Self.decode)
    }

    /// The value of an attribute with this local name that sits in a namespace (e.g. `r:id`).
    func namespacedString(_ localName: StaticString) -> String? {
        guard let base else { return nil }
        for index in 0..<count {
            let tuple = base + index * 5
            guard let name = tuple[0], tuple[2] != nil, XMLName(name) == localName else { continue }
            return Self.value(tuple).map(Self.decode)
        }
        return nil
    }

    private static func value(_ tuple: UnsafeMutablePointer<UnsafePointer<xmlChar>?>) -> UnsafeBufferPointer<UInt8>? {
        guard let start = tuple[3], let end = tuple[4] else { return nil }
        return UnsafeBufferPointer(start: start, count: end - start)
    }

    /// Without entity substitution libxml2 hands every `&` in an attribute value over as `&#38;`
    /// (all other references are already resolved), so that one sequence is decoded here.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let ampersand = UInt8(ascii: "&")
        guard bytes.contains(ampersand) else { return String(decoding: bytes, as: UTF8.self) }
        let escape = Array("&#38;".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == ampersand, index + escape.count <= bytes.count,
                bytes[index..<index + escape.count].elementsEqual(escape)
            {
                out.append(ampersand)
                index += escape.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
