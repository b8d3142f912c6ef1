/// How often a recurring rule repeats (`RecurringRules.cadence`).
public enum Cadence: String, CaseIterable, Hashable, Sendable {
    case daily, weekly, monthly, yearly
}

/// The dates on which a recurring rule occurs.
///
/// Occurrence n (n = 0, 1, 2, …) is computed directly from `startDate`, never from occurrence
/// n − 1, so clamping to a short month never drifts the day:
/// - `daily` / `weekly`: `startDate` + n·`interval` days / weeks;
/// - `monthly` / `yearly`: the month n·`interval` months / years after `startDate`'s month, on
///   `startDate`'s day, or on that month's last day when the month is shorter.
///
/// So Jan 31 monthly gives Feb 28 (29 in leap years), Mar 31, Apr 30; Jan 31 every 2 months gives
/// Mar 31, May 31, Jul 31, Sep 30; Feb 29 yearly gives Feb 28 in common years. In iCalendar terms
/// this is RFC 5545 `FREQ=…;INTERVAL=…` from `DTSTART=startDate` with RFC 7529's
/// `RSCALE=GREGORIAN;SKIP=BACKWARD` (a day missing from a month moves back to its last day,
/// rather than the RFC 5545 default of skipping the month). `endDate`, when set, is inclusive.
public struct RecurrenceRule: Hashable, Sendable {
    public let startDate: LocalDate
    public let cadence: Cadence
    /// Repeat every `interval` days, weeks, months or years; at least 1.
    public let interval: Int
    /// The last day an occurrence may fall on (inclusive); nil for no end.
    public let endDate: LocalDate?

    /// A rule, or nil when `interval` is less than 1.
    public init?(startDate: LocalDate, cadence: Cadence, interval: Int, endDate: LocalDate? = nil) {
        guard interval >= 1 else { return nil }
        self.startDate = startDate
        self.cadence = cadence
        self.interval = interval
        self.endDate = endDate
    }

    /// The occurrences strictly after `after` (all from `startDate` when nil) and on or before
    /// both `through` and `endDate`, in order, at most `limit` of them; `capped` says that more
    /// occurrences remain in that range.
    ///
    /// The work is proportional to the number of dates returned, not to how long ago the rule
    /// started: the first occurrence after `after` is found arithmetically.
    public func occurrences(after: LocalDate?, through: LocalDate, limit: Int) -> (dates: [LocalDate], capped: Bool) {
        let upper = endDate.map { min($0, through) } ?? through
        var n = firstIndex(after: after)
        var dates: [LocalDate] = []
        while let date = occurrence(n, notAfter: upper) {
            if dates.count >= limit { return (dates, true) }
            dates.append(date)
            n += 1
        }
        return (dates, false)
    }

    /// The calendar unit one step of the rule moves in.
    private enum Unit { case days, months }

    /// The unit and the size of one step in it, or a nil size when the step overflows `Int`
    /// (then only occurrence 0 exists within any representable date).
    private var step: (unit: Unit, size: Int?) {
        switch cadence {
        case .daily: return (.days, interval)
        case .weekly: return (.days, multiply(interval, 7))
        case .monthly: return (.months, interval)
        case .yearly: return (.months, multiply(interval, 12))
        }
    }

    /// Occurrence `n`, or nil when it falls after `upper` (which also keeps it a valid date).
    private func occurrence(_ n: Int, notAfter upper: LocalDate) -> LocalDate? {
        guard startDate <= upper else { return nil }
        let (unit, size) = step
        let offset = n == 0 ? 0 : size.flatMap { multiply($0, n) }
        guard let offset else { return nil }
        switch unit {
        case .days:
            guard offset <= upper.daysSinceEpoch - startDate.daysSinceEpoch else { return nil }
            return startDate.adding(days: offset)
        case .months:
            guard offset <= upper.monthIndex - startDate.monthIndex else { return nil }
            let date = startDate.adding(months: offset)
            return date <= upper ? date : nil
        }
    }

    /// The index of the first occurrence strictly after `after`.
    private func firstIndex(after: LocalDate?) -> Int {
        guard let after, after >= startDate else { return 0 }
        guard let size = step.size else { return 1 }
        switch step.unit {
        case .days:
            return (after.daysSinceEpoch - startDate.daysSinceEpoch) / size + 1
        case .months:
            // Occurrence n lies in or before `after`'s month; it is the last one not after
            // `after` unless clamping put it later in that same month.
            let n = (after.monthIndex - startDate.monthIndex) / size
            return occurrence(n, notAfter: after) == nil ? n : n + 1
        }
    }

    private func multiply(_ a: Int, _ b: Int) -> Int? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : product
    }
}

extension LocalDate {
    /// Months since January of year 0, so month differences are plain subtraction.
    var monthIndex: Int { year * 12 + month - 1 }
}
