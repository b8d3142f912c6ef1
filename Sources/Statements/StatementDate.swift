import Foundation
import SheetSyncCore

/// A date pattern a user configures (`import.csv.dateFormat`): `dd/MM/yyyy`, `MM/dd/yyyy`,
/// `dd.MM.yy`, `yyyyMMdd`, `d MMM yyyy`. Letters `y`, `M`, `d` are fields, anything else is literal;
/// what follows the date after a space or a `T` (a time) is ignored.
public struct DateFormat: Hashable, Sendable, CustomStringConvertible {
    enum Token: Hashable {
        case year(digits: Int)
        case month(name: Bool)
        case day
        case literal(Character)
    }

    let tokens: [Token]
    public let description: String

    /// Nil for a pattern without a year, a month and a day.
    public init?(pattern: String) {
        var tokens: [Token] = []
        var chars = Substring(pattern)
        while let c = chars.first {
            let run = chars.prefix { $0 == c }
            chars = chars.dropFirst(run.count)
            switch c {
            case "y" where run.count == 2 || run.count == 4: tokens.append(.year(digits: run.count))
            case "M" where run.count <= 2: tokens.append(.month(name: false))
            case "M" where run.count >= 3: tokens.append(.month(name: true))
            case "d" where run.count <= 2: tokens.append(.day)
            case "y", "M", "d": return nil
            default: tokens += run.map { .literal($0) }
            }
        }
        let fields = tokens.filter { if case .literal = $0 { return false } else { return true } }
        guard fields.count == 3, Set(fields.map { "\($0)".prefix(3) }).count == 3 else { return nil }
        self.tokens = tokens
        self.description = pattern
    }

    /// The date `text` names under this pattern, or nil.
    public func parse(_ text: String) -> LocalDate? {
        var rest = Substring(text.trimmingWhitespace())
        var year = 0
        var month = 0
        var day = 0
        for (index, token) in tokens.enumerated() {
            switch token {
            case .literal(let c):
                guard rest.first == c else { return nil }
                rest = rest.dropFirst()
            case .year(let digits):
                let run = rest.prefix { $0.isASCII && $0.isNumber }
                guard run.count == digits, let value = Int(run) else { return nil }
                year = digits == 2 ? 2000 + value : value
                rest = rest.dropFirst(digits)
            case .month(let name):
                if name {
                    let word = rest.prefix { $0.isLetter }
                    guard let value = MonthName.number(word) else { return nil }
                    month = value
                    rest = rest.dropFirst(word.count)
                    if rest.first == "." { rest = rest.dropFirst() }
                } else {
                    guard let value = Self.number(&rest, compact: Self.isCompact(tokens, after: index)) else { return nil }
                    month = value
                }
            case .day:
                guard let value = Self.number(&rest, compact: Self.isCompact(tokens, after: index)) else { return nil }
                day = value
            }
        }
        guard rest.isEmpty || rest.first == " " || rest.first == "T" else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    /// One or two digits; exactly two where no literal follows (`yyyyMMdd`).
    private static func number(_ rest: inout Substring, compact: Bool) -> Int? {
        let run = rest.prefix { $0.isASCII && $0.isNumber }.prefix(2)
        guard !run.isEmpty, !compact || run.count == 2, let value = Int(run) else { return nil }
        rest = rest.dropFirst(run.count)
        return value
    }

    private static func isCompact(_ tokens: [Token], after index: Int) -> Bool {
        guard index + 1 < tokens.count else { return false }
        if case .literal = tokens[index + 1] { return false }
        return true
    }
}

/// English and German month names, by their first three letters (`Mar`, `März`, `Mrz`, `Sept`).
enum MonthName {
    static func number(_ word: Substring) -> Int? {
        let key = String(word.lowercased().prefix(3))
        guard word.count >= 3 else { return nil }
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        if let index = names.firstIndex(of: key) { return index + 1 }
        return ["mär": 3, "mrz": 3, "mai": 5, "okt": 10, "dez": 12][key]
    }
}

/// Reads a column of dates in the form its values show: ISO (`2026-11-03`, `2026/11/03`), `YYYYMMDD`,
/// day-first with points (`03.11.2026`, `3.11.26`), a month by name (`3 Nov 2026`, `Nov 3, 2026`),
/// and slashed or dashed dates whose order the column's values tell (`13/11/2026` is day-first,
/// `11/13/2026` month-first). Never guesses: a column whose slashed dates all read both ways needs
/// a configured `DateFormat`.
struct DateColumn {
    enum Order: Hashable {
        case dayFirst, monthFirst
    }

    let configured: DateFormat?
    let order: Order?

    /// The reading of a column with these values; throws when its order cannot be told.
    init(values: [String], configured: DateFormat?, column: String, file: String) throws(StatementError) {
        self.configured = configured
        guard configured == nil else {
            self.order = nil
            return
        }
        var dayFirst = false
        var monthFirst = false
        var example: String?
        for value in values {
            guard let parts = Self.slashed(value) else { continue }
            example = example ?? value
            if parts.0 > 12 && parts.1 <= 12 { dayFirst = true }
            if parts.1 > 12 && parts.0 <= 12 { monthFirst = true }
        }
        if dayFirst && monthFirst { throw StatementError(file: file, problem: .mixedDateOrder(column: column)) }
        if let example, !dayFirst && !monthFirst {
            throw StatementError(file: file, problem: .ambiguousDates(column: column, example: example))
        }
        self.order = dayFirst ? .dayFirst : monthFirst ? .monthFirst : nil
    }

    func parse(_ text: String) -> LocalDate? {
        if let configured { return configured.parse(text) }
        let trimmed = text.trimmingWhitespace()
        for pattern in Self.fixed { if let date = pattern.parse(trimmed) { return date } }
        guard let (a, b, year) = Self.slashed(trimmed), let order else { return nil }
        return order == .dayFirst ? LocalDate(year: year, month: b, day: a) : LocalDate(year: year, month: a, day: b)
    }

    /// Whether `text` is a date in some form (a slashed one in either order): what tells a table's
    /// rows from the lines around it.
    static func looksLikeDate(_ text: String) -> Bool {
        let trimmed = text.trimmingWhitespace()
        return fixed.contains { $0.parse(trimmed) != nil } || slashed(trimmed) != nil
    }

    private static let fixed: [DateFormat] = [
        "yyyy-MM-dd", "yyyy/MM/dd", "yyyy.MM.dd", "yyyyMMdd", "dd.MM.yyyy", "dd.MM.yy", "dd MMM yyyy", "dd-MMM-yyyy",
        "dd-MMM-yy", "dd MMM yy", "MMM dd, yyyy", "MMM dd yyyy", "dd. MMM yyyy",
    ].compactMap { DateFormat(pattern: $0) }

    /// `a/b/yyyy`, `a-b-yyyy` or with a two-digit year, both readings possible days and months.
    private static func slashed(_ text: String) -> (Int, Int, Int)? {
        let head = text.trimmingWhitespace().prefix { $0 != " " && $0 != "T" }
        for separator: Character in ["/", "-"] {
            let parts = head.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 4 || parts[2].count == 2,
                let a = Int(parts[0]), let b = Int(parts[1]), let y = Int(parts[2]), (1...31).contains(a), (1...31).contains(b),
                a <= 12 || b <= 12
            else { continue }
            return (a, b, parts[2].count == 2 ? 2000 + y : y)
        }
        return nil
    }
}
