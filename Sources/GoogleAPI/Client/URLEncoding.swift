import Foundation

/// Percent-encoding for URL path segments, query names and values.
public enum URLEncoding {
    /// Encodes every byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`).
    public static func component(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(UnicodeScalar(byte))
            default:
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }

    /// An `application/x-www-form-urlencoded` body from ordered pairs.
    public static func form(_ pairs: [(String, String)]) -> [UInt8] {
        Array(pairs.map { component($0.0) + "=" + component($0.1) }.joined(separator: "&").utf8)
    }

    /// Decodes `%XX` escapes and `+` as space, as in a query string.
    public static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator.removeFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The query items of a query string, decoded, in order.
    public static func queryItems(_ query: String) -> [(String, String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(String(parts[0])), parts.count > 1 ? decode(String(parts[1])) : "")
        }
    }
}
