import Foundation
import GRDB
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// The `.xlsx` remote, `import` and `export --format xlsx`, through the built binary.
@Suite struct XLSXAndImportEndToEndTests {
    /// A synced clean sample exported as `book.xlsx` (plus a user sheet), with an xlsx config beside it.
    func xlsxWorkbook() async throws -> URL {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let book = folder.appendingPathComponent("book.xlsx")
        #expect(try await CLI.run(["export", book.path, "--format", "xlsx"], in: folder).status == 0)
        var sheets = try XLSXReader.read(contentsOf: book)
        sheets.append(XLSXSheet(name: "My notes", table: Table(header: ["remember"], rows: [[.text("keep me")], [.number("42")]])))
        try XLSXWriter.write(sheets, to: folder.appendingPathComponent("tmp.xlsx"))
        try FileManager.default.removeItem(at: book)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("tmp.xlsx"), to: book)
        try Data(#"{"store": "x.sqlite", "remote": {"type": "xlsx", "path": "book.xlsx"}}"#.utf8)
            .write(to: folder.appendingPathComponent("sheetsync.json"))
        return folder
    }

    @Test func anXlsxRemoteSyncsLikeTheCsvOneAndKeepsTheUsersOtherSheets() async throws {
        let folder = try await xlsxWorkbook()
        let book = folder.appendingPathComponent("book.xlsx")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let unchanged = try Data(contentsOf: book)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        #expect(try Data(contentsOf: book) == unchanged, "a sync with nothing to do rewrote the file")

        // A hand edit in the sheet reaches the store; a local add reaches the sheet.
        var sheets = try XLSXReader.read(contentsOf: book)
        let t = try #require(sheets.firstIndex { $0.name == "Transactions" })
        let noteColumn = try #require(sheets[t].table.header.firstIndex(of: "note"))
        sheets[t].table.rows[0][noteColumn] = .text("edited in Excel")
        try XLSXWriter.write(sheets, to: folder.appendingPathComponent("edited.xlsx"))
        try FileManager.default.removeItem(at: book)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("edited.xlsx"), to: book)
        let added = try await CLI.run(["add", "income", "--amount", "99.5", "--category", "Salary", "--date", "2026-04-01"], in: folder)
        #expect(added.status == 0)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)

        let after = try XLSXReader.read(contentsOf: book)
        let tx = try #require(after.first { $0.name == "Transactions" })
        let (_, rows) = try TabReader.read(tx.table, schema: .transactions, seenAt: Timestamp(Date()))
        let records = rows.compactMap { row -> LedgerRow? in if case .record(let r, _) = row.outcome { return r } else { return nil } }
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(records.contains { $0[.transactionId] == id && $0[.amount] == "99.50" })
        // Typed cells: the amount is a number, the date a real date cell.
        let newRow = try #require(tx.table.rows.first { $0.contains(.text(id)) })
        #expect(newRow.contains(.number("99.5")))  // written 99.50, read as the double shows
        #expect(newRow.contains(.dateSerial(String(LocalDate(iso: "2026-04-01")!.spreadsheetSerial))))
        #expect(after.contains { $0.name == "My notes" && $0.table.rows == [[.text("keep me")], [.number("42")]] })
        let status = try await CLI.run(["status", "--json"], in: folder)
        #expect(status.statusReport?.nothingPending == true, "\(status.stdout)")
    }

    @Test func importDryRunPreviewsAndMergeCategoriesCombinesCaseVariants() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let other = try CLI.copyOfSample("hand-edited")
        let preview = try await CLI.run(["import", other.path, "--dry-run"], in: folder)
        #expect(preview.stdout.contains("would import"))
        #expect(preview.stdout.contains("store Transactions add"))
        #expect(try await CLI.run(["status"], in: folder).stdout.contains("pending local changes: none"))

        let run = try await CLI.run(["import", other.path, "--merge-categories"], in: folder)
        #expect(run.status == 65)  // the file's bad rows are reported, the rest imported
        #expect(run.stdout.contains("combined 1 category"))
        #expect(run.stdout.contains("imported 8 transactions"))
        #expect(!run.stderr.contains("groceries"))  // re-pointed to 'Groceries', so loaded
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let text = try String(contentsOf: folder.appendingPathComponent("Transactions.csv"), encoding: .utf8)
        #expect(text.contains("mis-cased category"))
        #expect(!text.contains(",groceries,"))
    }

    @Test func importIsAllOrNothing() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let db = try DatabaseQueue(path: folder.appendingPathComponent("sheetsync.sqlite").path)
        try await db.write {
            try $0.execute(
                sql: "CREATE TRIGGER boom BEFORE INSERT ON transactions WHEN NEW.note = 'Paycheck' BEGIN SELECT RAISE(ABORT, 'boom'); END")
        }
        let before = try await db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM transactions") }
        try db.close()
        let other = try CLI.copyOfSample("hand-edited")
        let run = try await CLI.run(["import", other.path], in: folder)
        #expect(run.status != 0)
        let reopened = try DatabaseQueue(path: folder.appendingPathComponent("sheetsync.sqlite").path)
        let after = try await reopened.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM transactions") }
        #expect(after == before)
    }

    @Test func importOfAnXlsxExportRoundTripsEveryRow() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let book = folder.appendingPathComponent("out.xlsx")
        #expect(try await CLI.run(["export", book.path, "--format", "xlsx"], in: folder).status == 0)
        let check = try await CLI.run(["check", book.path], in: folder)
        #expect(check.status == 0, "\(check.stderr)")
        let fresh = try TestWorkbook.scratch("fresh")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("Settings.csv"), to: fresh.appendingPathComponent("Settings.csv"))
        #expect(try await CLI.run(["pull"], in: fresh).status == 0)
        let imported = try await CLI.run(["import", book.path], in: fresh)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 10 transactions"))
    }
}
