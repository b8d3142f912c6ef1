/// "Did you mean …?" for a name typed by hand: a config key, a subcommand.
public enum NearestName {
    /// The candidate nearest to `name` by edit distance (ignoring case) when it is close enough to be
    /// a typo of it (`remtoe` → `remote`, `synk` → `sync`), else nil. Ties go to the alphabetically first.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let typed = name.lowercased()
        let nearest = candidates.map { ($0, CategoryCheck.distance($0.lowercased(), typed)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let (candidate, distance) = nearest, distance < name.count, distance <= max(1, min(3, name.count / 2)) else { return nil }
        return candidate
    }
}
