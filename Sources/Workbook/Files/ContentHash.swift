/// XXH64, the 64-bit xxHash (https://github.com/Cyan4973/xxHash, spec `doc/xxhash_spec.md`).
///
/// Used to notice a file that changed since it was read, so it must be fast on large files
/// (it reads 8 bytes per step, several GB/s) but need not resist an adversary. Hand-written to
/// keep the `Workbook` target free of extra dependencies; the spec's test vectors pin it.
public enum ContentHash {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The XXH64 hash of `bytes` with `seed`.
    public static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        Stream(seed: seed).finish(last: bytes)
    }

    /// XXH64 of input given in pieces (a file read a chunk at a time): every piece but the last a
    /// whole number of 32-byte stripes. Gives what `xxh64` gives for the pieces joined.
    public struct Stream {
        private let seed: UInt64
        private var v1, v2, v3, v4: UInt64
        private var length = 0
        /// Bytes `add(_:)` was given past the last whole stripe, waiting for the next piece.
        private var pending: [UInt8] = []

        public init(seed: UInt64 = 0) {
            self.seed = seed
            (v1, v2, v3, v4) = (seed &+ p1 &+ p2, seed &+ p2, seed, seed &- p1)
        }

        /// A piece that is not the last; its length is a multiple of 32.
        public mutating func add(stripes bytes: UnsafeRawBufferPointer) {
            precondition(bytes.count % 32 == 0, "only whole stripes before the last piece")
            var i = 0
            while i + 32 <= bytes.count {
                v1 = round(v1, load64(bytes, i))
                v2 = round(v2, load64(bytes, i + 8))
                v3 = round(v3, load64(bytes, i + 16))
                v4 = round(v4, load64(bytes, i + 24))
                i += 32
            }
            length += bytes.count
        }

        /// A piece of any length (the stripes are cut across pieces); then `finish()`.
        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var start = 0
            if !pending.isEmpty {
                start = min(32 - pending.count, bytes.count)
                pending += bytes[0..<start]
                guard pending.count == 32 else { return }
                pending.withUnsafeBytes { add(stripes: $0) }
                pending.removeAll(keepingCapacity: true)
            }
            let whole = (bytes.count - start) & ~31
            add(stripes: UnsafeRawBufferPointer(rebasing: bytes[start..<start + whole]))
            pending += bytes[(start + whole)...]
        }

        /// The hash of everything `add(_:)` was given.
        public func finish() -> UInt64 {
            pending.withUnsafeBytes { closing($0) }
        }

        /// The hash, with the last piece (of any length), after pieces given to `add(stripes:)` only.
        public func finish(last bytes: UnsafeRawBufferPointer) -> UInt64 {
            precondition(pending.isEmpty, "bytes given to add(_:) are pending: finish() closes them")
            return closing(bytes)
        }

        private func closing(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            var state = self
            let stripes = bytes.count & ~31
            state.add(stripes: UnsafeRawBufferPointer(rebasing: bytes[0..<stripes]))
            let n = length + bytes.count
            var h: UInt64
            if n >= 32 {
                let (v1, v2, v3, v4) = (state.v1, state.v2, state.v3, state.v4)
                h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
                h = merge(h, v1)
                h = merge(h, v2)
                h = merge(h, v3)
                h = merge(h, v4)
            } else {
                h = seed &+ p5
            }
            h &+= UInt64(n)
            var i = stripes
            while i + 8 <= bytes.count {
                h ^= round(0, load64(bytes, i))
                h = rotl(h, 27) &* p1 &+ p4
                i += 8
            }
            if i + 4 <= bytes.count {
                let word = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                h ^= UInt64(word) &* p1
                h = rotl(h, 23) &* p2 &+ p3
                i += 4
            }
            while i < bytes.count {
                h ^= UInt64(bytes[i]) &* p5
                h = rotl(h, 11) &* p1
                i += 1
            }
            h ^= h >> 33
            h &*= p2
            h ^= h >> 29
            h &*= p3
            h ^= h >> 32
            return h
        }
    }

    /// The XXH64 hash of `bytes` with seed 0.
    public static func xxh64(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { xxh64($0) }
    }

    @inline(__always)
    private static func load64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 {
        (x << r) | (x >> (64 - r))
    }

    @inline(__always)
    private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    @inline(__always)
    private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* p1 &+ p4
    }
}
