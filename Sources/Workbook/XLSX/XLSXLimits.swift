/// Bounds that keep a hostile or broken package from exhausting memory or time.
///
/// The defaults follow Apache POI's `ZipSecureFile`: a part may inflate freely up to the grace size,
/// past which its compressed size must stay at least `minimumCompressionRatio` of what it has
/// inflated to so far. Real workbooks compress XML about 10:1; a bomb compresses 1000:1 or more.
public struct XLSXLimits: Sendable, Equatable {
    /// Inflated bytes a part may reach before the ratio check applies.
    public var ratioGraceBytes: Int64
    /// Compressed size ÷ inflated size below which a part is refused.
    public var minimumCompressionRatio: Double
    /// Inflated bytes any one part may reach.
    public var maximumPartBytes: Int64
    /// Entries the package may hold.
    public var maximumParts: Int

    public init(
        ratioGraceBytes: Int64 = 100 * 1024,
        minimumCompressionRatio: Double = 0.01,
        maximumPartBytes: Int64 = 2 * 1024 * 1024 * 1024,
        maximumParts: Int = 10_000
    ) {
        self.ratioGraceBytes = ratioGraceBytes
        self.minimumCompressionRatio = minimumCompressionRatio
        self.maximumPartBytes = maximumPartBytes
        self.maximumParts = maximumParts
    }

    /// POI's ratio and grace size; 2 GiB per part (a million-row sheet is well under it); 10,000 parts.
    public static let `default` = XLSXLimits()
}
