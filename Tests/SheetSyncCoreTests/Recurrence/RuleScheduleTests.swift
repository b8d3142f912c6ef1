import Foundation
import SheetSyncCore
import Testing

/// `rule add --every … --on … --from …` as RecurringRules cells: the first occurrence is the first one
/// on or after `--from`, and the recurrence engine, reading those cells, gives the dates asked for.
@Suite struct RuleScheduleTests {
    typealias T = RecurrenceTestSupport

    /// The first `count` dates the engine makes from the cells `schedule` writes for `from`.
    func dates(_ schedule: RuleSchedule, from: String, count: Int = 4) -> [String] {
        let (start, last) = schedule.start(from: T.date(from))
        let rule = T.ruleRecord(
            start: start.description, cadence: schedule.cadence.rawValue, interval: String(schedule.interval),
            [.lastGeneratedDate: last?.description ?? ""])
        guard case .success(let dates) = Materializer.upcoming(rule, count: count) else { return [] }
        return dates.map(\.description)
    }

    @Test func theThirtyFirstFallsOnTheLastDayOfShorterMonthsFromAShortMonthToo() {
        let rent = RuleSchedule(cadence: .monthly, day: .ofMonth(31))
        #expect(dates(rent, from: "2026-11-05") == ["2026-11-30", "2026-12-31", "2027-01-31", "2027-02-28"])
        #expect(dates(rent, from: "2026-12-01") == ["2026-12-31", "2027-01-31", "2027-02-28", "2027-03-31"])
        // The day already passed this month: the next month.
        #expect(
            dates(RuleSchedule(cadence: .monthly, day: .ofMonth(5)), from: "2026-11-27") == [
                "2026-12-05", "2027-01-05", "2027-02-05", "2027-03-05",
            ])
        // Every two months from a short month.
        #expect(
            dates(RuleSchedule(cadence: .monthly, interval: 2, day: .ofMonth(31)), from: "2026-11-05", count: 3) == [
                "2026-11-30", "2027-01-31", "2027-03-31",
            ])
        // A start on the day itself makes no lastGeneratedDate.
        #expect(rent.start(from: T.date("2026-12-31")).lastGeneratedDate == nil)
        #expect(rent.start(from: T.date("2026-11-05")).startDate == T.date("2026-10-31"))
    }

    @Test func weeklyYearlyAndDailyRulesStartOnTheirFirstDayOnOrAfterFrom() {
        // 2026-11-27 is a Friday.
        #expect(T.date("2026-11-27").weekday == 5)
        #expect(dates(RuleSchedule(cadence: .weekly, day: .ofWeek(1)), from: "2026-11-27", count: 2) == ["2026-11-30", "2026-12-07"])
        #expect(dates(RuleSchedule(cadence: .weekly, day: .ofWeek(5)), from: "2026-11-27", count: 1) == ["2026-11-27"])
        #expect(
            dates(RuleSchedule(cadence: .yearly, day: .ofYear(month: 2, day: 29)), from: "2026-03-01", count: 3) == [
                "2027-02-28", "2028-02-29", "2029-02-28",
            ])
        #expect(dates(RuleSchedule(cadence: .daily), from: "2026-11-27", count: 2) == ["2026-11-27", "2026-11-28"])
    }

    @Test func onIsReadForItsCadenceAndAnythingElseIsNamed() throws {
        #expect(try RuleSchedule.day("31", for: .monthly).get() == .ofMonth(31))
        #expect(try RuleSchedule.day("Friday", for: .weekly).get() == .ofWeek(5))
        #expect(try RuleSchedule.day("03-15", for: .yearly).get() == .ofYear(month: 3, day: 15))
        for (text, cadence, message) in [
            ("32", Cadence.monthly, "--on '32' is not a day of the month (1–31)"),
            ("fr", .weekly, "--on 'fr' is not a weekday (mon, tue, wed, thu, fri, sat, sun)"),
            ("02-30", .yearly, "--on '02-30' is not a month and day (MM-DD, such as 03-15)"),
            ("1", .daily, "--on does not apply to a daily rule"),
        ] {
            guard case .failure(let error) = RuleSchedule.day(text, for: cadence) else {
                Issue.record("'\(text)' read for \(cadence)")
                continue
            }
            #expect(error.message == message)
        }
    }

    /// A paused rule still shows the dates it would make once resumed.
    @Test func upcomingDatesFollowLastGeneratedDateAndIgnoreIsEnabled() {
        let rule = T.ruleRecord(start: "2026-01-15", cadence: "monthly", [.isEnabled: "FALSE", .lastGeneratedDate: "2026-03-31"])
        #expect((try? Materializer.upcoming(rule, count: 2).get()) == T.dates("2026-04-15", "2026-05-15"))
    }
}
