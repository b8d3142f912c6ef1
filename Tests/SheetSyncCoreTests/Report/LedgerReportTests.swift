import Foundation
import Testing

@testable import SheetSyncCore

/// The report's arithmetic is exact and its periods are calendar periods.
@Suite struct LedgerReportTests {
    private func amount(_ text: String) throws -> Amount { try Amount.parse(text).get() }

    private func row(
        _ id: String, _ type: String, _ date: String, _ amount: String, _ category: String, tags: String = "",
        paid: String = "", reimbursed: String = ""
    ) -> LedgerRow {
        LedgerRow([
            .transactionId: id, .type: type, .date: date, .amount: amount, .category: category, .tagsCSV: tags,
            .note: "", .paidFlag: paid, .reimbursedFlag: reimbursed,
        ])
    }

    @Test func sumsAreExactDecimalsNotBinaryFloatingPoint() throws {
        var total = Amount.zero
        for _ in 0..<1000 { total += try amount("0.10") }
        #expect(total.description == "100.00")
        #expect((try amount("0.1") + amount("0.2")).description == "0.30")
        #expect((try amount("999.999") + amount("0.001")).description == "1000.00")
        #expect((try amount("12345678901234567890.01") + amount("0.99")).description == "12345678901234567891.00")
        // A report over a thousand expenses of 0.10 (a sum binary floating point gets wrong) totals 100.00 exactly.
        let dimes = (0..<1000).map { row("t\($0)", "expense", "2026-02-03", "0.10", "Coffee") }
        let report = LedgerReport(transactions: dimes, categories: [], period: ReportPeriod.month("2026-02"), grouping: .category)
        #expect(report.expense.description == "100.00" && report.expenseCount == 1000)
        #expect(report.groups.map { "\($0.name) \($0.total) \($0.count)" } == ["Coffee 100.00 1000"])
    }

    @Test func differencesCarryTheirSign() throws {
        #expect(Amount.difference(try amount("2500.00"), try amount("715.00")).description == "1785.00")
        #expect(Amount.difference(try amount("715"), try amount("2500")).description == "-1785.00")
        #expect(Amount.difference(try amount("10.05"), try amount("10.5")).description == "-0.45")
        #expect(Amount.difference(try amount("3"), try amount("3.00")).description == "0.00")
        #expect(Amount.difference(try amount("1000"), try amount("0.01")).signed == "+999.99")
        #expect(Amount.difference(try amount("3"), try amount("3")).signed == "0.00")
    }

