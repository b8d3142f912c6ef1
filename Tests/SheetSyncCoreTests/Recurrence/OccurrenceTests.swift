import SheetSyncCore
import Testing

@Suite struct OccurrenceTests {
    typealias T = RecurrenceTestSupport

    private func all(_ rule: RecurrenceRule, through: String, after: String? = nil) -> [LocalDate] {
        rule.occurrences(after: after.map(T.date), through: T.date(through), limit: 10_000).dates
    }

    @Test func jan31MonthlyClampsToShortMonthsWithoutDrifting() {
        #expect(
            all(T.rule("2024-01-31", .monthly), through: "2024-05-31")
                == T.dates("2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31"))
        #expect(
            all(T.rule("2025-01-31", .monthly), through: "2025-04-30")
                == T.dates("2025-01-31", "2025-02-28", "2025-03-31", "2025-04-30"))
    }

    @Test func everyTwoMonthsFromJan31LandsOnEachMonthsLastDay() {
        #expect(
            all(T.rule("2025-01-31", .monthly, every: 2), through: "2025-11-30")
                == T.dates("2025-01-31", "2025-03-31", "2025-05-31", "2025-07-31", "2025-09-30", "2025-11-30"))
    }

    @Test func feb29YearlyFallsOnFeb28InCommonYears() {
        #expect(
            all(T.rule("2024-02-29", .yearly), through: "2028-12-31")
                == T.dates("2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"))
    }

    @Test func yearlyIntervalCountsYearsFromStart() {
        #expect(
            all(T.rule("2024-02-29", .yearly, every: 3), through: "2036-03-01")
                == T.dates("2024-02-29", "2027-02-28", "2030-02-28", "2033-02-28", "2036-02-29"))
    }

    @Test func weeklyEveryTwoWeeks() {
        #expect(
            all(T.rule("2026-01-05", .weekly, every: 2), through: "2026-02-15")
                == T.dates("2026-01-05", "2026-01-19", "2026-02-02"))
    }

    @Test func dailyEveryThreeDaysAcrossMonthAndLeapDay() {
        #expect(
            all(T.rule("2024-02-26", .daily, every: 3), through: "2024-03-07")
                == T.dates("2024-02-26", "2024-02-29", "2024-03-03", "2024-03-06"))
    }

    @Test func endDateIsInclusive() {
        #expect(
            all(T.rule("2026-01-01", .daily, every: 3, until: "2026-01-10"), through: "2026-12-31")
                == T.dates("2026-01-01", "2026-01-04", "2026-01-07", "2026-01-10"))
        #expect(
            all(T.rule("2026-01-31", .monthly, until: "2026-04-29"), through: "2026-12-31")
                == T.dates("2026-01-31", "2026-02-28", "2026-03-31"))
    }

    @Test func afterIsExclusiveAndThroughInclusive() {
        let weekly = T.rule("2026-01-05", .weekly)
        #expect(all(weekly, through: "2026-01-26", after: "2026-01-12") == T.dates("2026-01-19", "2026-01-26"))
        #expect(all(weekly, through: "2026-01-25", after: "2026-01-11") == T.dates("2026-01-12", "2026-01-19"))
        #expect(all(weekly, through: "2026-01-12", after: "2026-01-12") == [])
    }

    @Test func afterBeforeStartDateStartsAtStartDate() {
        #expect(
            all(T.rule("2026-03-10", .monthly), through: "2026-04-10", after: "2020-01-01")
                == T.dates("2026-03-10", "2026-04-10"))
    }

    @Test func afterFindsClampedOccurrenceInTheSameMonth() {
        let rule = T.rule("2025-01-31", .monthly)
        #expect(all(rule, through: "2025-03-31", after: "2025-02-27") == T.dates("2025-02-28", "2025-03-31"))
        #expect(all(rule, through: "2025-03-31", after: "2025-02-28") == T.dates("2025-03-31"))
        #expect(all(rule, through: "2025-03-30", after: "2025-02-28") == [])
    }

    @Test func limitCapsAndSaysMoreRemain() {
        let rule = T.rule("2026-01-01", .daily)
        let capped = rule.occurrences(after: nil, through: T.date("2026-01-05"), limit: 3)
        #expect(capped.dates == T.dates("2026-01-01", "2026-01-02", "2026-01-03"))
        #expect(capped.capped)
        let exact = rule.occurrences(after: nil, through: T.date("2026-01-03"), limit: 3)
        #expect(exact.dates.count == 3)
        #expect(!exact.capped)
        let rest = rule.occurrences(after: capped.dates.last, through: T.date("2026-01-05"), limit: 3)
        #expect(rest.dates == T.dates("2026-01-04", "2026-01-05"))
        #expect(!rest.capped)
    }

    @Test func nothingBeforeStartOrAfterEnd() {
        #expect(all(T.rule("2026-06-01", .daily), through: "2026-05-31") == [])
        #expect(all(T.rule("2026-06-01", .daily, until: "2026-05-01"), through: "2026-12-31") == [])
    }

    @Test func intervalBelowOneIsRejected() {
        #expect(RecurrenceRule(startDate: T.date("2026-01-01"), cadence: .daily, interval: 0) == nil)
        #expect(RecurrenceRule(startDate: T.date("2026-01-01"), cadence: .weekly, interval: -2) == nil)
    }

    @Test func ruleStartedFiftyYearsAgoDailyJumpsStraightToAfter() {
        let rule = T.rule("1976-01-01", .daily)
        let result = rule.occurrences(after: T.date("2026-02-27"), through: T.date("2026-03-02"), limit: 1000)
        #expect(result.dates == T.dates("2026-02-28", "2026-03-01", "2026-03-02"))
        let monthly = T.rule("1976-01-31", .monthly)
        #expect(all(monthly, through: "2026-03-31", after: "2026-01-31") == T.dates("2026-02-28", "2026-03-31"))
    }

    @Test func hugeIntervalsAndTheLastRepresentableYearDoNotOverflow() {
        #expect(all(T.rule("2026-01-31", .yearly, every: Int.max), through: "9999-12-31") == T.dates("2026-01-31"))
        #expect(all(T.rule("2026-01-31", .weekly, every: Int.max / 2), through: "9999-12-31", after: "2026-01-31") == [])
        let tail = all(T.rule("9990-02-28", .yearly), through: "9999-12-31")
        #expect(tail.count == 10)
        #expect(tail.last == T.date("9999-02-28"))
        #expect(all(T.rule("9999-12-31", .monthly), through: "9999-12-31", after: "9999-12-31") == [])
    }
}
