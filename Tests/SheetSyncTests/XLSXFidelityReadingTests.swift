import Foundation
import SheetSyncCore
import SheetValues
import Testing
import Workbook
import ZIPFoundation

/// Workbooks from other producers read as a spreadsheet shows them, and odd but valid files
/// load.
@Suite struct XLSXFidelityReadingTests {
    static let sampleAmounts = ["54.20", "18.75", "2.90", "61.03", "89.99", "35.00", "12.40", "47.15", "1450.00", "3200.00"]

    @Test func amountsSpelledWithSeventeenDigitsReadAsTheSpreadsheetShowsThem() async throws {
        let book = try XLSXFixture("noisy-amounts-openpyxl.xlsx")
        #expect(try book.part("xl/worksheets/sheet1.xml").contains("<v>2.899999999999999</v>"))
        #expect(try await book.run(["sync"]).status == 0)
        let amounts = try book.store("SELECT amount FROM transactions ORDER BY date, transactionId").map { $0["amount"] ?? "" }
        #expect(amounts.sorted() == Self.sampleAmounts.sorted())
    }

    @Test func aResaveThatOnlyRespellsNumbersIsNoEdit() async throws {
        let book = try XLSXFixture("noisy-amounts-openpyxl.xlsx")
        #expect(try await book.run(["sync"]).status == 0)
        let stamps = try book.store("SELECT transactionId, lastModifiedAt FROM transactions ORDER BY transactionId")
        try FileManager.default.removeItem(at: book.book)
        try FileManager.default.copyItem(at: XLSXFixture.url("plain-amounts-openpyxl.xlsx"), to: book.book)
        let resaved = try Data(contentsOf: book.book)
        let run = try await book.run(["sync", "--json"])
        #expect(run.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let tabs = report?["tabs"] as? [String: [String: Any]]
        #expect((tabs?["Transactions"]?["updated"] as? Int ?? 0) == 0)
        #expect(try book.store("SELECT transactionId, lastModifiedAt FROM transactions ORDER BY transactionId") == stamps)
        #expect(try Data(contentsOf: book.book) == resaved, "the workbook was written back")
    }

