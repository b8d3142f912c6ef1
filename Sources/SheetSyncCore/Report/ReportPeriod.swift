/// The days a report covers (both ends included), and how it is named.
public struct ReportPeriod: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case month, year, range
    }

    public var kind: Kind
    public var from: LocalDate
    public var to: LocalDate

    public init(kind: Kind, from: LocalDate, to: LocalDate) {
        self.kind = kind
        self.from = from
        self.to = to
    }

    /// The calendar month holding `date`.
    public static func month(of date: LocalDate) -> ReportPeriod {
        let first = LocalDate(year: date.year, month: date.month, day: 1) ?? date
        return ReportPeriod(kind: .month, from: first, to: first.adding(months: 1).adding(days: -1))
    }

    /// The calendar year holding `date`.
    public static func year(of date: LocalDate) -> ReportPeriod {
        let first = LocalDate(year: date.year, month: 1, day: 1) ?? date
        let last = LocalDate(year: date.year, month: 12, day: 31) ?? date
        return ReportPeriod(kind: .year, from: first, to: last)
    }

    /// `YYYY-MM`, or nil when the text is not one.
    public static func month(_ text: String) -> ReportPeriod? {
        guard text.utf8.count == 7, let date = LocalDate(iso: text + "-01") else { return nil }
        return month(of: date)
    }

    /// `YYYY`, or nil when the text is not one.
    public static func year(_ text: String) -> ReportPeriod? {
        guard text.utf8.count == 4, let date = LocalDate(iso: text + "-01-01") else { return nil }
        return year(of: date)
    }

    /// `2026-01`, `2026`, or `2026-01-05..2026-02-04`.
    public var label: String {
        switch kind {
        case .month: return String(from.description.prefix(7))
        case .year: return String(from.description.prefix(4))
        case .range: return "\(from)..\(to)"
        }
    }

    public var dayCount: Int { to.daysSinceEpoch - from.daysSinceEpoch + 1 }

    /// The period just before: the previous month or year, or as many days ending the day before.
    public var previous: ReportPeriod {
        switch kind {
        case .month: return .month(of: from.adding(months: -1))
        case .year: return .year(of: from.adding(days: -1))
        case .range: return ReportPeriod(kind: .range, from: from.adding(days: -dayCount), to: from.adding(days: -1))
        }
    }

    public func contains(_ date: LocalDate) -> Bool { from <= date && date <= to }
}
