import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// A budget kept for years in an `.xlsx` with its own columns: one sheet per year under a title row,
/// its own categories, `import FILE` (every sheet) or `import FILE --sheet NAME`.
@Suite struct BudgetWorkbookImportTests {
    static func date(_ iso: String) -> Cell { .dateSerial(String(LocalDate(iso: iso)!.spreadsheetSerial)) }

    /// Two year sheets (a title row above each header, a blank row under one) and a summary sheet.
    static func book(in ledger: Ledger) throws -> URL {
        let url = ledger.folder.appendingPathComponent("budget.xlsx")
        let header = ["Date", "Category", "Amount", "Type", "Note"].map(Cell.text)
        try XLSXWriter.write(
            [
                XLSXSheet(
                    name: "2025",
                    rows: [
                        [.text("Household budget 2025")], [], header,
                        [date("2025-12-01"), .text("Groceries"), .number("54.2"), .text("expense"), .text("Markt, Köln")],
                        [date("2025-12-24"), .text("DINING"), .number("18.75"), .text("expense"), .text("Weihnachtsessen für 2 €")],
                    ]),
                XLSXSheet(
                    name: "2026",
                    rows: [
                        [.text("Household budget 2026")], header,
                        [date("2026-01-15"), .text("Salary"), .number("3200"), .text("income"), .text("Paycheck")],
                        [date("2026-01-20"), .empty, .number("-12"), .empty, .text("REWE to go")],
                        [date("2026-01-31"), .text("dining"), .number("9.5"), .text("expense"), .text("Lunch")],
                    ]),
                XLSXSheet(name: "Summary", rows: [[.text("Total"), .number("3294.45")]]),
            ], to: url)
        return url
    }

    static func lines(_ ledger: Ledger) throws -> [String] {
        try StatementImportTests.imported(ledger).map {
            "\($0[.date]) \($0[.type]) \($0[.amount]) \($0[.category]) \($0[.tagsCSV]) \($0[.note])"
        }
    }

    @Test func everySheetWithATableImportsAndCategoriesDifferingInCaseAreListedWithTheMergeHint() async throws {
        let ledger = try await StatementImportTests.ledger()
        let book = try Self.book(in: ledger)
        let workspace = try StatementImportTests.workspace(ledger)
        let plain = try await workspace.importStatement(at: book, options: .init())
        #expect(plain.added == 0 && plain.format == "XLSX")
        #expect(
            plain.refused.map(\.message) == [
                "unknown category 'DINING' in 1 row; the ledger has 'Dining', which differs only in case: "
                    + "import again with --merge-categories to file these rows under 'Dining'",
                "unknown category 'dining' in 1 row; the ledger has 'Dining', which differs only in case: "
                    + "import again with --merge-categories to file these rows under 'Dining'",
            ])
        #expect(try ledger.storeRows(.transactions).count == 10)

        let merged = try await workspace.importStatement(at: book, options: .init(mergeCategories: true))
        #expect(merged.refused.isEmpty && merged.added == 5)
        #expect(merged.sheets == ["2025", "2026"] && merged.skippedSheets == ["Summary"])
        #expect(merged.rows.map { "\($0.sheet ?? "") \($0.line)" } == ["2025 4", "2025 5", "2026 3", "2026 4", "2026 5"])
        #expect(
            try Self.lines(ledger) == [
                "2025-12-01 expense 54.20 Groceries  Markt, Köln", "2025-12-24 expense 18.75 Dining  Weihnachtsessen für 2 €",
                "2026-01-15 income 3200.00 Salary  Paycheck", "2026-01-20 expense 12.00 Groceries food REWE to go",
                "2026-01-31 expense 9.50 Dining  Lunch",
            ])
    }

    @Test func sheetPicksTheYearsAndTheRestArriveLaterOnce() async throws {
        let ledger = try await StatementImportTests.ledger()
        let book = try Self.book(in: ledger)
        let workspace = try StatementImportTests.workspace(ledger)
        let year = try await workspace.importStatement(at: book, options: .init(mergeCategories: true, sheets: ["2026"]))
        #expect(year.added == 3 && year.sheets == ["2026"] && year.skippedSheets.isEmpty)
        let all = try await workspace.importStatement(at: book, options: .init(mergeCategories: true))
        #expect(all.added == 2 && all.alreadyImported == 3)
        #expect(try Self.lines(ledger).count == 5)
        // A sheet named that holds no table is refused like a CSV without one.
        let error = try await #require(throws: SheetSyncError.self) {
            try await workspace.importStatement(at: book, options: .init(sheets: ["Summary"]))
        }
        #expect(error.exitCode == .dataError && error.code == "missing-column", "\(error)")
        #expect(error.message.hasPrefix("budget.xlsx sheet 'Summary': no date column"), "\(error.message)")
    }

    @Test func aSheetTheFileLacksIsRefusedNamingTheSheetsItHas() async throws {
        let ledger = try await StatementImportTests.ledger()
        let book = try Self.book(in: ledger)
        let before = try ledger.everyByte()
        let run = try await ledger.run("import", book.path, "--sheet", "2026", "--sheet", "Budget 2024")
        #expect(run.status == 78)
        #expect(run.stderr.contains("budget.xlsx has no sheet 'Budget 2024'; its sheets: '2025', '2026', 'Summary'"), "\(run.stderr)")
        let preview = try await ledger.run("import", book.path, "--merge-categories", "--dry-run")
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(
            preview.stdout.contains("would import 5 transactions from budget.xlsx (XLSX: sheets '2025', '2026')"), "\(preview.stdout)")
        #expect(preview.stdout.contains("skipped sheet 'Summary' (no date and amount columns)"), "\(preview.stdout)")
        #expect(preview.stdout.contains("sheet '2026' row 4: 2026-01-20 expense 12.00 Groceries 'REWE to go' (added)"), "\(preview.stdout)")
        #expect(try ledger.everyByte() == before)
    }
}
