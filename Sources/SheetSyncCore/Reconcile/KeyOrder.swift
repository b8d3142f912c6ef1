/// The order the reconciler visits keys in: every key of base, local, remote and frozen rows once,
/// sorted as `String`s sort (so plans, appends and store writes come out the same on every run).
enum KeyOrder {
    /// `Set(base.keys).union(local.keys).union(remote.keys).union(frozen).sorted()`, without building
    /// the set: a key equal to an earlier one keeps the earlier spelling, as `union` does.
    static func sortedUnion<B, L, R>(_ base: [String: B], _ local: [String: L], _ remote: [String: R], _ frozen: Set<String>) -> [String] {
        var keys = Array(base.keys)
        keys.reserveCapacity(base.count + local.count + remote.count + frozen.count)
        for key in local.keys where base.index(forKey: key) == nil {
            keys.append(key)
        }
        for key in remote.keys where base.index(forKey: key) == nil && local.index(forKey: key) == nil {
            keys.append(key)
        }
        for key in frozen where base.index(forKey: key) == nil && local.index(forKey: key) == nil && remote.index(forKey: key) == nil {
            keys.append(key)
        }
        return sorted(keys)
    }

    /// `keys.sorted()`. For ASCII keys `String` order is byte order, so keys are first ordered by
    /// their leading 16 bytes as two integers, and compared as strings only on a tie; any other
    /// key makes the whole list sort as strings.
    static func sorted(_ keys: [String]) -> [String] {
        var tagged: [(high: UInt64, low: UInt64, index: Int)] = []
        tagged.reserveCapacity(keys.count)
        for (i, key) in keys.enumerated() {
            guard let (high, low) = prefix(key) else { return keys.sorted() }
            tagged.append((high, low, i))
        }
        tagged.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return keys[a.index] < keys[b.index]
        }
        return tagged.map { keys[$0.index] }
    }

    /// The first 16 bytes as two big-endian integers (zero-padded), or nil for a non-ASCII key.
    private static func prefix(_ key: String) -> (UInt64, UInt64)? {
        CanonicalText.withBytes(key) { p -> (UInt64, UInt64)? in
            var high: UInt64 = 0, low: UInt64 = 0
            for i in 0..<16 {
                let b: UInt64 = i < p.count ? UInt64(p[i]) : 0
                if i < 8 { high = high << 8 | b } else { low = low << 8 | b }
            }
            for b in p where b >= 0x80 { return nil }
            return (high, low)
        }
    }
}
