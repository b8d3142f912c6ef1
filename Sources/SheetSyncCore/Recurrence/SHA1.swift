/// SHA-1 (FIPS 180-4), written out by hand because the core imports Foundation only.
///
/// It exists for name-based UUIDs (RFC 4122 §4.3), where the digest is an identifier, not a
/// security measure; do not use it for anything that needs collision resistance.
enum SHA1 {
    /// The 20-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        // The whole blocks are read where they are; only the last (or two) are copied, with the
        // padding: one 0x80 byte, zeros, and the 8-byte bit length, to a whole 64-byte block.
        let whole = message.count / 64 * 64
        var tail = Array(message[whole...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            message.withUnsafeBufferPointer { compress(&state, UnsafeBufferPointer(rebasing: $0[..<whole]), w) }
            tail.withUnsafeBufferPointer { compress(&state, $0, w) }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in state {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    /// Runs the compression function over `blocks` (whole 64-byte blocks), `w` the message schedule.
    private static func compress(_ state: inout [UInt32], _ blocks: UnsafeBufferPointer<UInt8>, _ w: UnsafeMutableBufferPointer<UInt32>) {
        for blockStart in stride(from: 0, to: blocks.count, by: 64) {
            for t in 0..<16 {
                let i = blockStart + 4 * t
                w[t] = UInt32(blocks[i]) << 24 | UInt32(blocks[i + 1]) << 16 | UInt32(blocks[i + 2]) << 8 | UInt32(blocks[i + 3])
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
    }

    private static func rotateLeft(_ x: UInt32, _ n: UInt32) -> UInt32 {
        x << n | x >> (32 - n)
    }
}
