import Foundation
import SheetValues

/// Reads cells tolerantly into canonical field text, and writes canonical text back as cells.
public enum FieldParser {
    /// The canonical text of `cell` for a field of `kind` (`""` when the cell is empty); dates and
    /// amounts typed as text read by the ledger's `forms`.
    public static func canonical(_ cell: Cell, _ spec: FieldSpec, _ forms: LocalForms = .standard) -> Result<String, FieldProblem> {
        if let text = canonicalFast(cell, spec.kind, forms) { return .success(text) }
        return canonicalTolerantly(cell, spec, forms)
    }

    /// The tolerant reading of any cell; `canonicalFast` answers first for the common forms (the
    /// fuzz target checks that both agree).
    package static func canonicalTolerantly(
        _ cell: Cell, _ spec: FieldSpec, _ forms: LocalForms = .standard
    ) -> Result<String, FieldProblem> {
        let raw = cell.rawText
        func fail(_ message: String, _ hint: String = "") -> Result<String, FieldProblem> {
            .failure(FieldProblem(field: spec.header, value: raw, message: message, hint: hint, code: spec.kind.problemCode))
        }
        if case .error(let code) = cell { return .failure(errorProblem(code, spec)) }
        if spec.kind != .freeText, cell.isEmpty || raw.trimmingSpaces().isEmpty { return .success("") }
        switch spec.kind {
        case .freeText:
            if case .empty = cell { return .success("") }
            return .success(raw)
        case .text:
            return .success(raw.trimmingSpaces())
        case .uuid:
            guard let id = canonicalUUID(raw) else {
                return fail("'\(raw)' is not a UUID", "clear the cell to get a new id")
            }
            return .success(id)
        case .enumeration(let values):
            let v = raw.trimmingSpaces().lowercased()
            guard values.contains(v) else {
                return fail("'\(raw)' is not a valid \(spec.header)", "use one of: \(values.joined(separator: ", "))")
            }
            return .success(v)
        case .boolean:
            if case .bool(let b) = cell { return .success(b ? FieldRule.trueText : FieldRule.falseText) }
            switch raw.trimmingSpaces().lowercased() {
            case "true", "1", "yes", "y": return .success(FieldRule.trueText)
            case "false", "0", "no", "n": return .success(FieldRule.falseText)
            default: return fail("'\(raw)' is not a boolean", "use TRUE or FALSE")
            }
        case .integer(let range):
            guard let n = integer(raw.trimmingSpaces()), range.contains(n) else {
                let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)–\(range.upperBound)"
                return fail("'\(raw)' is not a whole number in \(bounds)", "type a whole number")
            }
            return .success(String(n))
        case .amount:
            return amount(cell, forms).mapError {
                FieldProblem(field: spec.header, value: raw, message: $0.message, hint: $0.hint, code: .invalidAmount)
            }
        case .date:
            guard let d = date(cell, forms.dateOrder) else {
                let (message, hint) = dateProblem(raw.trimmingSpaces(), raw, forms.dateOrder)
                return fail(message, hint)
            }
            return .success(d.description)
        case .timestamp:
            guard let t = timestamp(cell) else {
                return fail("'\(raw)' is not a timestamp", "use ISO 8601 such as 2026-11-21T22:31:20.123Z")
            }
            return .success(t.description)
        }
    }

    /// Why a cell holding a spreadsheet error (or a formula with no saved result) has no value.
    private static func errorProblem(_ code: String, _ spec: FieldSpec) -> FieldProblem {
        guard code == Cell.formulaWithoutResult else {
            return FieldProblem(
                field: spec.header, value: code, message: "cell holds the error \(code)", hint: "fix the formula or type the value",
                code: .formulaError)
        }
        return FieldProblem(
            field: spec.header, value: code, message: "\(spec.header) is a formula with no saved result",
            hint: "open the workbook in a spreadsheet program and save it (that saves the formula's result), or type the value",
            code: .formulaError)
    }

    /// The canonical text of a non-empty amount cell, or why it is none (message and hint).
    private static func amount(_ cell: Cell, _ forms: LocalForms) -> Result<String, AmountProblem> {
        let raw = cell.rawText
        if case .bool = cell { return .failure(AmountProblem("'\(raw)' is not an amount", "type a positive number such as 12.50")) }
        let typed: Result<Amount, Amount.ParseFailure>
        if case .text = cell { typed = Amount.parse(raw, typedWith: forms.decimalSeparator) } else { typed = Amount.parse(raw) }
        switch typed {
        case .success(let a):
            return .success(a.description)
        case .failure(.negative):
            return .failure(AmountProblem("amount '\(raw)' is negative", "amounts are positive; set type to income or expense instead"))
        case .failure(.ambiguous):
            return .failure(
                AmountProblem(
                    "'\(raw)' could be \(raw.filter { $0 != "." }) or \(raw.replacingOccurrences(of: ".", with: ",")): "
                        + "this ledger's decimalSeparator is ',', and a point followed by three digits may group thousands",
                    "type it without the point, or with a decimal comma"))
        case .failure(.notANumber):
            let comma = forms.decimalSeparator == .comma
            return .failure(
                AmountProblem("'\(raw)' is not an amount", comma ? "type a number such as 1234,50" : "type a plain number such as 1234.50"))
        }
    }

    /// Why a cell is no amount.
    private struct AmountProblem: Error {
        var message: String
        var hint: String
        init(_ message: String, _ hint: String) { (self.message, self.hint) = (message, hint) }
    }

    /// Year, month and day of text shaped `YYYY-MM-DD` (digits only), whether or not the day exists.
    static func isoShape(_ s: String) -> (Int, Int, Int)? {
        let b = Array(s.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (48...57).contains($0.element) }),
            let y = Int(s.prefix(4)), let m = Int(s.dropFirst(5).prefix(2)), let d = Int(s.suffix(2)), y >= 1
        else { return nil }
        return (y, m, d)
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// Lowercase canonical 8-4-4-4-12 form, accepting upper case, braces and missing dashes.
    public static func canonicalUUID(_ text: String) -> String? {
        var s = text.trimmingSpaces().lowercased()
        if s.hasPrefix("{") && s.hasSuffix("}") { s = String(s.dropFirst().dropLast()) }
        let hex = s.filter { $0 != "-" }
        // ASCII only: `isHexDigit` is also true of full-width digits and letters, which no UUID holds.
        guard hex.count == 32, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        if s.count == 36 {
            let dashes = s.enumerated().filter { $0.element == "-" }.map(\.offset)
            guard dashes == [8, 13, 18, 23] else { return nil }
        } else if s.count != 32 {
            return nil
        }
        let c = Array(hex)
        return "\(String(c[0..<8]))-\(String(c[8..<12]))-\(String(c[12..<16]))-\(String(c[16..<20]))-\(String(c[20..<32]))"
    }

    static func integer(_ s: String) -> Int? {
        if let n = Int(s) { return n }
        // `3.0` from a number cell is still a whole number.
        guard case .success(let a) = Amount.parse(s), a.fractionDigits.isEmpty else { return nil }
        return Int(a.integerDigits.isEmpty ? "0" : a.integerDigits)
    }

    /// A date from a date cell, a serial number, `YYYY-MM-DD`, `YYYY/MM/DD`, or a date with the year
    /// last read by `order` (`M/D/YYYY` under `mdy`, as Sheets writes).
    public static func date(_ cell: Cell, _ order: LocalForms.DateOrder = LocalForms.standard.dateOrder) -> LocalDate? {
        switch cell {
        case .dateSerial(let s), .number(let s):
            guard let days = serialDays(s) else { return nil }
            return LocalDate(spreadsheetSerial: days.whole)
        case .text(let raw):
            guard let (year, month, day) = dateFields(raw.trimmingSpaces(), order) else { return nil }
            return LocalDate(year: year, month: month, day: day)
        default:
            return nil
        }
    }

    /// The three numbers of a date typed as text, placed by `order` (`LocalForms.DateOrder.fields`),
    /// whether or not the day exists.
    static func dateFields(_ s: String, _ order: LocalForms.DateOrder) -> (year: Int, month: Int, day: Int)? {
        if let (year, month, day) = isoShape(s) { return (year, month, day) }
        let parts = s.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "." }).map(String.init)
        guard parts.count == 3, let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2]) else { return nil }
        return order.fields(
            (a, parts[0].count), (b, parts[1].count), (c, parts[2].count),
            separator: s.contains("/") ? UInt8(ascii: "/") : UInt8(ascii: "."))
    }

    /// Why the text `s` (typed as `raw`) is no date under `order`: a day or month that does not
    /// exist, or a year-last date the order does not read, with the readings it could have.
    static func dateProblem(_ s: String, _ raw: String, _ order: LocalForms.DateOrder) -> (String, String) {
        let setting = "this ledger's dateOrder is \(order.rawValue) (\(order.words))"
        if let (year, month, day) = dateFields(s, order) {
            guard (1...12).contains(month), (1...9999).contains(year) else {
                let yearLast = !(isoShape(s) != nil || s.prefix(while: \.isNumber).count == 4)
                return (
                    "'\(raw)' is not a date: there is no month \(month)" + (yearLast ? " (\(setting))" : ""),
                    yearLast ? "type it as YYYY-MM-DD, or change dateOrder if this ledger's dates are typed another way" : "use YYYY-MM-DD"
                )
            }
            return (
                "'\(raw)' is not a date: \(monthNames[month - 1]) \(year) has no day \(day)",
                "\(monthNames[month - 1]) has \(LocalDate.daysInMonth(year: year, month: month)) days"
            )
        }
        let readings = LocalForms.DateOrder.allCases.compactMap { other -> String? in
            guard other != order, let (y, m, d) = dateFields(s, other), let date = LocalDate(year: y, month: m, day: d) else { return nil }
            return date.description
        }
        guard !readings.isEmpty else { return ("'\(raw)' is not a date", "use YYYY-MM-DD") }
        return (
            "'\(raw)' is not a date sheetsync reads without guessing: \(setting)",
            "type it as YYYY-MM-DD (\(Set(readings).sorted().joined(separator: " or ")))"
        )
    }

    /// A timestamp from ISO text, or a date-time serial (read as UTC).
    public static func timestamp(_ cell: Cell) -> Timestamp? {
        switch cell {
        case .dateSerial(let s), .number(let s):
            guard let days = serialDays(s) else { return nil }
            let day = LocalDate(spreadsheetSerial: days.whole)
            return Timestamp(startOf: day).adding(milliseconds: days.fractionMilliseconds)
        case .text(let raw):
            return Timestamp(iso: raw)
        default:
            return nil
        }
    }

    /// A date serial as a spreadsheet shows it under a date format, in ISO form: `2026-01-02`, or
    /// `2026-01-02T13:45:00` with a time of day (to the second). Nil when it is no serial.
    public static func displayedDate(_ serial: String) -> String? {
        guard let days = serialDays(serial) else { return nil }
        let day = LocalDate(spreadsheetSerial: days.whole).description
        let seconds = Int((days.fractionMilliseconds + 500) / 1000)
        guard seconds > 0 else { return day }
        let clock = [seconds / 3600, seconds / 60 % 60, seconds % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
        return day + "T" + clock.joined(separator: ":")
    }

    /// The serial of 9999-12-31, the last day a spreadsheet has: later days have no canonical text.
    static let lastSerial = 2_958_465

    /// Splits a non-negative serial into whole days and the time of day in milliseconds, exactly.
    static func serialDays(_ text: String) -> (whole: Int, fractionMilliseconds: Int64)? {
        guard case .success(let a) = Amount.parse(text) else { return nil }
        guard let whole = Int(a.integerDigits.isEmpty ? "0" : a.integerDigits), whole <= lastSerial else { return nil }
        // fraction × 86,400,000 ms, rounded to the nearest millisecond, in exact decimal arithmetic.
        let digits = a.fractionDigits.prefix(18)
        guard !digits.isEmpty, let numerator = Decimal(string: String(digits)) else { return (whole, 0) }
        var scaled = numerator * 86_400_000
        for _ in 0..<digits.count { scaled /= 10 }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        let ms = NSDecimalNumber(decimal: rounded).int64Value
        guard ms >= 86_400_000 else { return (whole, ms) }
        return whole < lastSerial ? (whole + 1, ms - 86_400_000) : nil
    }

    /// The cell sheetsync writes for canonical `text`: plain text for CSV, typed for XLSX and Sheets
    /// (amounts and integers as numbers, dates as date serials, booleans as booleans).
    public static func cell(_ text: String, _ spec: FieldSpec, typed: Bool) -> Cell {
        if text.isEmpty { return .empty }
        guard typed else { return .text(text) }
        switch spec.kind {
        // A spreadsheet keeps a number as a double, exact to 15 digits: a longer value stays text.
        case .amount, .integer: return text.utf8.count(where: { $0 >= 0x30 && $0 <= 0x39 }) <= 15 ? .number(text) : .text(text)
        case .boolean: return .bool(text == FieldRule.trueText)
        case .date:
            // Spreadsheets have no date cells before 1900 (Excel keeps such dates as text, too).
            guard let d = CanonicalText.isoDate(text), d.year >= 1900 else { return .text(text) }
            return .dateSerial(String(d.spreadsheetSerial))
        default: return .text(text)
        }
    }
}

extension FieldKind {
    /// The code of a cell this kind does not read.
    var problemCode: IssueCode {
        switch self {
        case .uuid: .invalidId
        case .enumeration: .invalidChoice
        case .boolean: .invalidBoolean
        case .integer: .invalidNumber
        case .amount: .invalidAmount
        case .date: .invalidDate
        case .timestamp: .invalidTimestamp
        case .text, .freeText: .damagedRow
        }
    }
}
