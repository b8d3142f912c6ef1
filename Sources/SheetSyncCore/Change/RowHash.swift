import SheetValues

/// A stable 64-bit fingerprint of a sheet row's cells exactly as read (every cell, user columns
/// included, with the header folded in), so a sync can tell an untouched row without parsing it.
///
/// FNV-1a over each cell's kind, and a multiply-rotate step over its UTF-8 bytes eight at a time
/// (`step(_:word:)`): the same bytes give the same value in every
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
        var builder = Builder(seed: seed)
        for cell in cells { builder.add(cell) }
        return builder.value
    }

    /// Hashes a row cell by cell, for readers that hold cells as bytes (`RowSource`): the same value
    /// as `of(_:seed:)` for the same cells.
    public struct Builder {
        /// The hash up to the last non-empty cell: trailing empty cells are the same row whichever
        /// way a reader pads it.
        private var kept: UInt64
        /// The hash including the empty cells since then, kept in case a non-empty cell follows.
        private var running: UInt64

        public init(seed: UInt64) {
            kept = seed
            running = seed
        }

        public mutating func add(_ cell: Cell) {
            switch cell {
            case .empty:
                addEmpty()
                return
            case .text(let s):
                // Empty text is an empty cell when trailing, yet hashes as text before a later cell.
                running = RowHash.mix(s, into: running, tag: 0x02)
                if s.isEmpty { return }
            case .number(let s): running = RowHash.mix(s, into: running, tag: 0x03)
            case .bool(let b): running = RowHash.step(running, b ? 0x04 : 0x05)
            case .dateSerial(let s): running = RowHash.mix(s, into: running, tag: 0x06)
            case .error(let s): running = RowHash.mix(s, into: running, tag: 0x07)
            }
            kept = running
        }

        /// An empty cell.
        public mutating func addEmpty() {
            running = RowHash.step(running, 0x01)
        }

        /// A non-empty text cell given as its UTF-8 bytes.
        public mutating func addText(_ bytes: UnsafeBufferPointer<UInt8>) {
            running = RowHash.mix(bytes, into: running, tag: 0x02)
            kept = running
        }

        public var value: Int64 {
            let value = Int64(bitPattern: kept)
            return value == 0 ? 1 : value
        }
    }

    fileprivate static func mix(_ text: String, into hash: UInt64, tag: UInt8) -> UInt64 {
        var copy = text
        return copy.withUTF8 { mix($0, into: hash, tag: tag) }
    }

    fileprivate static func mix(_ bytes: UnsafeBufferPointer<UInt8>, into hash: UInt64, tag: UInt8) -> UInt64 {
        var h = step(hash, tag)
        let n = bytes.count
        var i = 0
        if let base = bytes.baseAddress {
            // Eight bytes a step (little-endian, so the same value on every machine), the last few
            // zero-padded: the length below tells them from real zeros.
            while i + 8 <= n {
                h = step(h, word: UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                i += 8
            }
            if i < n {
                var tail: UInt64 = 0
                for k in i..<n { tail |= UInt64(base[k]) << (8 * UInt64(k - i)) }
                h = step(h, word: tail)
            }
        }
        // The length closes the cell, so ("ab", "c") and ("a", "bc") differ.
        return step(h, word: UInt64(n))
    }

    @inline(__always)
    fileprivate static func step(_ h: UInt64, _ byte: UInt8) -> UInt64 {
        (h ^ UInt64(byte)) &* prime
    }

    /// One word into the hash. Each step is a bijection of the hash for a given word (xor, a multiply
    /// by an odd number, a rotation), so two cells that differ in one word always hash apart.
    @inline(__always)
    fileprivate static func step(_ h: UInt64, word: UInt64) -> UInt64 {
        let m = (h ^ word) &* 0x9E37_79B9_7F4A_7C15
        return m << 31 | m >> 33
    }
}

extension Table {
    /// `RowHash.of(row(index), seed:)`, from the row's bytes where the table keeps them (never decoded
    /// into strings).
    public func rowHash(_ index: Int, seed: UInt64) -> Int64 {
        var builder = RowHash.Builder(seed: seed)
        let visited = visitCells(
            rows: index..<index + 1,
            cell: { bytes in
                if bytes.isEmpty { builder.addEmpty() } else { builder.addText(bytes) }
                return true
            },
            endOfRow: { _ in true })
        return visited ? builder.value : RowHash.of(row(index), seed: seed)
    }
}
