import SheetValues

/// The record separator a CSV file uses between rows.
public enum CSVLineEnding: String, Hashable, Sendable, CaseIterable {
    case lf
    case crlf
    case cr

    /// The bytes of this line ending.
    public var bytes: [UInt8] {
        switch self {
        case .lf: return [0x0A]
        case .crlf: return [0x0D, 0x0A]
        case .cr: return [0x0D]
        }
    }
}

/// One CSV file as read: its table plus the layout details a rewrite must keep as found.
///
/// The first record is `table.header` (strings exactly as written); every later record is a
/// row of `table.rows`, with `.text` for a non-empty field and `.empty` for an empty one. A
/// blank line is a row of zero cells, kept so that a rewrite reproduces it.
///
/// Two layouts cannot be told apart in bytes, so the reader never yields them and the
/// writer normalises them: a last row of zero cells always ends with a newline (otherwise
/// the blank line would be invisible), and a file with no record separator at all reports
/// `.lf` as its line ending.
public struct CSVFile: Hashable, Sendable {
    public var table: Table
    /// Whether the file started with a UTF-8 byte order mark (`EF BB BF`).
    public var hasBOM: Bool
    /// The first record separator found outside quotes; `.lf` when there is none.
    public var lineEnding: CSVLineEnding
    /// Whether the last record is followed by a line ending.
    public var endsWithNewline: Bool
    public init(
        table: Table,
        hasBOM: Bool = false,
        lineEnding: CSVLineEnding = .lf,
        endsWithNewline: Bool = true
    ) {
        self.table = table
        self.hasBOM = hasBOM
        self.lineEnding = lineEnding
        self.endsWithNewline = endsWithNewline
    }

    /// Two files are equal when their bytes would be: what the reader found wrong with rows
    /// (`Table.damagedRows`, `Table.refusedRows`) follows from those bytes.
    public static func == (a: CSVFile, b: CSVFile) -> Bool {
        a.table.header == b.table.header && a.table.rows == b.table.rows && a.hasBOM == b.hasBOM
            && a.lineEnding == b.lineEnding && a.endsWithNewline == b.endsWithNewline
    }

    /// The bytes the file was read from and, for the header then each row, the range of its record
    /// (line ending excluded): what lets a rewrite copy unchanged rows as they were written. Not
    /// part of equality; nil for a file not read from bytes kept in memory.
    public var source: [UInt8]?
    var recordRanges: [Range<Int>] = []
    /// Every record separator in `source` is `lineEnding`: a run of rows is then one slice of it.
    var lineEndingsUniform = false

    public func hash(into hasher: inout Hasher) {
        hasher.combine(table.header)
        hasher.combine(table.rows)
        hasher.combine(hasBOM)
        hasher.combine(lineEnding)
        hasher.combine(endsWithNewline)
    }
}
