import Foundation
import Testing

/// Pushes to a workbook whose formulas depend on the ledger through other formulas (a running
/// balance, a Summary that chains on its own cells and through defined names) and whose two
/// ledger sheets read each other: after each push LibreOffice, which trusts cached
/// results, shows every formula recalculated, and references follow the rows of both sheets.
@Suite struct XLSXFormulaChainPushTests {
    static let transactions = "xl/worksheets/sheet1.xml"
    static let receipts = "xl/worksheets/sheet2.xml"
    static let summary = "xl/worksheets/sheet6.xml"

    static func formula(_ cell: String, in xml: String) -> String? {
        XLSXFixture.cellElement(cell, in: xml)?.firstMatch(of: /<f[^>]*>([^<]*)<\/f>/).map { String($0.output.1) }
    }

    static func cached(_ cell: String, in xml: String) -> Bool {
        XLSXFixture.cellElement(cell, in: xml)?.contains("<v>") ?? false
    }

    @Test(.enabled(if: XLSXDressedRoundTripTests.hasLibreOffice, "needs LibreOffice and python3; skipped"))
    func formulasDownEveryChainAreRecalculatedAndReferencesFollowBothLedgerSheets() async throws {
        let book = try XLSXFixture("chained-openpyxl.xlsx")
        // LibreOffice's copy caches every formula's result, as a workbook saved by a spreadsheet does.
        try XLSXDressedRoundTripTests.resaved(book.book)
        #expect(try await book.run(["sync"]).status == 0)
        #expect(Self.cached("P11", in: try book.part(Self.transactions)))
        #expect(try XLSXDressedRoundTripTests.recalculated(book.book).problems.isEmpty)

        // Sheet row 3's amount changes: the balance of every row from 3 down depends on it through
        // the balance above, the Summary's B3/B4/B5/B7 through B2, a name and B3.
        try book.execute("UPDATE transactions SET amount = '20.00' WHERE transactionId = '1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9'")
        #expect(try await book.run(["sync"]).status == 0)
        let sheet = try book.part(Self.transactions)
        for row in 3...11 { #expect(!Self.cached("P\(row)", in: sheet), "P\(row) kept its stale cached balance") }
        for cell in ["P2", "O2", "O4"] { #expect(Self.cached(cell, in: sheet), "\(cell) does not depend on F3") }
        let summary = try book.part(Self.summary)
        for cell in ["B3", "B4", "B5", "B7"] { #expect(!Self.cached(cell, in: summary), "Summary!\(cell) kept its stale result") }
        #expect(!Self.cached("G3", in: try book.part(Self.receipts)), "Receipts!G3 reads F3")
        let second = try XLSXDressedRoundTripTests.recalculated(book.book)
        #expect(second.problems.isEmpty)
        #expect(second.evaluated >= 35)

        // One push deletes the last transaction and the receipt in Receipts row 3: Transactions'
        // references into Receipts move up with its rows, as Receipts' own do.
        try book.execute("DELETE FROM transactions WHERE transactionId = '4c3d50bf-12db-5603-981a-c55f21c77bb3'")
        try book.execute("DELETE FROM receipts WHERE receiptId = '9b22932f-ed01-575b-8f32-d77c1de9b0eb'")
        let pushed = try await book.run(["sync"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let after = try book.part(Self.transactions)
        #expect(Self.formula("R3", in: after) == "Receipts!G3", "the receipt in row 4 moved up to row 3")
        #expect(Self.formula("Q2", in: after) == "SUM(Receipts!G$2:G$3)")
        #expect(XLSXFixture.cellElement("A11", in: after) == nil, "the last transaction is gone")
        let receipts = try book.part(Self.receipts)
        #expect(Self.formula("G2", in: receipts) == "Transactions!F5")
        #expect(Self.formula("G3", in: receipts) == "Transactions!F9")
        #expect(XLSXFixture.cellElement("G4", in: receipts) == nil)
        #expect(try book.part("xl/workbook.xml").contains("Transactions!$F$2:$F$10"))
        #expect(try book.store("SELECT receiptId FROM receipts").count == 2)
        let third = try XLSXDressedRoundTripTests.recalculated(book.book)
        #expect(third.problems.isEmpty)
        #expect(third.evaluated >= 30)
    }
}
