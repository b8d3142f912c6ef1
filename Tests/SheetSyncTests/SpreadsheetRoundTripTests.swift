import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

/// A note such as `00123` written to a CSV workbook comes back as `123` once a spreadsheet program
/// opens and saves the file: sheetsync says so when it writes it and in `check`, and holds back the
/// row that comes back with exactly that change instead of taking it as an edit.
@Suite struct SpreadsheetRoundTripTests {
    func notes(_ folder: URL) throws -> [String] {
        try LedgerStore.inMemoryCopy(of: folder.appendingPathComponent("sheetsync.sqlite").path).records(in: .transactions)
            .map { $0[.note] }
    }

    func noteCells(_ book: TestWorkbook) throws -> [String] {
        let table = try book.table(.transactions)
        let column = try #require(book.column("note", in: table))
        return (0..<table.rowCount).map { table.row($0)[column].rawText }
    }

    @Test func aNoteASpreadsheetTurnsIntoANumberIsNamedAndItsRoundTripHeldBack() async throws {
        let folder = try TestWorkbook.scratch("roundtrip")
        let book = TestWorkbook(folder: folder)
        #expect(try await CLI.run(["init"], in: folder).status == 0)
        #expect(
            try await CLI.run(["add", "expense", "--amount", "5", "--category", "Groceries", "--note", "00123"], in: folder).status == 0)
        let sync = try await CLI.run(["sync"], in: folder)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(
            (sync.stdout + sync.stderr).contains(
                "note '00123' is written as text that a spreadsheet program turns into '123' when it opens and saves the CSV"),
            "\(sync.stdout)\(sync.stderr)")
        let check = try await CLI.run(["check", "--json"], in: folder)
        #expect(check.status == 0, "\(check.stderr)")
        let atRisk = check.issues.filter { $0.code == .valueAtRisk && $0.severity == .notice && $0.place.tab == .transactions }
        #expect(
            atRisk.count == 1 && atRisk[0].place.row == 2
                && atRisk[0].message.hasPrefix("note '00123' is text that a spreadsheet program turns into '123'"), "\(check.stdout)")

        // A spreadsheet program opens the file and saves it.
        try book.edit(.transactions) { table in
            let column = book.column("note", in: table)!
            var row = table.row(0)
            row[column] = .text("123")
            table.rows[0] = row
        }
        let held = try await CLI.run(["sync", "--json"], in: folder)
        #expect(held.status == 65, "\(held.stdout)\(held.stderr)")
        let rejected = held.report?.rejected ?? []
        #expect(rejected.map { "\($0.code.rawValue) \($0.tab.rawValue) \($0.row)" } == ["coerced-value Transactions 2"], "\(held.stdout)")
        #expect(rejected.first?.message.hasPrefix("note '123' is what a spreadsheet program makes of '00123'") == true, "\(held.stdout)")

        #expect(try notes(folder) == ["00123"], "the store keeps what was written")
        #expect(try noteCells(book) == ["123"], "the sheet is left as it is")
    }

    @Test func whatASpreadsheetProgramMakesOfText() {
        let cases: [(String, SpreadsheetCoercion.Outcome?)] = [
            ("00123", .number("123")), ("1e5", .number("100000")), ("1E+05", .number("100000")), ("+5", .number("5")),
            ("1.50", .number("1.5")), (".5", .number("0.5")), ("-05", .number("-5")), ("=1+1", .formula),
            ("123", nil), ("12.5", nil), ("-3", nil), ("rent", nil), ("1,234", nil), ("=", nil), ("", nil),
            ("1234567890123456789", nil), ("1e20", nil), ("0.00001", nil), ("0.0001", nil),
        ]
        for (text, outcome) in cases { #expect(SpreadsheetCoercion.of(text) == outcome, "\(text)") }
        #expect(SpreadsheetCoercion.cameBack("2", for: "=1+1"))
        #expect(SpreadsheetCoercion.cameBack("123", for: "00123"))
        #expect(!SpreadsheetCoercion.cameBack("124", for: "00123"))
        #expect(!SpreadsheetCoercion.cameBack("two", for: "=1+1"))
    }
}