    @Test func periodsAndThePeriodsBeforeThem() throws {
        let march = try #require(ReportPeriod.month("2024-03"))
        #expect((march.from.description, march.to.description) == ("2024-03-01", "2024-03-31"))
        #expect(march.previous.label == "2024-02" && march.previous.to.description == "2024-02-29")
        #expect(try #require(ReportPeriod.month("2026-01")).previous.label == "2025-12")
        #expect(try #require(ReportPeriod.year("2026")).previous.label == "2025")
        let from = try #require(LocalDate(iso: "2026-01-10")), to = try #require(LocalDate(iso: "2026-01-19"))
        let range = ReportPeriod(kind: .range, from: from, to: to)
        #expect(range.previous.label == "2025-12-31..2026-01-09")
        for bad in ["2026-13", "2026-1", "26-01", "2026-01-01", "abcd-ef"] { #expect(ReportPeriod.month(bad) == nil, "\(bad)") }
        for bad in ["26", "20261", "2026-01"] { #expect(ReportPeriod.year(bad) == nil, "\(bad)") }
    }

    @Test func totalsPerCategorySplitByTypeWithCountsAndTheTopChange() throws {
        let rows = [
            row("a", "expense", "2026-02-01", "10.10", "Food"), row("b", "expense", "2026-02-28", "5.05", "Food"),
            row("c", "income", "2026-02-15", "100", "Gifts"), row("d", "expense", "2026-02-03", "20", "Gifts"),
            row("e", "expense", "2026-01-31", "50", "Food"), row("f", "expense", "2026-03-01", "999", "Food"),
            row("g", "expense", "2026-01-05", "1", "Old"),
        ]
        let categories = [LedgerRow([.name: "Gifts", .isActive: "FALSE"]), LedgerRow([.name: "Food", .isActive: "TRUE"])]
        let report = LedgerReport(
            transactions: rows, categories: categories, period: ReportPeriod.month("2026-02"), grouping: .category)
        #expect(report.income.description == "100.00" && report.expense.description == "35.15")
        #expect(report.net.description == "64.85")
        #expect((report.incomeCount, report.expenseCount) == (1, 3))
        let groups = report.groups.map { "\($0.type) \($0.name) \($0.total) \($0.count) \($0.archived)" }
        #expect(groups == ["expense Gifts 20.00 1 true", "expense Food 15.15 2 false", "income Gifts 100.00 1 true"])
        // Income Gifts went from 0 to 100: the biggest move against January (Food 50 → 15.15 is 34.85).
        let change = try #require(report.topChange)
        #expect((change.name, change.type, change.change.signed) == ("Gifts", "income", "+100.00"))
    }

    @Test func groupingByTagCountsARowUnderEachOfItsTags() throws {
        let rows = [
            row("a", "expense", "2026-02-01", "10", "Food", tags: "food, weekly"), row("b", "expense", "2026-02-02", "1", "Food"),
            row("c", "expense", "2026-02-03", "2", "Food", tags: "weekly,weekly"),
        ]
        let report = LedgerReport(transactions: rows, categories: [], period: ReportPeriod.month("2026-02"), grouping: .tag)
        #expect(report.groups.map { "\($0.name) \($0.total) \($0.count)" } == ["weekly 12.00 2", "food 10.00 1", "(untagged) 1.00 1"])
        #expect(report.expense.description == "13.00")
    }

    @Test func openRowsOfEveryDateWithoutAPeriod() throws {
        let rows = [
            row("a", "expense", "2025-06-01", "10", "Food", paid: "unpaid"), row("b", "expense", "2026-02-02", "1", "Food", paid: "paid"),
            row("c", "expense", "2026-02-03", "2", "Food", reimbursed: "unreimbursed"),
        ]
        let unpaid = LedgerReport(transactions: rows, categories: [], period: nil, grouping: .category, filter: .unpaid)
        #expect(unpaid.rows.map(\.id) == ["a"] && unpaid.expense.description == "10.00" && unpaid.topChange == nil)
        let both = LedgerReport(transactions: rows, categories: [], period: nil, grouping: .category, filter: [.unpaid, .unreimbursed])
        #expect(both.rows.map(\.id) == ["a", "c"])
    }

    @Test func unreadableStoreRowsAreLeftOutAndNamed() throws {
        let rows = [
            row("a", "expense", "2026-02-01", "10", "Food"), row("b", "expense", "someday", "1", "Food"),
            row("c", "refund", "2026-02-01", "1", "Food"), row("d", "expense", "2026-02-01", "-1", "Food"),
        ]
        let report = LedgerReport(transactions: rows, categories: [], period: ReportPeriod.month("2026-02"), grouping: .month)
        #expect(report.unreadable == ["b", "c", "d"])
        #expect(report.groups.map { "\($0.name) \($0.total)" } == ["2026-02 10.00"])
    }

    @Test func monthsAreInCalendarOrder() throws {
        let rows = [
            row("a", "expense", "2026-01-01", "1", "Food"), row("b", "expense", "2026-02-01", "50", "Food"),
            row("c", "expense", "2026-03-01", "7", "Food"),
        ]
        let year = try #require(ReportPeriod.year("2026"))
        let report = LedgerReport(transactions: rows, categories: [], period: year, grouping: .month)
        #expect(report.groups.map(\.name) == ["2026-01", "2026-02", "2026-03"])
    }
}
