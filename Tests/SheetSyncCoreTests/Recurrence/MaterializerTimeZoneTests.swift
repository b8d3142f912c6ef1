import Foundation
import SheetSyncCore
import Testing

/// Instances are stamped at 00:00 of their date in the dataset's time zone, whatever its offset.
@Suite struct MaterializerTimeZoneTests {
    typealias T = RecurrenceTestSupport

    private func stamps(from start: String, through: String, in zone: String) -> [String] {
        let rule = T.ruleRecord(start: start, cadence: "daily")
        let plan = Materializer.plan(
            rules: [rule], existingTransactionIds: [], through: T.date(through), timeZone: T.zone(zone))
        #expect(plan.newTransactions.allSatisfy { $0[.createdAt] == $0[.lastModifiedAt] })
        return plan.newTransactions.map { $0[.createdAt] }
    }

    @Test func newYorkMidnightAcrossSpringForward() {
        #expect(
            stamps(from: "2026-03-07", through: "2026-03-09", in: "America/New_York") == [
                "2026-03-07T05:00:00.000Z", "2026-03-08T05:00:00.000Z", "2026-03-09T04:00:00.000Z",
            ])
    }

    @Test func newYorkMidnightAcrossFallBack() {
        #expect(
            stamps(from: "2026-10-31", through: "2026-11-02", in: "America/New_York") == [
                "2026-10-31T04:00:00.000Z", "2026-11-01T04:00:00.000Z", "2026-11-02T05:00:00.000Z",
            ])
    }

    @Test func kiritimatiMidnightIsTheUTCDayBefore() {
        #expect(stamps(from: "2026-01-01", through: "2026-01-01", in: "Pacific/Kiritimati") == ["2025-12-31T10:00:00.000Z"])
    }

    @Test func kolkataMidnightKeepsTheHalfHourOffset() {
        #expect(stamps(from: "2026-01-01", through: "2026-01-01", in: "Asia/Kolkata") == ["2025-12-31T18:30:00.000Z"])
    }

    @Test func idsDoNotDependOnTheTimeZone() {
        let rule = T.ruleRecord(start: "2026-01-01", cadence: "weekly")
        let ids = ["UTC", "Pacific/Kiritimati", "America/New_York"].map { zone in
            Materializer.plan(rules: [rule], existingTransactionIds: [], through: T.date("2026-02-01"), timeZone: T.zone(zone))
                .newTransactions.map { $0[.transactionId] }
        }
        #expect(ids[0].count == 5)
        #expect(ids[0] == ids[1] && ids[1] == ids[2])
    }
}
