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
    /// An error cell such as `#N/A` or `#DIV/0!`, or `formulaWithoutResult`.
    case error(String)

    /// The error of a formula cell saved without its result (openpyxl and other libraries write
    /// formulas and leave computing them to a spreadsheet program): no value to read, and not empty.
    public static let formulaWithoutResult = "a formula with no saved result"

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
