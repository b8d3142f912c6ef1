/// The order the reconciler visits keys in: every key of base, local, remote and frozen rows once,
/// sorted as `String`s sort (so plans, appends and store writes come out the same on every run).
enum KeyOrder {
    /// One key to visit, with what is already known of its rows from collecting it.
    struct Visit<R> {
        var key: String
        var source: Source<R>
    }

    /// Where a key was first found. A key only the remote has carries where its remote row is, so
    /// the reconciler neither hashes it again to find the row nor looks for it in the base and
    /// local rows, which lack it.
    enum Source<R> {
        /// The base or the local rows have it: every side is looked up.
        case baseOrLocal
        /// Only the remote rows have it (it may be frozen too), at this index of them: reading a
        /// dictionary at an index hashes nothing, and an index copies no row.
        case remote(Dictionary<String, R>.Index)
        /// Only the frozen keys have it.
        case frozen
    }

    /// `Set(base.keys).union(local.keys).union(remote.keys).union(frozen).sorted()`, each key with its
    /// `Source`, without building the set: a key equal to an earlier one keeps the earlier spelling,
    /// as `union` does.
    static func visits<B, L, R>(_ base: [String: B], _ local: [String: L], _ remote: [String: R], _ frozen: Set<String>) -> [Visit<R>] {
        var visits: [Visit<R>] = []
        visits.reserveCapacity(base.count + local.count + remote.count + frozen.count)
        for key in base.keys {
            visits.append(Visit(key: key, source: .baseOrLocal))
        }
        for key in local.keys where base.index(forKey: key) == nil {
            visits.append(Visit(key: key, source: .baseOrLocal))
        }
        // Looking a key up hashes it even in an empty dictionary: a check or a first pull has
        // neither base nor local rows to look in.
        let (noBase, noLocal) = (base.isEmpty, local.isEmpty)
        for i in remote.keys.indices {
            let key = remote.keys[i]
            guard noBase || base.index(forKey: key) == nil, noLocal || local.index(forKey: key) == nil else { continue }
            visits.append(Visit(key: key, source: .remote(i)))
        }
        for key in frozen where base.index(forKey: key) == nil && local.index(forKey: key) == nil && remote.index(forKey: key) == nil {
            visits.append(Visit(key: key, source: .frozen))
        }
        return sorted(visits)
    }

    /// `visits.sorted { $0.key < $1.key }`. For ASCII keys `String` order is byte order, so visits
    /// are first ordered by their key's leading 16 bytes as two integers, and compared as strings
    /// only on a tie; any other key makes the whole list sort as strings.
    static func sorted<R>(_ visits: consuming [Visit<R>]) -> [Visit<R>] {
        var tagged: [(high: UInt64, low: UInt64, index: Int)] = []
        tagged.reserveCapacity(visits.count)
        for i in visits.indices {
            guard let (high, low) = prefix(visits[i].key) else { return visits.sorted { $0.key < $1.key } }
            tagged.append((high, low, i))
        }
        tagged.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return visits[a.index].key < visits[b.index].key
        }
        // The sorted order is applied in place, cycle by cycle, instead of into a second array: a
        // million visits are held once.
        var placed = consume visits
        placed.withUnsafeMutableBufferPointer { buffer in
            for start in tagged.indices where tagged[start].index >= 0 {
                var at = start
                let first = buffer[start]
                while true {
                    let from = tagged[at].index
                    tagged[at].index = -1
                    if from == start {
                        buffer[at] = first
                        break
                    }
                    buffer[at] = buffer[from]
                    at = from
                }
            }
        }
        return placed
    }

    /// The first 16 bytes as two big-endian integers (zero-padded), or nil for a non-ASCII key.
    /// Read eight bytes at a time: this runs once per key of every tab.
    private static func prefix(_ key: String) -> (UInt64, UInt64)? {
        CanonicalText.withBytes(key) { p -> (UInt64, UInt64)? in
            let raw = UnsafeRawBufferPointer(p)
            var bits: UInt64 = 0  // every byte OR-ed in: a set high bit marks a non-ASCII byte
            var i = 0
            while i + 8 <= raw.count {
                bits |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < raw.count {
                bits |= UInt64(raw[i])
                i += 1
            }
            guard bits & 0x8080_8080_8080_8080 == 0 else { return nil }
            if raw.count >= 16 {
                return (
                    UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                    UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
            var high: UInt64 = 0, low: UInt64 = 0
            for i in 0..<16 {
                let b: UInt64 = i < raw.count ? UInt64(raw[i]) : 0
                if i < 8 { high = high << 8 | b } else { low = low << 8 | b }
            }
            return (high, low)
        }
    }
}
