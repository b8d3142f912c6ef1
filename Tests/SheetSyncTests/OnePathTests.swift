import Foundation
import SheetSync
import SheetValues
import Testing
import Workbook

@testable import SheetSyncCore

/// The fast ways a check and a first pull take (`PlanStrategy`: `.count`, `.loadPlain`, `.planWhole`)
/// give exactly the general path's (`.reconcileEveryKey`) report, store and workbook on ledgers of the
/// three shapes people have (`LedgerShape`: canonical, as typed, with broken rows); and a tab with
/// rows that are not plain still takes its plain rows the fast way, only the others and the rows that
/// share their keys going the ordinary way.
@Suite struct OnePathTests {
    static let now = PlainLoadTests.now
    static let transactions = 600
    static let strategies: [PlanStrategy] = [.count, .loadPlain, .planWhole]

    /// The tables a CSV workbook of `book` reads as (the bytes `PlainLoadTests.write` writes).
    static func tables(_ book: PlainLoadTests.Book) throws -> [Tab: SheetValues.Table] {
        var tables: [Tab: SheetValues.Table] = [:]
        for (tab, rows) in book {
            let text = rows.map { $0.map(PlainLoadTests.field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
            tables[tab] = try CSVReader.parse(Array(text.utf8), source: "\(tab.rawValue).csv").table
        }
        return tables
    }

    /// Only the broken rows, and the rows whose id a broken row copied, go the ordinary way: a check
    /// counts the rest on their bytes, a first pull loads them as read.
    @Test(arguments: LedgerShape.allCases)
    func thePlainRowsOfEveryShapeTakeTheFastWay(_ shape: LedgerShape) throws {
        let (book, broken) = try shape.book(transactions: Self.transactions)
        #expect((broken > 0) == (shape == .dirty))
        let tables = try Self.tables(book)
        let plain = Self.transactions - 2 * broken
        let pull = SyncPlanner(purpose: .sync(.pull), now: Self.now, strategy: .loadPlain) { "" }.plan(
            workbook: tables, ledger: LedgerState(rows: [:], base: [:]))
        let loaded = pull.tabs.first { $0.tab == .transactions }?.load?.count ?? 0
        #expect(loaded >= plain, "loaded as read: \(loaded) of \(Self.transactions)")
        let receipts = pull.tabs.first { $0.tab == .receipts }?.load?.count ?? 0
        #expect(receipts >= (book[.receipts]?.count ?? 0) - 1 - 2 * broken - 1, "receipts loaded as read: \(receipts)")
        let check = WorkbookCheck.plan(tables, now: Self.now, newID: { "" }, strategy: .count)
        let planned = check.plan.tabs.first { $0.tab == .transactions }?.result.count ?? 0
        let counted = (check.loadable[.transactions] ?? 0) - planned
        #expect(counted >= plain, "counted on the bytes: \(counted) of \(Self.transactions)")
    }

    /// A check each way: the same errors, held guards, and per tab the same rows that load, rejections
    /// (code, row, cells), notices and counts.
    @Test(arguments: LedgerShape.allCases)
    func aCheckEachWayReportsAsTheGeneralPath(_ shape: LedgerShape) throws {
        let tables = try Self.tables(try shape.book(transactions: Self.transactions).book)
        let general = Self.checked(tables, .reconcileEveryKey)
        #expect((general.tabs[.transactions]?.rejections.isEmpty ?? true) == (shape != .dirty))
        for strategy in Self.strategies {
            let fast = Self.checked(tables, strategy)
            #expect(fast == general, "\(shape) \(strategy)")
            for (tab, expected) in general.tabs where fast.tabs[tab] != expected {
                let got = fast.tabs[tab].map { Self.summary($0) } ?? "none"
                Issue.record("\(shape) \(strategy) \(tab): \(got) vs \(Self.summary(expected))")
            }
        }
    }

    /// A first pull (and its dry run) each way: the same store tables, report and workbook files.
    @Test(arguments: LedgerShape.allCases)
    func aFirstPullEachWayLeavesTheGeneralPathsStore(_ shape: LedgerShape) async throws {
        let book = try shape.book(transactions: Self.transactions).book
        for dryRun in [false, true] {
            let general = try await PlainLoadTests.pull(book, strategy: .reconcileEveryKey, dryRun: dryRun)
            for strategy in Self.strategies {
                let fast = try await PlainLoadTests.pull(book, strategy: strategy, dryRun: dryRun)
                #expect(fast == general, "\(shape) \(strategy) dry run \(dryRun)")
                for (table, rows) in general.tables where fast.tables[table] != rows {
                    let missing = rows.filter { !(fast.tables[table] ?? []).contains($0) }.prefix(2)
                    let extra = (fast.tables[table] ?? []).filter { !rows.contains($0) }.prefix(2)
                    Issue.record("\(shape) \(strategy): \(table): general only \(Array(missing)); fast only \(Array(extra))")
                }
                if fast.report != general.report { Issue.record("\(shape) \(strategy): report \(fast.report) vs \(general.report)") }
            }
        }
    }

    /// What a check reports of a workbook (as `Inspection.check` fills its report).
    struct Checked: Equatable {
        var errors: [String]
        var held: [SyncIssue]
        var settings: LedgerRow?
        var tabs: [Tab: TabChecked]
    }

    struct TabChecked: Equatable {
        var loadable: Int
        var rejections: [Rejection]
        var notices: [SyncIssue]
        var conflicts: Int
        var rejected: Int
        var remote: TabCounts
    }

    static func summary(_ tab: TabChecked) -> String {
        let rejections = tab.rejections.map { "\($0.row) \($0.code.rawValue)" }.joined(separator: ", ")
        return "loadable \(tab.loadable), rejections [\(rejections)], \(tab.notices.count) notices"
    }

    static func checked(_ tables: [Tab: SheetValues.Table], _ strategy: PlanStrategy) -> Checked {
        let ids = PlainLoadTests.Counter()
        let check = WorkbookCheck.plan(tables, now: now, newID: { ids.next() }, strategy: strategy)
        var tabs: [Tab: TabChecked] = [:]
        for plan in check.plan.tabs {
            tabs[plan.tab] = TabChecked(
                loadable: check.loadable[plan.tab] ?? -1, rejections: plan.rejections, notices: plan.notices,
                conflicts: plan.conflicts.count, rejected: plan.localCounts.rejected, remote: plan.remoteCounts)
        }
        return Checked(errors: check.plan.tabErrors.map(\.description), held: check.plan.held, settings: check.plan.settings, tabs: tabs)
    }
}
