import Foundation
import SheetSyncCore
import TestSupport
import Testing

/// Compares `RecurrenceRule.occurrences` with a deliberately naive reference on seeded random
/// rules and ranges. Set `SHEETSYNC_PROPERTY_SEED` to replay or explore other seeds.
@Suite struct OccurrencePropertyTests {
    static let caseCount = 3000

    @Test func occurrencesMatchNaiveReferenceOnRandomRules() {
        let baseSeed = ProcessInfo.processInfo.environment["SHEETSYNC_PROPERTY_SEED"].flatMap(UInt64.init) ?? 0x5EED_7529
        for index in 0..<Self.caseCount {
            let seed = baseSeed &+ UInt64(index)
            var random = SeededRandom(seed: seed)
            let sample = Sample(&random)
            let expected = sample.expected()
            let actual = sample.rule.occurrences(after: sample.after, through: sample.through, limit: sample.limit)
            guard actual.dates == expected.dates, actual.capped == expected.capped else {
                Issue.record(
                    """
                    seed \(seed) (SHEETSYNC_PROPERTY_SEED=\(baseSeed), case \(index)): \(sample) gave \
                    \(actual.dates.count) dates capped=\(actual.capped), reference \(expected.dates.count) \
                    capped=\(expected.capped); first difference at \
                    \(zip(actual.dates, expected.dates).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "the end")
                    """)
                return
            }
            // Resuming after the last date of a capped call continues the same sequence.
            if actual.capped, let last = actual.dates.last {
                let rest = sample.rule.occurrences(after: last, through: sample.through, limit: 1)
                let reference = sample.reference().filter { $0 > last }
                guard rest.dates == Array(reference.prefix(1)) else {
                    Issue.record("seed \(seed): \(sample) resumed after \(last) with \(rest.dates), reference \(reference.prefix(1))")
                    return
                }
            }
        }
    }
}

/// One random rule, range and limit.
private struct Sample: CustomStringConvertible {
    let rule: RecurrenceRule
    let after: LocalDate?
    let through: LocalDate
    let limit: Int

    init(_ random: inout SeededRandom) {
        let cadence = Cadence.allCases[random.next(below: 4)]
        let interval = random.next(below: 10) < 8 ? 1 + random.next(below: 4) : 1 + random.next(below: 40)
        let year = 1900 + random.next(below: 200)
        let month = 1 + random.next(below: 12)
        // Half the rules start on days 28–31, where clamping happens.
        let wanted = random.next(below: 2) == 0 ? 28 + random.next(below: 4) : 1 + random.next(below: 31)
        let start = NaiveCalendar.date(year, month, min(wanted, NaiveCalendar.daysInMonth(year, month)))
        // Mostly a few years of range; sometimes decades, to exercise the jump to `after`.
        let spanDays = random.next(below: 10) == 0 ? random.next(below: 20_000) : random.next(below: 1500)
        let through = start.adding(days: spanDays - random.next(below: 30))
        let endDate = random.next(below: 3) == 0 ? start.adding(days: random.next(below: 1500) - 20) : nil
        switch random.next(below: 4) {
        case 0: after = nil
        case 1: after = start.adding(days: -random.next(below: 60))
        default: after = start.adding(days: random.next(below: spanDays + 1))
        }
        guard let rule = RecurrenceRule(startDate: start, cadence: cadence, interval: interval, endDate: endDate) else {
            fatalError("interval is at least 1")
        }
        self.rule = rule
        self.through = through
        limit = random.next(below: 4) == 0 ? 1 + random.next(below: 12) : 1000
    }

    var description: String {
        "\(rule.cadence) every \(rule.interval) from \(rule.startDate) until \(rule.endDate.map(String.init(describing:)) ?? "-"), "
            + "after \(after.map(String.init(describing:)) ?? "-") through \(through) limit \(limit)"
    }

    /// Every occurrence up to `min(through, endDate)`, by the naive method for the cadence.
    func reference() -> [LocalDate] {
        let upper = rule.endDate.map { min($0, through) } ?? through
        switch rule.cadence {
        case .daily: return NaiveCalendar.walk(from: rule.startDate, every: rule.interval, through: upper)
        case .weekly: return NaiveCalendar.walk(from: rule.startDate, every: 7 * rule.interval, through: upper)
        case .monthly: return NaiveCalendar.months(from: rule.startDate, every: rule.interval, through: upper)
        case .yearly: return NaiveCalendar.months(from: rule.startDate, every: 12 * rule.interval, through: upper)
        }
    }

    func expected() -> (dates: [LocalDate], capped: Bool) {
        let due = reference().filter { after == nil || $0 > after! }
        return (Array(due.prefix(limit)), due.count > limit)
    }
}

/// Calendar arithmetic written the slow, obvious way, independent of `LocalDate`'s algorithms.
private enum NaiveCalendar {
    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        let leap = year % 400 == 0 || (year % 4 == 0 && year % 100 != 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        guard let date = LocalDate(year: year, month: month, day: day) else { fatalError("\(year)-\(month)-\(day)") }
        return date
    }

    /// Steps one day at a time from `start`, keeping every `step`-th day.
    static func walk(from start: LocalDate, every step: Int, through upper: LocalDate) -> [LocalDate] {
        var (y, m, d) = (start.year, start.month, start.day)
        var result: [LocalDate] = []
        var count = 0
        while true {
            let today = date(y, m, d)
            if today > upper { return result }
            if count % step == 0 { result.append(today) }
            count += 1
            d += 1
            if d > daysInMonth(y, m) { (d, m) = (1, m + 1) }
            if m > 12 { (m, y) = (1, y + 1) }
        }
    }

    /// Year and month numbers advanced by `n·step` months, then the day clamped.
    static func months(from start: LocalDate, every step: Int, through upper: LocalDate) -> [LocalDate] {
        var result: [LocalDate] = []
        var n = 0
        while true {
            let zeroBased = start.month - 1 + n * step
            let year = start.year + zeroBased / 12
            let month = zeroBased % 12 + 1
            if year > 9999 { return result }
            let candidate = date(year, month, min(start.day, daysInMonth(year, month)))
            if candidate > upper { return result }
            result.append(candidate)
            n += 1
        }
    }
}
