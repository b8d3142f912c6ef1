/// When a rule typed on the command line (`rule add --every month --on 31 --from D`) occurs, as the
/// RecurringRules cells that say it: `startDate`, and a `lastGeneratedDate` when the start must lie
/// before `from`.
///
/// The recurrence itself is `RecurrenceRule`'s: a monthly or yearly rule repeats `startDate`'s day,
/// so "on the 31st" needs a `startDate` on a 31st. When the first month on or after `from` is shorter
/// (from November 5: November 30), the start is the last earlier month of the rule that has the day
/// (October 31) and `lastGeneratedDate` is the day before `from`, so nothing before `from` is made and
/// the first occurrence is the clamped one. Weekly rules start on the first such weekday on or after
/// `from`; daily rules, and rules without `--on`, on `from` itself.
public struct RuleSchedule: Hashable, Sendable {
    /// The day a rule falls on within its period.
    public enum Day: Hashable, Sendable {
        /// A day of the month, 1–31 (monthly).
        case ofMonth(Int)
        /// Monday 1 … Sunday 7 (weekly).
        case ofWeek(Int)
        /// A month and day, such as 03-15 (yearly).
        case ofYear(month: Int, day: Int)
    }

    public var cadence: Cadence
    public var interval: Int
    public var day: Day?

    public init(cadence: Cadence, interval: Int = 1, day: Day? = nil) {
        self.cadence = cadence
        self.interval = interval
        self.day = day
    }

    /// Reads `--on` for `cadence`: a day of the month (`31`), a weekday (`mon`, `Monday`), or a
    /// month and day (`03-15`); the message says what is expected when it is none of these.
    public static func day(_ text: String, for cadence: Cadence) -> Result<Day, RuleScheduleError> {
        let t = text.trimmingSpaces().lowercased()
        switch cadence {
        case .daily:
            return .failure(RuleScheduleError("--on does not apply to a daily rule"))
        case .monthly:
            guard let d = Int(t), (1...31).contains(d) else {
                return .failure(RuleScheduleError("--on '\(text)' is not a day of the month (1–31)"))
            }
            return .success(.ofMonth(d))
        case .weekly:
            let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            guard t.count >= 3, let index = names.firstIndex(where: { $0.hasPrefix(t) }) else {
                return .failure(RuleScheduleError("--on '\(text)' is not a weekday (mon, tue, wed, thu, fri, sat, sun)"))
            }
            return .success(.ofWeek(index + 1))
        case .yearly:
            let parts = t.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let m = Int(parts[0]), let d = Int(parts[1]), (1...12).contains(m),
                d >= 1, d <= LocalDate.daysInMonth(year: 2000, month: m)
            else {
                return .failure(RuleScheduleError("--on '\(text)' is not a month and day (MM-DD, such as 03-15)"))
            }
            return .success(.ofYear(month: m, day: d))
        }
    }

    /// The rule's `startDate` and `lastGeneratedDate` so that its first occurrence is the first one
    /// on or after `from`.
    public func start(from: LocalDate) -> (startDate: LocalDate, lastGeneratedDate: LocalDate?) {
        switch (cadence, day) {
        case (.weekly, .ofWeek(let weekday)?):
            return (from.adding(days: (weekday - from.weekday + 7) % 7), nil)
        case (.monthly, .ofMonth(let d)?):
            return anchored(from: from, months: interval, month: nil, day: d)
        case (.yearly, .ofYear(let m, let d)?):
            return anchored(from: from, months: interval * 12, month: m, day: d)
        default:
            return (from, nil)
        }
    }

    /// A months-based rule on `day` (of `month` for a yearly one): the first occurrence on or after
    /// `from`, and the start that gives it.
    private func anchored(from: LocalDate, months step: Int, month: Int?, day: Int) -> (LocalDate, LocalDate?) {
        func clamped(_ y: Int, _ m: Int) -> LocalDate? {
            LocalDate(year: y, month: m, day: min(day, LocalDate.daysInMonth(year: y, month: m)))
        }
        var first = clamped(from.year, month ?? from.month)
        if let f = first, f < from {
            // The day has passed in `from`'s month (or year): the next month (or year).
            let next = f.adding(months: month == nil ? 1 : 12)
            first = clamped(next.year, next.month)
        }
        guard let first else { return (from, nil) }
        if first.day == day { return (first, nil) }
        // The month is shorter than `day`: start on an earlier month of the rule that has it, and
        // count everything up to the day before `from` as done.
        let through = from.adding(days: -1)
        for k in 1...48 {
            let earlier = first.adding(months: -k * step)
            guard let start = LocalDate(year: earlier.year, month: earlier.month, day: day),
                let rule = RecurrenceRule(startDate: start, cadence: cadence, interval: interval)
            else { continue }
            // The engine decides: the start is right only when its next occurrence is `first`.
            if rule.occurrences(after: through, through: first, limit: 1).dates.first == first { return (start, through) }
        }
        return (first, nil)
    }
}

/// Why a rule typed on the command line cannot be read.
public struct RuleScheduleError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension LocalDate {
    /// Monday 1 … Sunday 7 (ISO 8601); 1970-01-01 was a Thursday.
    public var weekday: Int { ((daysSinceEpoch % 7 + 7 + 3) % 7) + 1 }
}
