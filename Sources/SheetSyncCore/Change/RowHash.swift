/// A stable 64-bit fingerprint of a sheet row's cells exactly as read (every cell, user columns
/// included, with the header folded in), so a sync can tell an untouched row without parsing it.
///
/// FNV-1a over each cell's kind and UTF-8 bytes: the same bytes give the same value in every
/// process and on every machine (Swift's `Hasher` is seeded per process). Never 0, which the store
/// uses for "no hash recorded".
public enum RowHash {
    private static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The seed for every row of a table with this header: a moved or renamed column changes
    /// every row's hash, so the next sync reads the tab whole once.
    public static func seed(header: [String]) -> UInt64 {
        var h = offset
        for name in header { h = mix(name, into: h, tag: 0x1f) }
        return h
    }

    public static func of(_ cells: [Cell], seed: UInt64) -> Int64 {
        var h = seed
        // Trailing empty cells are the same row whichever way a reader pads it.
        var end = cells.count
        while end > 0, cells[end - 1].isEmpty { end -= 1 }
        for cell in cells[..<end] {
            switch cell {
            case .empty: h = step(h, 0x01)
            case .text(let s): h = mix(s, into: h, tag: 0x02)
            case .number(let s): h = mix(s, into: h, tag: 0x03)
            case .bool(let b): h = step(h, b ? 0x04 : 0x05)
            case .dateSerial(let s): h = mix(s, into: h, tag: 0x06)
            case .error(let s): h = mix(s, into: h, tag: 0x07)
            }
        }
        let value = Int64(bitPattern: h)
        return value == 0 ? 1 : value
    }

    private static func mix(_ text: String, into hash: UInt64, tag: UInt8) -> UInt64 {
        var h = step(hash, tag)
        var copy = text
        copy.withUTF8 { bytes in
            for byte in bytes { h = step(h, byte) }
        }
        // The length closes the cell, so ("ab", "c") and ("a", "bc") differ.
        var n = UInt64(text.utf8.count)
        for _ in 0..<8 {
            h = step(h, UInt8(truncatingIfNeeded: n))
            n >>= 8
        }
        return h
    }

    @inline(__always)
    private static func step(_ h: UInt64, _ byte: UInt8) -> UInt64 {
        (h ^ UInt64(byte)) &* prime
    }
}
