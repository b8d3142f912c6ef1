/// How the people of a ledger type dates and amounts by hand: which of `3/4/2026`'s numbers is
/// the month, and whether `1,234` has a thousands or a decimal comma.
///
/// Only text cells typed the local way depend on it: ISO dates (`2026-03-04`), a four-digit year
/// first, date and number cells, and what sheetsync writes read the same under every setting. A
/// text the setting does not make unambiguous is refused with a hint, never guessed (docs/tabs.md).
public struct LocalForms: Hashable, Sendable {
    /// The order of day, month and year in a date whose year comes last.
    public enum DateOrder: String, CaseIterable, Sendable {
        /// `26/11/2026`, `26.11.2026`, `26-11-2026`: day first.
        case dmy
        /// `11/26/2026`: month first, with slashes (the form US spreadsheets and Google Sheets write).
        case mdy
        /// Year first only: a date with the year last is refused as ambiguous.
        case ymd
    }

    /// The decimal mark of amounts typed as text.
    public enum DecimalSeparator: String, CaseIterable, Sendable {
        /// `1,234.50`: a point, commas group thousands.
        case point = "."
        /// `1.234,50`: a comma, points group thousands.
        case comma = ","
    }

    public var dateOrder: DateOrder
    public var decimalSeparator: DecimalSeparator

    public init(dateOrder: DateOrder, decimalSeparator: DecimalSeparator) {
        self.dateOrder = dateOrder
        self.decimalSeparator = decimalSeparator
    }

    /// What a ledger reads without the settings: month first and a decimal point, as sheetsync
    /// always read them.
    public static let standard = LocalForms(dateOrder: .mdy, decimalSeparator: .point)
}

extension LocalForms.DateOrder {
    /// Year, month and day of a date typed as three numbers (each with its count of digits) with
    /// `separator` between them (`-`, `/` or `.`), before checking that the day exists; nil when the
    /// order does not read that shape. The one rule both the tolerant and the byte-level date
    /// readers follow.
    func fields(
        _ first: (value: Int, digits: Int), _ second: (value: Int, digits: Int), _ third: (value: Int, digits: Int),
        separator: UInt8
    ) -> (year: Int, month: Int, day: Int)? {
        if first.digits == 4 { return (first.value, second.value, third.value) }
        guard third.digits == 4, first.digits <= 2, second.digits <= 2 else { return nil }
        switch self {
        case .dmy: return (third.value, second.value, first.value)
        // Day first with points or dashes is the European way: month first reads slashes only.
        case .mdy: return separator == UInt8(ascii: "/") ? (third.value, first.value, second.value) : nil
        case .ymd: return nil
        }
    }

    /// How a year-last date reads under this order, for messages.
    public var words: String {
        switch self {
        case .dmy: return "day first"
        case .mdy: return "month first"
        case .ymd: return "year first"
        }
    }
}
