/// One cell as a workbook reader found it: a typed value plus nothing else.
///
/// Readers never interpret cells beyond their storage type: a CSV reader yields `.text`
/// for every non-empty field; an XLSX reader yields numbers as their exact source text and
/// marks numbers whose number format is a date; a Sheets reader yields JSON numbers as their
/// literal text. Tab schemas turn cells into field values (see `CellParser`).
public enum Cell: Hashable, Sendable {
    case empty
    /// Text exactly as stored (no trimming, no unescaping beyond the container's own).
    case text(String)
    /// A number as its exact decimal source text, e.g. `"12.5"`, `"-3"`, `"1.5E-3"`.
    case number(String)
    case bool(Bool)
    /// A number the producer formatted as a date or date-time, as a serial in the 1900 date
    /// system (days since 1899-12-30, fraction = time of day), exact decimal text.
    /// Readers of 1904-system workbooks convert to the 1900 system before yielding it.
    case dateSerial(String)
    /// An error cell such as `#N/A` or `#DIV/0!`.
    case error(String)

    /// The text a person would see for this cell in a plain-text workbook.
    public var rawText: String {
        switch self {
        case .empty: return ""
        case .text(let s): return s
        case .number(let s): return s
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .dateSerial(let s): return s
        case .error(let e): return e
        }
    }

    public var isEmpty: Bool {
        switch self {
        case .empty: return true
        case .text(let s): return s.isEmpty
        default: return false
        }
    }
}

/// A neutral sheet: a header row and data rows, as read from CSV, XLSX or Sheets.
///
/// `rows[i]` is the sheet's row `i + 2` (row 1 is the header). Rows may be shorter than the
/// header (omitted trailing cells) or longer (cells under no header).
public struct Table: Hashable, Sendable {
    public var header: [String]
    public var rows: [[Cell]]
    /// Data rows (by index) whose structure the reader found broken (a stray quote swallowing
    /// the rows after it), with what is wrong. Such a row is rejected and the tab deletes nothing.
    public var damagedRows: [Int: String] = [:]
    /// Data rows (by index) whose bytes the reader cannot pass on intact (a NUL byte in a CSV cell),
    /// with the problem to report. Such a row is rejected and frozen as it is; its key still counts.
    public var refusedRows: [Int: FieldProblem] = [:]

    public init(header: [String], rows: [[Cell]] = []) {
        self.header = header
        self.rows = rows
    }

    /// The sheet row number (1-based, header is row 1) of data row `index`.
    public static func sheetRowNumber(ofDataRow index: Int) -> Int { index + 2 }
}
