/// A statement, or one entry of it, that cannot be read: the file, the line and what is wrong.
public struct StatementError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        case empty
        /// Bytes no text file holds (an image, an archive): what the first bytes look like.
        case binary(String)
        /// Text in none of the formats: why each did not fit.
        case unknownFormat(String)
        /// A CSV export without a column sheetsync needs (`date`, `amount`).
        case missingColumn(String, found: [String])
        /// Every date of a column reads both day-first and month-first.
        case ambiguousDates(column: String, example: String)
        /// Some dates of a column read only day-first and others only month-first.
        case mixedDateOrder(column: String)
        case badDate(String)
        case badAmount(String)
        /// An entry without a field it needs (`TRNAMT`, `Amt`, …).
        case missingField(String)
        /// The file breaks its own format (XML that is not well formed, a field of the wrong shape).
        case malformed(String)
    }

    public var file: String
    /// 1-based; nil for the file as a whole.
    public var line: Int?
    public var problem: Problem

    public init(file: String, line: Int? = nil, problem: Problem) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public var description: String { "\(line.map { "\(file) line \($0)" } ?? file): \(what)" }

    /// What is wrong, without the place.
    public var what: String {
        switch problem {
        case .empty: return "the file is empty; nothing to import"
        case .binary(let start):
            return "not a text file (it starts with \(start)); expected an OFX, QFX, QIF, CAMT.053 or CSV bank statement"
        case .unknownFormat(let why):
            return "not a bank statement sheetsync reads (OFX, QFX, QIF, CAMT.053, CSV): \(why)"
        case .missingColumn(let column, let found):
            let header = found.isEmpty ? "" : " (columns found: \(found.map { "'\($0)'" }.joined(separator: ", ")))"
            return "no \(column) column\(header); name it in import.csv.columns (or the bank's profile)"
        case .ambiguousDates(let column, let example):
            return "the dates of column '\(column)' (such as '\(example)') read both day-first and month-first; "
                + "set import.csv.dateFormat (e.g. \"dd/MM/yyyy\" or \"MM/dd/yyyy\") for this bank"
        case .mixedDateOrder(let column):
            return "the dates of column '\(column)' are day-first in some rows and month-first in others; "
                + "set import.csv.dateFormat for this bank"
        case .badDate(let value): return "'\(value)' is not a date"
        case .badAmount(let value): return "'\(value)' is not an amount"
        case .missingField(let field): return "the entry has no \(field)"
        case .malformed(let what): return what
        }
    }
}
