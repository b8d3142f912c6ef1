/// A row's key in 16 bytes of payload when it can be: the text of a canonical UUID (36 characters,
/// lowercase hex, dashes at 8, 13, 18 and 23) is held as its 128 bits, any other text as itself.
///
/// Per-row key state for a million rows is then a flat array instead of a million heap strings
/// (Issue 13). Injective by construction, so a compact key never makes two different keys one: a
/// text is held as bits only when formatting the bits gives that very text back, and every other
/// text (upper case, braces, category names, odd ids) stays a `String`. Two keys are therefore
/// equal exactly when their texts are equal as `String`s.
public enum RowKey: Hashable, Sendable {
    case uuid(UInt64, UInt64)
    case text(String)

    public init(_ text: String) {
        var copy = text
        if let (high, low) = copy.withUTF8({ Self.uuidBits($0) }) {
            self = .uuid(high, low)
        } else {
            self = .text(text)
        }
    }

    /// From UTF-8 bytes (a store cursor's column): a UUID key never becomes a `String`.
    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        if let (high, low) = Self.uuidBits(bytes) {
            self = .uuid(high, low)
        } else {
            self = .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The key's text, as it was given.
    public var text: String {
        switch self {
        case .text(let text):
            return text
        case .uuid(let high, let low):
            return String(unsafeUninitializedCapacity: 36) { buffer in
                var at = 0
                for position in 0..<32 {
                    if position == 8 || position == 12 || position == 16 || position == 20 {
                        buffer[at] = 0x2d
                        at += 1
                    }
                    let bits = position < 16 ? high : low
                    let nibble = UInt8(truncatingIfNeeded: bits >> UInt64(60 - 4 * (position % 16))) & 0xf
                    buffer[at] = nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
                    at += 1
                }
                return at
            }
        }
    }

    /// The 128 bits of `bytes` when they are a canonical UUID's text, else nil.
    static func uuidBits(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == 0x2d else { return nil }
                continue
            }
            let nibble: UInt8
            switch byte {
            case 0x30...0x39: nibble = byte - 0x30
            case 0x61...0x66: nibble = byte - 0x61 + 10
            // Upper case is another text: it would not format back to itself.
            default: return nil
            }
            if digits < 16 {
                high = high << 4 | UInt64(nibble)
            } else {
                low = low << 4 | UInt64(nibble)
            }
            digits += 1
        }
        return (high, low)
    }
}
