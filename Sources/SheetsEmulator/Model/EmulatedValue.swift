import Foundation

/// What one spreadsheet cell holds, as Google stores it.
public enum EmulatedValue: Sendable, Equatable, Hashable, Codable {
    case empty
    /// Numbers, dates (serial days since 1899-12-30) and times are all doubles in Sheets.
    case number(Double)
    case string(String)
    case bool(Bool)
    /// A formula, kept as typed; the emulator does not calculate formulas.
    case formula(String)

    public var isEmpty: Bool { self == .empty }
}

/// A cell's number format (`userEnteredFormat.numberFormat`).
public struct EmulatedNumberFormat: Sendable, Equatable, Hashable, Codable {
    /// `NUMBER`, `DATE`, `TIME`, `DATE_TIME`, `TEXT`, `CURRENCY`, `PERCENT`, `SCIENTIFIC`.
    public var type: String
    public var pattern: String

    public init(type: String, pattern: String) {
        self.type = type
        self.pattern = pattern
    }

    public static let isoDate = EmulatedNumberFormat(type: "DATE", pattern: "yyyy-mm-dd")

    var isDateLike: Bool { ["DATE", "TIME", "DATE_TIME"].contains(type) }
}

/// One cell: its value and the format a person or a request gave it.
public struct EmulatedCell: Sendable, Equatable, Hashable, Codable {
    public var value: EmulatedValue
    public var numberFormat: EmulatedNumberFormat?

    public init(_ value: EmulatedValue = .empty, numberFormat: EmulatedNumberFormat? = nil) {
        self.value = value
        self.numberFormat = numberFormat
    }

    public static let blank = EmulatedCell()

    /// Neither a value nor a format: such cells are trimmed from the end of a row.
    var isBlank: Bool { value.isEmpty && numberFormat == nil }
}

extension EmulatedCell {
    /// The cell a person gets by typing `text` into a cell (Sheets' USER_ENTERED parsing).
    ///
    /// `2026-01-15` and `1/15/2026` become date serials under a date format, `12.50` the number 12.5,
    /// `TRUE`/`FALSE` booleans, `=...` a formula, a leading `'` forces text; anything else is text.
    /// A cell that already has a number format keeps it when a plain number is typed.
    public static func userEntered(_ text: String, keeping existing: EmulatedNumberFormat? = nil) -> EmulatedCell {
        if text.isEmpty { return EmulatedCell(.empty, numberFormat: existing) }
        if text.hasPrefix("'") { return EmulatedCell(.string(String(text.dropFirst())), numberFormat: existing) }
        if existing?.type == "TEXT" { return EmulatedCell(.string(text), numberFormat: existing) }
        if text.hasPrefix("="), text.count > 1 { return EmulatedCell(.formula(text), numberFormat: existing) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.uppercased() {
        case "TRUE": return EmulatedCell(.bool(true), numberFormat: existing)
        case "FALSE": return EmulatedCell(.bool(false), numberFormat: existing)
        default: break
        }
        if let (serial, pattern) = DateSerial.parseTypedDate(trimmed) {
            let format = existing.flatMap { $0.isDateLike ? $0 : nil } ?? EmulatedNumberFormat(type: "DATE", pattern: pattern)
            return EmulatedCell(.number(serial), numberFormat: format)
        }
        if let number = parseTypedNumber(trimmed) {
            return EmulatedCell(.number(number.value), numberFormat: existing ?? number.impliedFormat)
        }
        return EmulatedCell(.string(text), numberFormat: existing)
    }

    /// Plain decimals, thousands separators, a leading `$` or a trailing `%` as Sheets accepts them.
    private static func parseTypedNumber(_ text: String) -> (value: Double, impliedFormat: EmulatedNumberFormat?)? {
        var body = Substring(text)
        var negative = false
        if body.hasPrefix("-") {
            negative = true
            body = body.dropFirst()
        }
        var format: EmulatedNumberFormat?
        var scale = 1.0
        if body.hasPrefix("$") {
            body = body.dropFirst()
            format = EmulatedNumberFormat(type: "CURRENCY", pattern: "\"$\"#,##0.00")
        } else if body.hasSuffix("%") {
            body = body.dropLast()
            scale = 0.01
            format = EmulatedNumberFormat(type: "PERCENT", pattern: "0.00%")
        }
        let groups = body.split(separator: ".", omittingEmptySubsequences: false)
        guard !body.isEmpty, groups.count <= 2 else { return nil }
        let integerPart = groups[0]
        if integerPart.contains(",") {
            let parts = integerPart.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.first.map({ (1...3).contains($0.count) }) == true,
                parts.dropFirst().allSatisfy({ $0.count == 3 })
            else { return nil }
        }
        let digits = body.filter { $0 != "," }
        guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-") }),
            digits.first.map({ $0.isNumber || $0 == "." }) == true,
            let value = Double(digits)
        else { return nil }
        return ((negative ? -value : value) * scale, format)
    }
}
