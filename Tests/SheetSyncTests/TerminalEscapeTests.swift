import Foundation
import SheetSyncCore
import SheetValues
import Testing

/// A name or cell typed into the sheet never reaches the terminal as a control sequence: `sync`,
/// `status` and `category list` show it escaped (`\e[2J`), `--json` keeps it exact, and `category
/// add` refuses one.
@Suite struct TerminalEscapeTests {
    static let evil = "Evil\u{1B}[2J"
    static let cell = "12\u{1B}]0;pwned\u{07}\u{1B}[1A\u{1B}[2K"

    /// The clean sample with a category named `evil` and a transaction whose amount is `cell` (rejected).
    private func hostileLedger() throws -> Ledger {
        let ledger = try Ledger.unsynced()
        var categories = try ledger.workbook.table(.categories)
        var row = categories.rows[0]
        row[0] = .text(Self.evil)
        categories.rows.append(row)
        var transactions = try ledger.workbook.table(.transactions)
        var bad = transactions.rows[0]
        let amount = try #require(ledger.workbook.column("amount", in: transactions))
        let id = try #require(ledger.workbook.column("transactionId", in: transactions))
        bad[amount] = .text(Self.cell)
        bad[id] = .text("5d0c3f7e-2b9a-4c1d-8e6f-1a2b3c4d5e6f")
        transactions.rows.append(bad)
        try ledger.workbook.edit(.categories) { $0 = categories }
        try ledger.workbook.edit(.transactions) { $0 = transactions }
        return ledger
    }

    @Test func syncStatusAndCategoryListShowControlCharactersEscapedAndJSONKeepsThemExact() async throws {
        let ledger = try hostileLedger()
        let sync = try await ledger.run("sync")
        #expect(sync.status == 65, "\(sync.stderr)")
        let status = try await ledger.run("status")
        let list = try await ledger.run("category", "list")
        for run in [sync, status, list] {
            #expect(!(run.stdout + run.stderr).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(run.stdout)\(run.stderr)")
        }
        #expect(sync.stderr.contains(#"12\e]0;pwned\a\e[1A\e[2K"#), "\(sync.stderr)")
        #expect(status.stdout.contains(#"12\e]0;pwned\a\e[1A\e[2K"#), "\(status.stdout)")
        #expect(list.stdout.contains(#"Evil\e[2J"#), "\(list.stdout)")

        let json = try await ledger.run("category", "list", "--json")
        let names = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]).compactMap {
            $0["name"] as? String
        }
        #expect(names.contains(Self.evil))
    }

    @Test func categoryAddAndRenameRefuseControlAndInvisibleCharacters() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.categories)
        for name in [Self.evil, "Din\u{200B}ing", "abc\u{202E}def"] {
            let add = try await ledger.run("category", "add", name)
            #expect(add.status == 64, "\(add.stderr)")
            #expect(add.stderr.contains("holds the control or invisible character"), "\(add.stderr)")
            #expect(!add.stderr.unicodeScalars.contains("\u{1B}"))
            let rename = try await ledger.run("category", "rename", "Dining", name)
            #expect(rename.status == 64, "\(rename.stderr)")
        }
        // A full-width twin of an existing name shows the same in every report.
        let twin = try await ledger.run("category", "add", "Ｄｉｎｉｎｇ")
        #expect(twin.status == 64 && twin.stderr.contains("'Dining' exists already"), "\(twin.stderr)")
        #expect(try ledger.storeRows(.categories) == before)
    }
}
