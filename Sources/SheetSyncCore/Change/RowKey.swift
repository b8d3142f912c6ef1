/// A row's key in 16 bytes of payload when it can be: the text of a canonical UUID (36 characters,
/// lowercase hex, dashes at 8, 13, 18 and 23) is held as its 128 bits, any other text as itself.
///
/// Per-row key state for a million rows is then a flat array instead of a million heap strings.
/// Injective by construction, so a compact key never makes two different keys one: a
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

    /// The hash `RowKeyIndex` places the key by: a UUID's bits mixed (cheaper than `hashValue`'s
    /// SipHash, and no UUID version leaves the low bits alone that way), any other text's `hashValue`.
    var slotHash: Int {
        switch self {
        case .uuid(let high, let low):
            var x = high ^ (low &* 0x9E37_79B9_7F4A_7C15)
            x ^= x >> 29
            x &*= 0xBF58_476D_1CE4_E5B9
            x ^= x >> 32
            return Int(truncatingIfNeeded: x)
        case .text:
            return hashValue
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
    ///
    /// Every key of every row goes through this on each sync (sheet and base keys both), and hex
    /// digits are letters or numbers at random: a branch per byte was mispredicted on about a third
    /// of them (13 % of a sync after one edit). So each byte's value and validity are computed
    /// without branching, and one check at the end refuses any byte that was no lowercase hex digit.
    package static func uuidBits(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count == 36, let p = bytes.baseAddress,
            p[8] == 0x2d, p[13] == 0x2d, p[18] == 0x2d, p[23] == 0x2d
        else { return nil }
        var invalid: UInt8 = 0
        var high: UInt64 = 0
        var low: UInt64 = 0
        // The 32 digits' offsets: 0-7, 9-12, 14-17 make the high half; 19-22, 24-35 the low half.
        for offset in 0..<23 where offset != 8 && offset != 13 && offset != 18 {
            let (nibble, bad) = hexDigit(p[offset])
            invalid |= bad
            if offset < 18 { high = high << 4 | nibble } else { low = low << 4 | nibble }
        }
        for offset in 24..<36 {
            let (nibble, bad) = hexDigit(p[offset])
            invalid |= bad
            low = low << 4 | nibble
        }
        return invalid == 0 ? (high, low) : nil
    }

    /// A lowercase hex digit's value, and 1 when `byte` is none (upper case would not format back
    /// to itself, so it is another text). Branch-free.
    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> (UInt64, UInt8) {
        let decimal = byte &- 0x30
        let letter = byte &- 0x61
        let isDecimal: UInt8 = decimal < 10 ? 1 : 0
        let isLetter: UInt8 = letter < 6 ? 1 : 0
        let value = isDecimal == 1 ? decimal : letter &+ 10
        return (UInt64(value & 0xf), (isDecimal | isLetter) ^ 1)
    }
}
