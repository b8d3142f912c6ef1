import Foundation

/// Byte-level search in a part's XML, for edits that keep every byte they do not change.
struct XMLBytes {
    let bytes: [UInt8]

    /// The index of `needle` in `from..<to`, or nil.
    func find(_ needle: [UInt8], from: Int, to: Int? = nil) -> Int? {
        let end = to ?? bytes.count
        guard from <= end, end - from >= needle.count, !needle.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { hay -> Int? in
            guard let base = hay.baseAddress else { return nil }
            let first = Int32(needle[0])
            var position = from
            let last = end - needle.count
            while position <= last {
                guard let hit = memchr(base + position, first, last - position + 1) else { return nil }
                let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + index, needle, needle.count) == 0 { return index }
                position = index + 1
            }
            return nil
        }
    }

    /// The next start tag `<{prefix}{name}` (followed by a space, `>` or `/`) in `from..<to`.
    func startTag(_ qualifiedName: String, from: Int, to: Int? = nil) -> Int? {
        let needle = Array("<\(qualifiedName)".utf8)
        var position = from
        while let hit = find(needle, from: position, to: to) {
            let after = hit + needle.count
            if after < bytes.count, Self.endsName(bytes[after]) { return hit }
            position = hit + 1
        }
        return nil
    }

    /// The index just past the `>` that ends the tag starting at `start`, and whether it is `/>`.
    func tagEnd(from start: Int) -> (end: Int, selfClosing: Bool)? {
        var quote: UInt8 = 0
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                return (i + 1, i > start && bytes[i - 1] == UInt8(ascii: "/"))
            }
            i += 1
        }
        return nil
    }

    /// The prefix (`"x:"` or `""`) of the first element with this local name, and its start.
    func firstElement(localName: String) -> (prefix: String, start: Int)? {
        let needle = Array(localName.utf8)
        var position = 0
        while let hit = find(needle, from: position) {
            position = hit + 1
            let after = hit + needle.count
            guard after < bytes.count, Self.endsName(bytes[after]), hit > 0 else { continue }
            var open = hit - 1
            while open >= 0, bytes[open] != UInt8(ascii: "<"), Self.isNameByte(bytes[open]) || bytes[open] == UInt8(ascii: ":") {
                open -= 1
            }
            guard open >= 0, bytes[open] == UInt8(ascii: "<") else { continue }
            let prefix = String(decoding: bytes[(open + 1)..<hit], as: UTF8.self)
            guard prefix.isEmpty || prefix.hasSuffix(":") else { continue }
            return (prefix, open)
        }
        return nil
    }

    func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    static func endsName(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte >= 0x80
    }
}