    @Test func aDateFormattedNumberInA1904WorkbookIsANumberInAmountAndTheShownDateInNote() async throws {
        let book = try XLSXFixture("mac1904-openpyxl.xlsx")
        #expect(try await book.run(["sync"]).status == 0)
        let row = try #require(
            try book.store("SELECT amount, note, date FROM transactions WHERE transactionId = 'c09ca393-0084-5db0-a1be-912f4bec2b3d'").first
        )
        #expect(row["amount"] == "45000.00")
        #expect(row["note"] == "2026-01-02")
        #expect(row["date"] == "2026-01-02")
    }

    @Test func oddButValidWorkbooksLoadWithCheck() async throws {
        let folder = try TestWorkbook.scratch("odd")
        for name in ["backslash-names.xlsx", "empty-shared-string.xlsx", "ledger-xlsxwriter.xlsm"] {
            let run = try await CLI.run(["check", XLSXFixture.url(name).path, "--json"], in: folder)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let tabs = report?["tabs"] as? [String: [String: Any]]
            #expect(tabs?["Transactions"]?["added"] as? Int == 10, "\(name)")
        }
        let ghost = try await CLI.run(["check", XLSXFixture.url("empty-relationship-id.xlsx").path, "--verbose"], in: folder)
        #expect(ghost.status == 0)
        #expect((ghost.stdout + ghost.stderr).contains("sheet 'Ghost' with an empty relationship id; skipped"))
    }

    @Test func aPasswordProtectedWorkbookIsNamedAsSuch() async throws {
        let folder = try TestWorkbook.scratch("password")
        let run = try await CLI.run(["check", XLSXFixture.url("password.xlsx").path], in: folder)
        #expect(run.status == 65)
        #expect(run.stderr.contains("password.xlsx: the workbook is password-protected; save a copy without a password"))
        let book = try XLSXFixture("password.xlsx")
        let sync = try await book.run(["sync", "--json"])
        #expect(sync.status == 78, "the configured remote is refused as configuration")
        #expect((sync.json?["error"] as? [String: Any])?["code"] as? String == "xlsx-password-protected", "\(sync.stdout)")

    }

    @Test func anXlsmRemoteKeepsItsMacrosThroughAPush() async throws {
        let book = try XLSXFixture("ledger-xlsxwriter.xlsm")
        let macros = try #require(try book.parts()["xl/vbaProject.bin"])
        #expect(try await book.run(["sync"]).status == 0)
        #expect(try await book.run(["add", "expense", "--amount", "3", "--category", "Groceries", "--date", "2026-02-03"]).status == 0)
        #expect(try await book.run(["sync"]).status == 0)
        #expect(try book.parts()["xl/vbaProject.bin"] == macros)
        #expect(try book.store("SELECT count(*) AS n FROM transactions").first?["n"] == "11")
    }

    @Test func aRepetitiveSheetCompressedPastTheOldRatioIsUserDataAndSyncs() async throws {
        let folder = try TestWorkbook.scratch("repetitive")
        let source = try XLSXReader.read(contentsOf: XLSXFixture.url("ledger-xlsxwriter.xlsx"))
        let note = String(repeating: "the same long note about the weekly market run ", count: 200)
        let sheets = source.map { sheet -> XLSXSheet in
            guard sheet.name == "Transactions" else { return sheet }
            var table = sheet.table
            let template = table.rows[0]
            table.rows += (0..<2000).map { index in
                var row = template
                row[0] = .text(String(format: "%08x-0000-4000-8000-%012x", index, index))
                row[8] = .text(note)
                return row
            }
            return XLSXSheet(name: sheet.name, table: table)
        }
        let book = folder.appendingPathComponent("book.xlsx")
        try XLSXWriter.write(sheets, to: book)
        let archive = try Archive(url: book, accessMode: .read)
        let entry = try #require(archive["xl/worksheets/sheet1.xml"])
        #expect(Double(entry.uncompressedSize) / Double(entry.compressedSize) > 100, "the sheet must compress past 100:1")
        let run = try await CLI.run(["check", book.path, "--json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect((report?["tabs"] as? [String: [String: Any]])?["Transactions"]?["added"] as? Int == 2010)

        // As the configured remote it syncs: every row reaches the store.
        let remote = try XLSXFixture("ledger-xlsxwriter.xlsx")
        try FileManager.default.removeItem(at: remote.book)
        try FileManager.default.copyItem(at: book, to: remote.book)
        let sync = try await remote.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try remote.store("SELECT count(*) AS n FROM transactions WHERE note LIKE 'the same long note%'").first?["n"] == "2000")
    }

    @Test func checkOfAWorkbookLackingTabsNamesEachOneAndItsHeader() async throws {
        let folder = try TestWorkbook.scratch("partial")
        let source = try XLSXReader.read(contentsOf: XLSXFixture.url("ledger-xlsxwriter.xlsx"))
        let book = folder.appendingPathComponent("partial.xlsx")
        try XLSXWriter.write(source.filter { $0.name == "Transactions" }, to: book)
        let run = try await CLI.run(["check", book.path, "--json"], in: folder)
        #expect(run.status == 65)
        let missing = run.issues.filter { $0.code == .unreadableTab && $0.severity == .heldBack }
        #expect(Set(missing.compactMap(\.place.tab)) == [.receipts, .categories, .recurringRules, .settings], "\(run.stdout)")
        #expect(missing.count == 4 && missing.allSatisfy { $0.message.contains(book.path) }, "\(run.stdout)")
        for tab in ["Receipts", "Categories", "RecurringRules", "Settings"] {
            #expect(run.stderr.contains("add a tab named \(tab) whose first row is: "), "\(run.stderr)")
        }
    }

    @Test func anAmountAndADateTypedAsTextAreWrittenBackAsANumberAndADate() async throws {
        let folder = try TestWorkbook.scratch("typed")
        var sheets = try XLSXReader.read(contentsOf: XLSXFixture.url("ledger-xlsxwriter.xlsx"))
        let t = try #require(sheets.firstIndex { $0.name == "Transactions" })
        sheets[t].table.rows[0][5] = .text("$1,000.00")
        sheets[t].table.rows[1][2] = .text("1/15/2026")
        let book = try XLSXFixture("ledger-xlsxwriter.xlsx")
        try FileManager.default.removeItem(at: book.book)
        try XLSXWriter.write(sheets, to: folder.appendingPathComponent("typed.xlsx"))
        try FileManager.default.copyItem(at: folder.appendingPathComponent("typed.xlsx"), to: book.book)
        // The sync that accepts them writes them back, though no value changed.
        let run = try await book.run(["sync", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let notices = report["notices"] as? [[String: Any]] ?? []
        #expect(
            notices.contains {
                $0["code"] as? String == "workbook-note" && $0["file"] as? String == "book.xlsx" && $0["tab"] as? String == "Transactions"
                    && $0["text"] as? String
                        == "book.xlsx: Transactions: 2 amount(s) or date(s) typed as text written back as number or date cells"
            }, "\(report)")
        let sheet = try book.part("xl/worksheets/sheet1.xml")
        #expect(XLSXFixture.cellElement("F2", in: sheet)?.contains("<v>1000.00</v>") == true)
        let date = try #require(XLSXFixture.cellElement("C3", in: sheet))
        #expect(date.contains("<v>\(LocalDate(iso: "2026-01-15")!.spreadsheetSerial)</v>"))
        #expect(!date.contains("inlineStr"))
        let row = try #require(
            try book.store("SELECT amount FROM transactions WHERE transactionId = 'c09ca393-0084-5db0-a1be-912f4bec2b3d'").first)
        #expect(row["amount"] == "1000.00")
        // Written once: the next sync finds nothing to write back and leaves the file alone.
        let written = try Data(contentsOf: book.book)
        #expect(try await book.run(["sync"]).status == 0)
        #expect(try Data(contentsOf: book.book) == written)
    }
}
