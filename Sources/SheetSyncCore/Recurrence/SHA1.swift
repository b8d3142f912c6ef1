/// SHA-1 (FIPS 180-4), written out by hand because the core imports Foundation only.
///
/// It exists for name-based UUIDs (RFC 4122 §4.3), where the digest is an identifier, not a
/// security measure; do not use it for anything that needs collision resistance.
enum SHA1 {
    /// The 20-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var w = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: paddedCount(message.count), by: 64) {
            for t in 0..<16 {
                var word: UInt32 = 0
                for k in 0..<4 {
                    word = word << 8 | UInt32(paddedByte(message, at: blockStart + 4 * t + k))
                }
                w[t] = word
            }
            for t in 16..<80 {
                w[t] = rotateLeft(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1)
            }
            var a = state[0], b = state[1], c = state[2], d = state[3], e = state[4]
            for t in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch t {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ w[t]
                e = d
                d = c
                c = rotateLeft(b, 30)
                b = a
                a = temp
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    /// The message length after padding: one 0x80 byte, zeros, and the 8-byte bit length,
    /// rounded up to whole 64-byte blocks.
    private static func paddedCount(_ count: Int) -> Int {
        (count + 1 + 8 + 63) / 64 * 64
    }

    /// The byte at `index` of the padded message, computed on the fly so the input is not copied.
    private static func paddedByte(_ message: [UInt8], at index: Int) -> UInt8 {
        if index < message.count { return message[index] }
        if index == message.count { return 0x80 }
        let total = paddedCount(message.count)
        let lengthStart = total - 8
        guard index >= lengthStart else { return 0 }
        let bitLength = UInt64(message.count) &* 8
        return UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(total - 1 - index)))
    }

    private static func rotateLeft(_ x: UInt32, _ n: UInt32) -> UInt32 {
        x << n | x >> (32 - n)
    }
}
