import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// Text a spreadsheet program would run as a formula (`=cmd|' /C calc'!A0`): the CSV workbook keeps it
/// exactly as typed (it reads back as the same text) and the run that writes it says so; an export for
/// other programs neutralises it with OWASP's leading `'`, an XLSX export keeps it as a text cell.
@Suite struct FormulaTextTests {
    static let payload = "=cmd|' /C calc'!A0"

    @Test(arguments: [
        ("=SUM(A1)", true), ("+1+cmd|x", true), ("-2+3", true), ("@SUM(1)", true), ("\tx", true), ("\rx", true),
        ("-12.50", false), ("+3", false), ("12", false), ("lunch = 12", false), ("", false), ("-", true),
    ])
    func formulaLikeTextIsTheOWASPCaseAndPlainNumbersAreNot(text: String, formulaLike: Bool) {
        #expect(FormulaText.isFormulaLike(text) == formulaLike)
        #expect(FormulaText.neutralised(text) == (formulaLike ? "'" + text : text))
    }

    @Test func theWorkbookKeepsAFormulaLikeNoteExactlyAndTheRunSaysSoWhileAnExportNeutralisesIt() async throws {
        let ledger = try await Ledger.synced()
        let added = try await ledger.run("add", "expense", "--amount", "3", "--category", "Dining", "--note", Self.payload)
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let sync = try await ledger.run("sync", "--json")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(
            sync.issues.contains {
                $0.code == .formulaLikeCell && $0.severity == .notice && $0.place.file == "Transactions.csv"
                    && $0.message.hasPrefix("note of \(id) ")
            }, "\(sync.stdout)")
        #expect(try ledger.sheetRows(.transactions)[id]?[.note] == Self.payload)
        // It reads back as the same text: the next sync is quiet and the store keeps it.
        let again = try await ledger.run("sync", "--json")
        #expect(again.status == 0 && again.report?.upToDate == true, "\(again.stdout)")

        #expect(try ledger.storeRows(.transactions)[id]?[.note] == Self.payload)

        let export = try TestWorkbook.scratch("export")
        #expect(try await ledger.run("export", export.path).status == 0)
        let exported = try TestWorkbook(folder: export).records(.transactions, now: Timestamp(millisecondsSinceEpoch: 0))
        #expect(exported[id]?[.note] == "'" + Self.payload)
        let book = export.appendingPathComponent("book.xlsx")
        #expect(try await ledger.run("export", book.path).status == 0)
        let sheet = try #require(try XLSXReader.read(contentsOf: book).first { $0.name == "Transactions" })
        let cells = sheet.table.rows.flatMap { $0 }
        #expect(cells.contains(.text(Self.payload)) && !cells.contains(.text("'" + Self.payload)))
    }

    /// Formula-like cells already in a CSV workbook (typed there by hand, or by another program) are
    /// listed by `check` and `status`: file, row, column and value, shown through the terminal's
    /// sanitizer. Nothing is written and the exit code stays what it was (a notice, not a failure).
    @Test func checkAndStatusListFormulaLikeCellsAlreadyInTheWorkbookWithoutWritingAnything() async throws {
        let ledger = try await Ledger.synced()
        let url = ledger.workbook.url(.transactions)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(",Market,") && text.contains(",Lunch with Sam,"))
        try Data(
            text.replacingOccurrences(of: ",Market,", with: ",\(Self.payload),")
                .replacingOccurrences(of: ",Lunch with Sam,", with: ",@SUM(1)\u{1b}[2J,").utf8
        ).write(to: url)
        let before = try ledger.workbook.allBytes()

        for command in ["check", "status"] {
            let run = try await ledger.run(command)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            let said = run.stdout + run.stderr
            #expect(said.contains("Transactions.csv row 2, note: '\(Self.payload)'"), "\(command): \(said)")
            #expect(said.contains("Transactions.csv row 3, note: '@SUM(1)\\e[2J'"), "\(command): \(said)")
            #expect(!said.contains("\u{1b}"), "\(command) shows the escape, never sends it")
            #expect(try ledger.workbook.allBytes() == before, "\(command) writes nothing")
        }
        // --json gives them as data.
        let json = try await ledger.run("status", "--json")
        let cells = json.json?["formulaLikeCells"] as? [[String: Any]]
        #expect(cells?.count == 2, "\(json.stdout)")
        #expect(cells?.first?["value"] as? String == Self.payload)
        #expect(cells?.first?["row"] as? Int == 2)
    }
}
