/// Row index by key over a table's own key array, in 4 bytes a slot: open addressing with linear
/// probing, where a slot holds a row index and the key is read from the array it indexes. A
/// `[String: Int]` of a million keys costs every key a second time plus 24 bytes a bucket.
struct RowKeyIndex: Hashable, Sendable {
    /// A row index per slot; `empty` where none. At most half full, so probes stay short.
    private var slots: [Int32]
    private var mask: Int

    private static let empty: Int32 = -1

    /// The largest row count it indexes (a row index is 4 bytes).
    static let maxRows = Int(Int32.max)

    /// An index with room for `capacity` keys.
    init(capacity: Int = 0) {
        var size = 8
        while size < 2 * capacity { size <<= 1 }
        slots = Array(repeating: Self.empty, count: size)
        mask = size - 1
    }

    /// The row whose key in `keys` is `key`. A row whose key was cleared (set nil) after it went in
    /// is never found, yet still passed over, so keys placed after it stay reachable.
    func row(of key: RowKey, in keys: [RowKey?]) -> Int? {
        var slot = key.slotHash & mask
        while slots[slot] != Self.empty {
            let row = Int(slots[slot])
            if keys[row] == key { return row }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// `row(of:in:)` for each of `wanted` in turn, handed to `body` with its position in `wanted`
    /// until `body` answers false. At a million rows a lookup is two cache misses (its slot, then the
    /// key the slot names) and one lookup's misses waited for the last's; here eight lookups at a time
    /// load their slots, then their keys, before any is decided, so the misses overlap.
    func forEachRow(of wanted: [RowKey], in keys: [RowKey?], _ body: (_ position: Int, _ row: Int?) -> Bool) {
        let group = 8
        var slot = InlineArray<8, Int>(repeating: 0)
        var first = InlineArray<8, Int32>(repeating: Self.empty)
        var matches = InlineArray<8, Bool>(repeating: false)
        var start = 0
        while start < wanted.count {
            let count = min(group, wanted.count - start)
            for j in 0..<count {
                slot[j] = wanted[start + j].slotHash & mask
                first[j] = slots[slot[j]]
            }
            for j in 0..<count {
                matches[j] = first[j] != Self.empty && keys[Int(first[j])] == wanted[start + j]
            }
            for j in 0..<count {
                let row = matches[j] ? Int(first[j]) : first[j] == Self.empty ? nil : row(of: wanted[start + j], in: keys)
                guard body(start + j, row) else { return }
            }
            start += count
        }
    }

    /// Puts `row` in for `key` (which `keys[row]` is to hold) unless a row of an equal key is in
    /// already: then that row is returned and nothing changes. Callers size the index first.
    mutating func insert(_ row: Int, key: RowKey, in keys: [RowKey?]) -> Int? {
        var slot = key.slotHash & mask
        while slots[slot] != Self.empty {
            let other = Int(slots[slot])
            if keys[other] == key { return other }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(truncatingIfNeeded: row)
        return nil
    }
}
