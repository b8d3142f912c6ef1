/// Google's documented limits that shape how sheetsync writes.
public enum GoogleLimits {
    /// Google's advice for one request body; the default size of a write request.
    public static let defaultRequestBytes = 2_000_000
    /// The largest write request sheetsync sends when configured so: 9 MiB, under Google's hard 10 MiB.
    public static let maxRequestBytes = 9 * 1_048_576
    /// The smallest configurable request size (a lower one would only multiply requests).
    public static let minRequestBytes = 65_536
    /// The most characters a cell holds.
    public static let maxCellCharacters = 50_000
    /// The most cells a spreadsheet holds, over all its tabs.
    public static let maxCells = 10_000_000
}
