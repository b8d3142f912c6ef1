import Foundation
import SheetSyncCore
import Testing

@Suite struct MaterializerTests {
    typealias T = RecurrenceTestSupport

    private func plan(
        _ rules: [LedgerRow], existing: Set<String> = [], through: String, zone: TimeZone = T.utc, limit: Int = 1000
    ) -> MaterializePlan {
        Materializer.plan(
            rules: rules, existingTransactionIds: existing, through: T.date(through), timeZone: zone, limitPerRule: limit)
    }

    @Test func instanceCopiesTheRuleAndSetsEveryTransactionsField() {
        let result = plan([T.ruleRecord(start: "2026-01-31", cadence: "monthly")], through: "2026-02-28")
        #expect(result.newTransactions.map { $0[.date] } == ["2026-01-31", "2026-02-28"])
        let feb = result.newTransactions[1]
        #expect(
            feb.fields == [
                "transactionId": "59f4198d-75c9-5ece-aec9-00b5c35de262",
                "type": "expense",
                "date": "2026-02-28",
                "year": "2026",
                "month": "2",
                "amount": "12.50",
                "category": "Rent",
                "tagsCSV": "home, monthly",
                "note": "=HYPERLINK(\"x\")  kept verbatim ",
                "paidFlag": "",
                "reimbursedFlag": "",
                "recurringRuleId": T.ruleId,
                "createdAt": "2026-02-28T00:00:00.000Z",
                "lastModifiedAt": "2026-02-28T00:00:00.000Z",
            ])
        #expect(Set(feb.fields.keys) == Set(TabSchema.transactions.fieldNames))
    }

    /// An occurrence that has a transaction of its rule on its date under another id (typed by hand,
    /// or made before `lastGeneratedDate` was kept) is done: not made twice, and the rule still advances.
    @Test func occurrenceWithATransactionUnderAnotherIdIsNotMadeAgain() {
        let rule = T.ruleRecord(start: "2026-01-31", cadence: "monthly")
        let result = Materializer.plan(
            rules: [rule], existingTransactionIds: ["aaaaaaaa-0000-4000-8000-000000000001"],
            existingOccurrences: [Materializer.occurrence(ruleId: T.ruleId.uppercased(), date: "2026-01-31")],
            through: T.date("2026-02-28"), timeZone: T.utc)
        #expect(result.newTransactions.map { $0[.date] } == ["2026-02-28"])
        #expect(result.outcomes.first?.alreadyPresent == 1)
        #expect(result.updatedRules.first?[.lastGeneratedDate] == "2026-02-28")
    }

    @Test func sameInputsGiveIdenticalRecordsOnEveryRun() {
        let rules = [
            T.ruleRecord(start: "2025-01-31", cadence: "monthly", interval: "2"),
            T.ruleRecord(id: "0b7e4c3a-2f1d-4e5c-9a8b-7c6d5e4f3a2b", start: "2025-06-01", cadence: "weekly", [.type: "income"]),
        ]
        let first = plan(rules, through: "2026-03-01", zone: T.zone("America/New_York"))
        let second = plan(rules, through: "2026-03-01", zone: T.zone("America/New_York"))
        #expect(first == second)
        #expect(first.newTransactions.count == 7 + 40)
        #expect(Set(first.newTransactions.map { $0[.transactionId] }).count == first.newTransactions.count)
    }

    @Test func progressAdvancesToThroughWhenEverythingDueWasCreated() {
        let result = plan([T.ruleRecord(start: "2026-01-05", cadence: "weekly")], through: "2026-01-21")
        #expect(result.newTransactions.map { $0[.date] } == ["2026-01-05", "2026-01-12", "2026-01-19"])
        #expect(result.lastGeneratedDates == [T.ruleId: T.date("2026-01-21")])
        #expect(result.updatedRules.map { $0[.lastGeneratedDate] } == ["2026-01-21"])
        #expect(result.cappedRuleIds.isEmpty)
    }

    @Test func progressStopsAtEndDateWhenItIsEarlierThanThrough() {
        let rule = T.ruleRecord(start: "2026-01-01", cadence: "daily", [.endDate: "2026-01-03"])
        let result = plan([rule], through: "2026-02-01")
        #expect(result.newTransactions.map { $0[.date] } == ["2026-01-01", "2026-01-02", "2026-01-03"])
        #expect(result.lastGeneratedDates[T.ruleId] == T.date("2026-01-03"))
    }

    @Test func onlyOccurrencesAfterLastGeneratedDateAreCreated() {
        let rule = T.ruleRecord(start: "2026-01-01", cadence: "monthly", [.lastGeneratedDate: "2026-02-01"])
        let result = plan([rule], through: "2026-04-15")
        #expect(result.newTransactions.map { $0[.date] } == ["2026-03-01", "2026-04-01"])
    }

    @Test func ruleWithNothingDueIsLeftUnchanged() {
        let caughtUp = T.ruleRecord(start: "2026-01-01", cadence: "monthly", [.lastGeneratedDate: "2026-03-10"])
        let future = T.ruleRecord(id: "0b7e4c3a-2f1d-4e5c-9a8b-7c6d5e4f3a2b", start: "2027-01-01", cadence: "daily")
        let result = plan([caughtUp, future], through: "2026-03-31")
        #expect(result.writesNothing)
        #expect(result.outcomes.map(\.newLastGeneratedDate) == [nil, nil])
        #expect(result.outcomes.map(\.created) == [0, 0])
    }

    @Test func editedStartDateDoesNotRecreateAlreadyProcessedPeriod() {
        let first = plan([T.ruleRecord(start: "2026-01-01", cadence: "monthly")], through: "2026-03-10")
        var edited = first.updatedRules[0]
        edited[.startDate] = "2026-01-05"
        let second = plan([edited], through: "2026-04-30")
        #expect(second.newTransactions.map { $0[.date] } == ["2026-04-05"])
    }

    @Test func capsAtLimitThenContinuesOnTheNextRun() {
        var rule = T.ruleRecord(start: "2020-01-01", cadence: "daily")
        let first = plan([rule], through: "2026-12-31")
        #expect(first.newTransactions.count == 1000)
        #expect(first.cappedRuleIds == [T.ruleId])
        #expect(first.lastGeneratedDates[T.ruleId] == T.date("2022-09-26"))
        var created = first.newTransactions
        var runs = 1
        rule = first.updatedRules[0]
        while true {
            let next = plan([rule], existing: Set(created.map { $0[.transactionId] }), through: "2026-12-31")
            guard let updated = next.updatedRules.first else { break }
            created += next.newTransactions
            rule = updated
            runs += 1
            if next.cappedRuleIds.isEmpty { break }
        }
        #expect(runs == 3)
        #expect(created.count == 2557)
        #expect(Set(created.map { $0[.transactionId] }).count == 2557)
        #expect(created.last?[.date] == "2026-12-31")
        #expect(rule[.lastGeneratedDate] == "2026-12-31")
    }

    @Test func existingInstancesAreNotCreatedAgainButStillAdvanceProgress() {
        let rule = T.ruleRecord(start: "2026-01-01", cadence: "monthly")
        let fresh = plan([rule], through: "2026-03-15")
        let janId = Materializer.instanceId(ruleId: T.ruleId, date: T.date("2026-01-01"))
        let partial = plan([rule], existing: [janId], through: "2026-03-15")
        #expect(partial.newTransactions.map { $0[.date] } == ["2026-02-01", "2026-03-01"])
        #expect(partial.outcomes.map(\.alreadyPresent) == [1])
        #expect(partial.updatedRules == fresh.updatedRules)
        let all = plan([rule], existing: Set(fresh.newTransactions.map { $0[.transactionId] }), through: "2026-03-15")
        #expect(all.newTransactions.isEmpty)
        #expect(all.updatedRules == fresh.updatedRules)
    }

    @Test func duplicatedRuleRowDoesNotDuplicateInstances() {
        let rule = T.ruleRecord(start: "2026-01-01", cadence: "monthly")
        let result = plan([rule, rule], through: "2026-02-01")
        #expect(result.newTransactions.count == 2)
        #expect(result.outcomes.map(\.alreadyPresent) == [0, 2])
    }

    @Test func disabledRuleCreatesNothingAndIsNotRewritten() {
        let rule = T.ruleRecord(start: "2026-01-01", cadence: "daily", [.isEnabled: "FALSE", .interval: "0"])
        let result = plan([rule], through: "2026-02-01")
        #expect(result.writesNothing)
        #expect(result.disabledRuleIds == [T.ruleId])
        #expect(result.problems.isEmpty)
        #expect(result.outcomes.isEmpty)
    }

    @Test func unreadableRulesAreReportedAndOthersStillRun() {
        let good = T.ruleRecord(start: "2026-01-01", cadence: "monthly")
        let other = "0b7e4c3a-2f1d-4e5c-9a8b-7c6d5e4f3a2b"
        let rules = [
            T.ruleRecord(id: other, start: "2026-01-01", cadence: "monthly", interval: "0"),
            T.ruleRecord(id: other, start: "2026-01-01", cadence: "fortnightly"),
            T.ruleRecord(id: "rule-7", start: "2026-01-01", cadence: "daily"),
            T.ruleRecord(id: other, start: "2026-13-01", cadence: "daily"),
            T.ruleRecord(id: other, start: "2026-01-01", cadence: "daily", [.amount: "-3"]),
            good,
        ]
        let result = plan(rules, through: "2026-01-01")
        #expect(result.problems.map(\.field) == ["interval", "cadence", "recurringRuleId", "startDate", "amount"])
        #expect(
            result.problems[0].description
                == "recurring rule '\(other)' skipped: interval '0' is not a whole number of 1 or more")
        #expect(result.problems[2].message == "recurringRuleId 'rule-7' is not a UUID")
        #expect(result.newTransactions.count == 1)
    }

    @Test func ruleLastModifiedAtBecomesTheNewestInstanceTimestampOrOneMillisecondPastItsOwn() {
        let old = T.ruleRecord(start: "2026-01-01", cadence: "monthly", [.lastModifiedAt: "2025-12-01T09:00:00.000Z"])
        #expect(plan([old], through: "2026-03-15").updatedRules[0][.lastModifiedAt] == "2026-03-01T00:00:00.000Z")
        let recent = T.ruleRecord(start: "2026-01-01", cadence: "monthly", [.lastModifiedAt: "2026-03-10T12:34:56.789Z"])
        let updated = plan([recent], through: "2026-03-15").updatedRules[0]
        #expect(updated[.lastModifiedAt] == "2026-03-10T12:34:56.790Z")
        var expected = recent
        expected[.lastGeneratedDate] = "2026-03-15"
        expected[.lastModifiedAt] = "2026-03-10T12:34:56.790Z"  // one millisecond on: the row visibly changed
        #expect(updated == expected)
    }
}
