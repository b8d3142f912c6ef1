/// Bounds that keep a hostile or broken package from exhausting memory or time.
///
/// A part is judged by what it inflates to: at most `maximumPartBytes` (1 GiB; a million-row
/// ledger is far below it), streamed in chunks so memory stays bounded whatever it claims, and
/// the reader refuses cells past Excel's 1,048,576 × 16,384 grid. The ratio check only catches
/// what no spreadsheet writes: past the grace size, a part must not inflate more than 1000× its
/// compressed size, deflate's own ceiling being about 1032:1 for runs of one byte. Real sheets
/// compress 10:1, and a sheet repeating one long note 20,000 times about 120:1: user data, read.
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
        minimumCompressionRatio: Double = 0.001,
        maximumPartBytes: Int64 = 1024 * 1024 * 1024,
        maximumParts: Int = 10_000
    ) {
        self.ratioGraceBytes = ratioGraceBytes
        self.minimumCompressionRatio = minimumCompressionRatio
        self.maximumPartBytes = maximumPartBytes
        self.maximumParts = maximumParts
    }

    /// 1 GiB per part, 1000:1 past 100 KiB, 10,000 parts.
    public static let `default` = XLSXLimits()
}
