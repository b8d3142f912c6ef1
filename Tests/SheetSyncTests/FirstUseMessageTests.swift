import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

/// Messages a new user meets, each naming the real problem and what to do.
@Suite struct FirstUseMessageTests {
    /// `status`, `check` and `sync` in a folder that holds no ledger give one answer (78), and
    /// create nothing.
    @Test func anEmptyFolderIsNotALedgerForEveryCommand() async throws {
        let folder = try TestWorkbook.scratch("empty")
        for command in [["status"], ["check"], ["sync"], ["rule", "list"]] {
            let run = try await CLI.run(command + ["--json"], in: folder)
            #expect(run.status == 78, "\(command): \(run.stdout) \(run.stderr)")
            #expect(run.failure?["code"] as? String == "not-a-ledger", "\(command): \(run.stdout)")
            #expect(run.stderr.contains("`sheetsync init`"), "\(command): \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // `check PATH` on a folder that holds no tab: it is not a workbook (not "does not exist").
        let other = try TestWorkbook.scratch("not-a-book")
        let check = try await CLI.run(["check", other.path, "--json"], in: folder)
        #expect(check.status == 78 && check.failure?["code"] as? String == "not-a-ledger", "\(check.stdout)")
        #expect(check.stderr.contains("is not a workbook") && !check.stderr.contains("does not exist"), "\(check.stderr)")
    }

    @Test func aSemicolonSeparatedSaveIsNamedWithWhatToDo() async throws {
        let ledger = try await Ledger.synced()
        let file = ledger.book.appendingPathComponent("Categories.csv")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: ",", with: ";").utf8).write(to: file)
        let before = try ledger.storeRows(.categories)
        let run = try await ledger.run("sync")
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("separated by ';', not ','") && run.stderr.contains("Save it again as CSV"), "\(run.stderr)")
        #expect(!run.stderr.contains("restore the header text"), "\(run.stderr)")
        #expect(try ledger.storeRows(.categories) == before)
    }

    @Test func categoryAddOfAnExistingNameIsDoneAlreadyNotAUsageError() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.categories)
        let again = try await ledger.run("category", "add", "Dining")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("category 'Dining' is already there; nothing changed"), "\(again.stdout)")
        #expect(try ledger.storeRows(.categories) == before)
        // One transaction is not "1 transactions".
        #expect(try await ledger.run("add", "expense", "--amount", "3", "--category", "Gifts", "--date", "2026-01-02").status == 0)
        let list = try await ledger.run("category", "list")
        #expect(list.stdout.contains("1 transaction\n") || list.stdout.contains("1 transaction  "), "\(list.stdout)")
        #expect(!list.stdout.contains(" 1 transactions"), "\(list.stdout)")
    }

    @Test func aDateOfTheRightShapeWhoseDayDoesNotExistSaysSo() async throws {
        let ledger = try await Ledger.synced()
        let add = try await ledger.run("add", "expense", "--amount", "3", "--category", "Dining", "--date", "2026-11-31")
        #expect(add.status == 64)
        #expect(
            add.stderr.contains("'2026-11-31' is not a date: November 2026 has no day 31 (November has 30 days)"),
            "\(add.stderr)")
        // The same words for a typed row.
        try ledger.workbook.edit(.transactions) { table in
            if let date = table.header.firstIndex(of: "date") { table.rows[0][date] = .text("2026-02-29") }
        }
        let sync = try await ledger.run("sync")
        #expect(sync.status == 65)
        #expect(sync.stderr.contains("'2026-02-29' is not a date: February 2026 has no day 29"), "\(sync.stderr)")
    }

    @Test func exportRefusesAPathNamedLikeAnotherKindOfFileAndSaysWhatItWrote() async throws {
        let ledger = try await Ledger.synced()
        for name in ["out.ods", "single.csv"] {
            let run = try await ledger.run("export", name)
            #expect(run.status == 64, "\(name)")
            #expect(
                run.stderr.contains("names a .\(URL(fileURLWithPath: name).pathExtension) file, which export does not write"),
                "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: ledger.folder.appendingPathComponent(name).path))
        }
        let run = try await ledger.run("export", "snapshot")
        #expect(run.status == 0)
        #expect(run.stdout.contains("exported") && run.stdout.contains("to the folder (five .csv files)"), "\(run.stdout)")
        let xlsx = try await ledger.run("export", "book.xlsx")
        #expect(xlsx.stdout.contains("to the file "), "\(xlsx.stdout)")
    }
}

extension FirstUseMessageTests {
    /// `restore --list` shows what each row held, not only its id.
    @Test func restoreListShowsDateAmountCategoryAndNote() async throws {
        let ledger = try await Ledger.synced()
        let id = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0[0].rawText == id } }
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.storeRows(.transactions)[id] == nil)
        let list = try await ledger.run("restore", "--list")
        #expect(
            list.stdout.contains("Transactions \(id) 2026-01-03 expense 18.75 Dining \"Lunch with Sam\" (deleted in the workbook"),
            "\(list.stdout)")
    }
}

extension FirstUseMessageTests {
    /// A config key of another kind of remote is named, never ignored.
    @Test func configKeysOfAnotherRemoteTypeAreRefusedByName() async throws {
        for (remote, expected) in [
            (
                #"{"type": "csv", "path": "book", "spreadsheetId": "abc"}"#,
                "remote.spreadsheetId belongs to a google remote, not to this csv remote"
            ),
            (#"{"type": "xlsx", "path": "book.csv"}"#, "remote.path 'book.csv' is not an .xlsx file"),
            (#"{"type": "csv", "path": "book.xlsx"}"#, "remote.path 'book.xlsx' names a file, but a csv remote is a folder"),
        ] {
            let folder = try TestWorkbook.scratch("config")
            try Data(#"{"store": "s.sqlite", "remote": \#(remote)}"#.utf8).write(to: folder.appendingPathComponent("sheetsync.json"))
            let run = try await CLI.run(["init"], in: folder)
            #expect(run.status == 78, "\(remote)")
            #expect(run.stderr.contains(expected), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["sheetsync.json"])
        }
    }
}
