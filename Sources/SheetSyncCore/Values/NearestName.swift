/// "Did you mean …?" for a name typed by hand: a config key, a subcommand.
public enum NearestName {
    /// The candidate nearest to `name` (ignoring case) when it is close enough to be a typo of it
    /// (`remtoe` → `remote`, `cvs` → `csv`, `synk` → `sync`), else nil. Ties go to the alphabetically first.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased())
        let nearest = candidates.map { ($0, distance(Array($0.lowercased()), typed)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let (candidate, distance) = nearest, distance < typed.count, distance <= max(1, min(3, typed.count / 2)) else {
            return nil
        }
        return candidate
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: the optimal string
    /// alignment distance, so a swapped pair of letters — the commonest slip — counts once.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](), previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
