import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// The clean sample has 10 transactions (one note spans two lines). One test per data-safety case: what a
/// user did, then the store's and the workbook's contents before and after, through the binary as cron runs it.
@Suite struct DataSafetyTests {
    static let groceries = "c09ca393-0084-5db0-a1be-912f4bec2b3d"
    static let lunch = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"

    @Test func renamedTransactionsFileDeletesNothingAndTheOtherTabsStillSync() async throws {
        let ledger = try await Ledger.synced()
        #expect(try ledger.storeRows(.transactions).count == 10)
        try FileManager.default.moveItem(
            at: ledger.workbook.url(.transactions),
            to: ledger.book.appendingPathComponent("Transactions-old.csv"))
        try ledger.workbook.edit(.categories) { table in table.rows[0][3] = .text("#000000") }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65)
        #expect(run.has(.unreadableTab, .heldBack, tab: .transactions), "\(run.stdout)")
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(try ledger.storeRows(.categories)["Groceries"]?[.colorHex] == "#000000")
        #expect(!FileManager.default.fileExists(atPath: ledger.workbook.url(.transactions).path))
        // Renamed back, everything is as before: nothing was lost on either side.
        try FileManager.default.moveItem(
            at: ledger.book.appendingPathComponent("Transactions-old.csv"),
            to: ledger.workbook.url(.transactions))
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.transactions).count == 10)
    }

    @Test func movedWorkbookFolderExitsSeventyEightNamingItAndTheLastSync() async throws {
        let ledger = try await Ledger.synced()
        try FileManager.default.moveItem(at: ledger.book, to: ledger.folder.appendingPathComponent("moved"))
        let run = try await ledger.run("sync")
        #expect(run.status == 78)
        #expect(run.stderr.contains(ledger.book.path) && run.stderr.contains("last synced with it at 20"), "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(!FileManager.default.fileExists(atPath: ledger.book.path))
    }

    @Test func deletedSettingsFileIsRecreatedFromTheStore() async throws {
        let ledger = try await Ledger.synced()
        try FileManager.default.removeItem(at: ledger.workbook.url(.settings))
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.sheetRows(.settings).keys.sorted() == ["b4d5891d-9e53-5116-8cdc-779311294f7b"])
        #expect(try ledger.storeRows(.settings).keys.sorted() == ["b4d5891d-9e53-5116-8cdc-779311294f7b"])
    }

    /// A tab the store never had that the workbook lacks (a file deleted before the first sync) is created
    /// with its header by the sync, which says so; it was taken as empty and never written, so `check` went
    /// on exiting 65 for the missing file while every sync exited 0. A pull writes nothing.
    @Test func aTabTheStoreNeverHadIsCreatedByTheFirstSync() async throws {
        let ledger = try Ledger.unsynced()
        let receipts = ledger.workbook.url(.receipts)
        try FileManager.default.removeItem(at: receipts)
        let pull = try await ledger.run("pull")
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(!FileManager.default.fileExists(atPath: receipts.path))
        let dry = try await ledger.run("sync", "--dry-run")
        #expect(dry.status == 0 && !FileManager.default.fileExists(atPath: receipts.path), "\(dry.stderr)")
        let sync = try await ledger.run("sync", "--json")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.has(.tabCreated, .notice, tab: .receipts), "\(sync.stdout)")
        let text = try String(contentsOf: receipts, encoding: .utf8)
        #expect(text == "receiptId,transactionId,driveFileId,fileName,createdAt,lastModifiedAt\n", "\(text)")
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(try await ledger.run("check").status == 0)
        #expect(try await ledger.run("sync").stderr.isEmpty)
    }

    /// A pull gives no ids (it writes nothing to the workbook): a copy of a row with a duplicate id, and a
    /// row typed without one, wait for the next sync, and the pull says so; it named a new id for the copy
    /// that was never stored, another on every pull.
    @Test func aPullSaysRowsWithoutAnIdOfTheirOwnWaitForTheSync() async throws {
        let folder = try CLI.copyOfSample("hand-edited")
        let first = try await CLI.run(["pull"], in: folder)
        let again = try await CLI.run(["pull"], in: folder)
        for run in [first, again] {
            #expect(!run.stdout.contains("the copy now has id"), "\(run.stdout)")
            #expect(run.stdout.contains("gets an id of its own from the next sync or push"), "\(run.stdout)")
        }
        #expect(first.stdout == again.stdout)
        let store = try DatabaseQueue(path: folder.appendingPathComponent("sheetsync.sqlite").path)
        let stored = try await store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM transactions") }
        #expect(stored == 4)
        // The report counts what was loaded, not the rows that wait.
        let pulled = try await CLI.run(["pull", "--json"], in: try CLI.copyOfSample("hand-edited"))
        #expect(pulled.report?.tabs["Transactions"]?.added == 4, "\(pulled.stdout)")
        #expect(
            pulled.issues.contains {
                $0.code == .duplicateId && $0.place.tab == .transactions && $0.place.key?.hasPrefix("62e52977") == true
            })
        #expect(pulled.has(.rowsWaitForIds, .notice, tab: .transactions), "\(pulled.stdout)")
        let sync = try await CLI.run(["sync"], in: folder)
        #expect(sync.stdout.contains("the copy now has id"), "\(sync.stdout)")
    }

    /// The Settings row binds the store to its dataset: an emptied Settings tab is recreated from the
    /// store like a missing one, never taken as "delete the settings", even with --allow-mass-delete.
    @Test(arguments: [["sync"], ["sync", "--allow-mass-delete"]])
    func emptiedSettingsTabIsRecreatedFromTheStore(_ command: [String]) async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.settings) { $0.rows = [] }
        let run = try await CLI.run(command, in: ledger.folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.settings).keys.sorted() == ["b4d5891d-9e53-5116-8cdc-779311294f7b"])
        #expect(try ledger.sheetRows(.settings).keys.sorted() == ["b4d5891d-9e53-5116-8cdc-779311294f7b"])
    }

    /// Select all, Delete: a tab cleared with its header. Settings is recreated, header and row (it
    /// failed "missing columns" on every run); a ledger tab so cleared is an emptied tab,
    /// held by the mass-delete guard, not a tab with renamed columns.
    @Test func aTabClearedWithItsHeaderIsAnEmptiedTab() async throws {
        let ledger = try await Ledger.synced()
        let store = try ledger.storeRows(.transactions)
        try Data().write(to: ledger.workbook.url(.settings))
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.sheetRows(.settings).keys.sorted() == ["b4d5891d-9e53-5116-8cdc-779311294f7b"])
        #expect(try ledger.workbook.table(.settings).header == TablePatcher.newHeader(Tab.settings.schema))
        try Data().write(to: ledger.workbook.url(.transactions))
        let cleared = try await ledger.run("sync", "--json")
        #expect(cleared.status == 65)
        #expect(cleared.has(.massDelete, .heldBack, tab: .transactions), "\(cleared.stdout)")
        #expect(try ledger.storeRows(.transactions) == store)
        #expect(try Data(contentsOf: ledger.workbook.url(.transactions)).isEmpty, "not written while held")
    }

    /// The Settings row drives every local date (`add`, `report`, `materialize`): a time zone that is
    /// no zone, or a second row, is rejected (65, row and value named) and the store keeps its own.
    @Test(arguments: [("Mars/Olympus", "not a time zone"), ("america/new_york", "did you mean 'America/New_York'")])
    func settingsRowWithAnUnknownTimeZoneIsRejected(_ zone: String, _ said: String) async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.settings)
        try ledger.workbook.edit(.settings) { table in
            let column = table.header.firstIndex(of: "timezone")!
            table.rows[0][column] = .text(zone)
        }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65, "\(run.stderr)")
        let rejected = run.report?.rejected.filter { $0.code == .invalidSettings && $0.tab == .settings && $0.row == 2 } ?? []
        #expect(rejected.count == 1 && (rejected[0].message + " " + rejected[0].hint).contains(said), "\(run.stdout)")
        #expect(try ledger.storeRows(.settings) == before)
    }

    @Test func aSecondSettingsRowIsRejected() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.settings)
        try ledger.workbook.edit(.settings) { table in
            var second = table.rows[0]
            second[0] = .text("c0ffee00-0000-4000-8000-000000000001")
            table.rows.insert(second, at: 0)
        }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.report?.rejected.map { [$0.code.rawValue, $0.tab.rawValue, "\($0.row)", $0.id] }
                == [["invalid-settings", "Settings", "2", "c0ffee00-0000-4000-8000-000000000001"]], "\(run.stdout)")
        #expect(try ledger.storeRows(.settings) == before)
        let check = try await ledger.run("check")
        #expect(check.status == 65, "\(check.stdout) \(check.stderr)")
    }

    /// A row deleted in the store (the sync removed it from the workbook) does not come back from an old
    /// copy saved over the file afterwards: the copy's version is no newer than the one deleted (the
    /// spreadsheet left open across a cron run brought it back, exit 0). Newer, it would.
    @Test func aDeletedRowDoesNotComeBackFromAnOldCopy() async throws {
        let ledger = try await Ledger.synced()
        let old = try Data(contentsOf: ledger.workbook.url(.transactions))
        let gone = try #require(try ledger.storeRows(.transactions).keys.sorted().first)
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write { try $0.execute(sql: "DELETE FROM transactions WHERE transactionId = ?", arguments: [gone]) }
        try db.close()
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.transactions)[gone] == nil)
        try old.write(to: ledger.workbook.url(.transactions))
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.has(.deletedRowCameBack, .notice, tab: .transactions, key: gone), "said: \(run.stdout)")
        #expect(try ledger.storeRows(.transactions)[gone] == nil, "not back in the store")
        #expect(try ledger.sheetRows(.transactions)[gone] == nil, "deleted from the workbook again")
        #expect(try ledger.storeRows(.transactions).count == 9)
        #expect(try await ledger.run("sync").status == 0)
        // A row deleted in the workbook and put back there (an undo) is the user's: it comes back, as before.
        let current = try Data(contentsOf: ledger.workbook.url(.transactions))
        let other = try #require(try ledger.storeRows(.transactions).keys.sorted().first)
        try ledger.workbook.edit(.transactions) { $0.rows.removeAll { $0.first?.rawText == other } }
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.storeRows(.transactions)[other] == nil)
        try current.write(to: ledger.workbook.url(.transactions))
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.storeRows(.transactions)[other] != nil, "the undo is kept")
    }

    /// A row typed without an id gets one written by the sync; a copy saved from before that (the editor
    /// kept the file open) has the row without it again. It is the same row, not a second expense: the
    /// id the store gave it (and the workbook lost) is taken again (it was not: Pizza twice, exit 0).
    @Test func aTypedRowSavedAgainWithoutItsIdIsNotLoadedTwice() async throws {
        let ledger = try await Ledger.synced()
        let url = ledger.workbook.url(.transactions)
        let typed = ",expense,2026-01-30,,,23.00,Dining,,Pizza typed in editor,,,,,\n"
        try Data((try String(contentsOf: url, encoding: .utf8) + typed).utf8).write(to: url)
        let editorCopy = try Data(contentsOf: url)
        #expect(try await ledger.run("sync").status == 0)
        let pizza = try #require(try ledger.storeRows(.transactions).values.first { $0[.note] == "Pizza typed in editor" })
        try editorCopy.write(to: url)
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        let pizzas = try ledger.storeRows(.transactions).values.filter { $0[.note] == "Pizza typed in editor" }
        #expect(pizzas.map { $0[.transactionId] } == [pizza[.transactionId]], "one Pizza, with its first id")
        let inSheet = try ledger.sheetRows(.transactions).values.filter { $0[.note] == "Pizza typed in editor" }
        #expect(inSheet.map { $0[.transactionId] } == [pizza[.transactionId]])
        #expect(try await ledger.run("sync").status == 0)
    }

    /// A tab file that cannot be read at all (saved as Latin-1) stops the run with 65; `status` says so
    /// until it is fixed (it showed nothing wrong), and the file is never rewritten.
    @Test func anUnreadableTabFileIsShownByStatusUntilFixed() async throws {
        let ledger = try await Ledger.synced()
        let url = ledger.workbook.url(.transactions)
        let utf8 = try Data(contentsOf: url)
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "Coffee", with: "Café")
        let latin1 = try #require(text.data(using: .isoLatin1))
        try latin1.write(to: url)
        let run = try await ledger.run("sync")
        #expect(run.status == 65, "\(run.stderr)")
        let status = try #require(try await ledger.run("status", "--json").decoded(as: StatusReport.self))
        let reasons = try #require(status.heldBack?.reasons, "status says the last sync held back")
        #expect(reasons.map(\.code) == [.unreadableTab], "\(reasons)")
        #expect(reasons.first?.message.contains("not UTF-8") == true, "\(reasons)")
        #expect(try Data(contentsOf: url) == latin1)
        try utf8.write(to: url)
        #expect(try await ledger.run("sync").status == 0)
        #expect(try await ledger.run("status", "--json").decoded(as: StatusReport.self)?.heldBack == nil)
    }

    /// A category deleted in the workbook (an old Categories copy saved over it) while rows in the store
    /// name it is kept and written back, held with 65 and the way to remove it (it was
    /// deleted and its transaction then rejected as "unknown category", the ledger inconsistent).
    @Test func aCategoryStillNamedByRowsIsNotDeletedByAnOldCopy() async throws {
        let ledger = try await Ledger.synced()
        let old = try Data(contentsOf: ledger.workbook.url(.categories))
        #expect(try await ledger.run("category", "add", "Pets").status == 0)
        let added = try await ledger.run("add", "expense", "--amount", "20.00", "--category", "Pets")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await ledger.run("sync").status == 0)
        try old.write(to: ledger.workbook.url(.categories))
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65, "\(run.stderr)")
        let held = run.issues.filter { $0.code == .categoryInUse && $0.severity == .heldBack && $0.place.tab == .categories }
        #expect(held.count == 1 && held[0].message.contains("'Pets'") && held[0].message.contains("category archive"), "\(run.stdout)")
        #expect(try ledger.storeRows(.categories)["Pets"] != nil, "kept in the store")
        #expect(try ledger.sheetRows(.categories)["Pets"] != nil, "written back to the workbook")
        #expect(try ledger.storeRows(.transactions)[id]?[.category] == "Pets")
        #expect(try ledger.sheetRows(.transactions)[id] != nil, "its transaction is not rejected")
        #expect(try await ledger.run("sync").status == 0)
    }

    /// A `category rename` re-points the store's rows; that is no edit of a row deleted meanwhile, by
    /// hand in the workbook or in the store: the delete stands (the row came back, exit 0).
    @Test(arguments: ["workbook", "store"])
    func aCategoryRenameDoesNotBringBackADeletedRow(_ side: String) async throws {
        let ledger = try await Ledger.synced()
        let coffee = "c94839fb-9d8e-5116-be50-879909f6ed74"
        #expect(try ledger.storeRows(.transactions)[coffee]?[.category] == "Dining")
        if side == "workbook" {
            try ledger.workbook.edit(.transactions) { $0.rows.removeAll { $0.first?.rawText == coffee } }
        } else {
            let db = try DatabaseQueue(path: ledger.store.path)
            try await db.write { try $0.execute(sql: "DELETE FROM transactions WHERE transactionId = ?", arguments: [coffee]) }
            try db.close()
        }
        #expect(try await ledger.run("category", "rename", "Dining", "Eating out").status == 0)
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions)[coffee] == nil, "\(side): not back in the store")
        #expect(try ledger.sheetRows(.transactions)[coffee] == nil, "\(side): not back in the workbook")
        #expect(try ledger.sheetRows(.transactions).values.filter { $0[.category] == "Dining" }.isEmpty)
        #expect(try await ledger.run("sync").status == 0)
    }

    /// `category rename` while a row naming the old name is rejected for something else (a bad amount):
    /// once that row is fixed it is moved to the new name too (it became "unknown category").
    @Test func aRowRejectedDuringACategoryRenameIsMovedOnceFixed() async throws {
        let ledger = try await Ledger.synced()
        let id = "aaaaaaaa-0000-4000-8000-000000000001"
        let url = ledger.workbook.url(.transactions)
        let line = "\(id),expense,2026-02-05,2026,2,\"8,00\",Dining,,bad amount row,,,,2026-02-05T10:00:00.000Z,2026-02-05T10:00:00.000Z\n"
        try Data((try String(contentsOf: url, encoding: .utf8) + line).utf8).write(to: url)
        #expect(try await ledger.run("sync").status == 65)
        #expect(try await ledger.run("category", "rename", "Dining", "Food").status == 0)
        #expect(try await ledger.run("sync").status == 0)  // the rejected row stays rejected, as before
        let fixed = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"8,00\"", with: "8.00")
        try Data(fixed.utf8).write(to: url)
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions)[id]?[.category] == "Food")
        #expect(try ledger.sheetRows(.transactions)[id]?[.category] == "Food")
    }

    @Test func tabClearedToItsHeaderIsHeldUntilAllowed() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.recurringRules) { $0.rows = [] }  // 2 rules: far below the old threshold
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65)
        #expect(run.has(.massDelete, .heldBack, tab: .recurringRules), "\(run.stdout)")
        #expect(try ledger.storeRows(.recurringRules).count == 2)
        #expect(try ledger.sheetRows(.recurringRules).isEmpty)
        // `status` does not say all is well meanwhile.
        let held = try #require(try await ledger.run("status", "--json").decoded(as: StatusReport.self)?.heldBack)
        #expect(held.reasons.map(\.code) == [.massDelete] && held.reasons.first?.place.tab == .recurringRules, "\(held.reasons)")
        #expect(held.since.hasPrefix("20"), "\(held.since)")
        let terminal = try await ledger.run("status")
        #expect(terminal.stdout.contains("  \(held.reasons[0].text)\n"), "the terminal shows the same issue: \(terminal.stdout)")
        #expect(try await ledger.run("sync").status == 65)
        let allowed = try await ledger.run("sync", "--allow-mass-delete")
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try ledger.storeRows(.recurringRules).isEmpty)
        #expect(try await !ledger.run("status").stdout.contains("held back"))
        // And the deleted rows are kept for restore.
        let restore = try await ledger.run("restore", "--since", "2000-01-01")
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try ledger.storeRows(.recurringRules).count == 2)
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.recurringRules).count == 2)
    }

    @Test func initAfterTheWorkbookWentMissingRecreatesItFromTheStore() async throws {
        let ledger = try await Ledger.synced()
        try FileManager.default.removeItem(at: ledger.book)
        let sync = try await ledger.run("sync", "--json")
        #expect(sync.status == 78)
        #expect(sync.failureCode == .workbookMissing, "\(sync.stdout)")
        let initRun = try await ledger.run("init")
        #expect(initRun.status == 0, "\(initRun.stderr)")
        #expect(initRun.stdout.contains("recreated CSV workbook"), "\(initRun.stdout)")
        #expect(try ledger.sheetRows(.transactions).count == 10)
        #expect(try ledger.sheetRows(.categories).count == 7)
        let again = try await ledger.run("sync")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(try ledger.sheetRows(.transactions).count == 10)
    }

    @Test func syncWithNeitherWorkbookNorStoreCreatesNothingAndPointsAtInit() async throws {
        let folder = try TestWorkbook.scratch("empty")
        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 78)
        #expect(run.failure?["code"] as? String == IssueCode.notALedger.rawValue, "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func initDryRunInAnEmptyFolderCreatesNoFile() async throws {
        let folder = try TestWorkbook.scratch("empty")
        let run = try await CLI.run(["init", "--dry-run"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("create CSV workbook"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: [
        ["add", "expense", "--amount", "5", "--category", "Dining"],
        ["receipt", "add", DataSafetyTests.lunch, "receipt.jpg"],
        ["category", "rename", "Dining", "Eating out"],
        ["export", "snapshot", "--format", "csv"],
        ["import", "other"],
        ["materialize", "--through", "2026-12-31"],
        ["pull"], ["push"], ["sync"], ["init"], ["restore", "--since", "2000-01-01"],
    ])
    func dryRunChangesNotOneByte(_ command: [String]) async throws {
        let ledger = try await Ledger.synced()
        try Data("jpeg".utf8).write(to: ledger.folder.appendingPathComponent("receipt.jpg"))
        try FileManager.default.copyItem(
            at: CLI.repoRoot.appendingPathComponent("samples/hand-edited"),
            to: ledger.folder.appendingPathComponent("other"))
        try ledger.workbook.edit(.transactions) { $0.rows[0][8] = .text("edited by hand") }
        _ = try await ledger.run("add", "expense", "--amount", "7", "--category", "Dining")
        _ = try await ledger.run("restore", "--list")
        let before = try ledger.everyByte()
        let run = try await CLI.run(command + ["--dry-run"], in: ledger.folder)
        #expect([0, 65].contains(run.status), "\(command): \(run.stderr)")
        let after = try ledger.everyByte()
        #expect(
            after == before,
            "\(command) --dry-run changed \(Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted())")
    }

    @Test func readOnlyCommandsWriteNothing() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.everyByte()
        for command in [["status"], ["check"], ["status", "--json"], ["restore", "--list"]] {
            let run = try await CLI.run(command, in: ledger.folder)
            #expect(run.status == 0, "\(command): \(run.stderr)")
        }
        let after = try ledger.everyByte()
        #expect(after == before, "changed: \(Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted())")
    }

    @Test func categoryRenameReachesEverySheetRowIncludingOnesTheStoreNeverSaw() async throws {
        let ledger = try await Ledger.synced()
        // A row typed into the sheet after the last sync, still naming the old category.
        try ledger.workbook.edit(.transactions) { table in
            var row = table.rows[0]
            row[0] = .empty
            row[8] = .text("typed by hand")
            table.rows.append(row)
        }
        let rename = try await ledger.run("category", "rename", "Groceries", "Food")
        #expect(rename.status == 0, "\(rename.stderr)")
        let sync = try await ledger.run("sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        for rows in [try ledger.storeRows(.transactions), try ledger.sheetRows(.transactions)] {
            #expect(rows.count == 11)
            #expect(!rows.values.contains { $0[.category] == "Groceries" })
            #expect(rows.values.filter { $0[.category] == "Food" }.count == 4)
        }
        #expect(try ledger.sheetRows(.categories)["Food"] != nil && ledger.sheetRows(.categories)["Groceries"] == nil)
        let status = try #require(try await ledger.run("status", "--json").statusReport)
        #expect(status.nothingPending && status.rejected.isEmpty, "\(status)")
    }

    @Test func categoryRenamedByHandInTheSheetIsReportedWithTheRenameCommand() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.categories) { $0.rows[0][0] = .text("Food") }
        let sync = try await ledger.run("sync")
        #expect(sync.status == 65)
        #expect(sync.stderr.contains("sheetsync category rename 'Groceries' NEW_NAME"), "\(sync.stderr)")
        #expect(try ledger.storeRows(.transactions)[Self.groceries]?[.category] == "Groceries")
        #expect(try await ledger.run("category", "rename", "Groceries", "Food").status == 0)
        let fixed = try await ledger.run("sync")
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try ledger.sheetRows(.transactions)[Self.groceries]?[.category] == "Food")
        #expect(try ledger.storeRows(.transactions)[Self.groceries]?[.category] == "Food")
        #expect(try ledger.storeRows(.categories)["Groceries"] == nil)
    }

    @Test func importingTheSameHandEditedWorkbookTwiceAddsNothingTheSecondTime() async throws {
        let ledger = try await Ledger.synced()
        let other = try TestWorkbook.scratch("other")
        try TestWorkbook(folder: other).write(
            .transactions, header: TablePatcher.newHeader(Tab.transactions.schema),
            rows: [
                ["", "expense", "2026-03-01", "", "", "4.50", "Dining", "", "Coffee", "", "", "", "", ""],
                ["", "expense", "2026-03-01", "", "", "4.50", "Dining", "", "Coffee", "", "", "", "", ""],
                ["", "expense", "2026-03-02", "", "", "60.00", "Groceries", "", "Market", "", "", "", "", ""],
            ])
        let before = try Data(contentsOf: TestWorkbook(folder: other).url(.transactions))
        let first = try await ledger.run("import", other.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try ledger.storeRows(.transactions).count == 13)
        let second = try await ledger.run("import", other.path, "--json")
        #expect(second.status == 0, "\(second.stderr)")
        let report = try #require(second.report, "\(second.stdout)")
        #expect(report.tabs["Transactions"].map { $0.added + $0.updated } == 0, "\(second.stdout)")
        #expect(report.imported?.alreadyImported == 3, "\(second.stdout)")
        #expect(try ledger.storeRows(.transactions).count == 13)
        // The source file is never written.
        #expect(try Data(contentsOf: TestWorkbook(folder: other).url(.transactions)) == before)
    }

    /// An imported file's empty cell is "not given", not "clear it": the store keeps its emoji and colour
    /// (importing the hand-edited sample blanked them, nothing logged). A value the file
    /// does replace is kept in the conflict log, the way back for an overwrite.
    @Test func anImportKeepsStoreValuesTheFileLeavesEmptyAndLogsWhatItReplaces() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.categories)
        let dining = try #require(before["Dining"])
        #expect(!dining[.emoji].isEmpty && !dining[.colorHex].isEmpty)
        let other = try TestWorkbook.scratch("other")
        var row = Tab.categories.schema.fields.map { dining[$0.key] }
        row[Tab.categories.schema.fields.firstIndex { $0.name == "emoji" }!] = ""
        row[Tab.categories.schema.fields.firstIndex { $0.name == "colorHex" }!] = "#000000"
        try TestWorkbook(folder: other).write(.categories, header: TablePatcher.newHeader(Tab.categories.schema), rows: [row])
        let run = try await ledger.run("import", other.path)
        #expect(run.status == 0, "\(run.stderr)")
        let after = try #require(try ledger.storeRows(.categories)["Dining"])
        #expect(after[.emoji] == dining[.emoji], "an empty cell leaves the store's value")
        #expect(after[.colorHex] == "#000000", "a value given replaces it")
        let status = try await ledger.run("status", "--json")
        #expect(status.stdout.contains(dining[.colorHex]), "the replaced colour is in the conflict log: \(status.stdout)")
        // A column of the file's own is named as not imported (it was dropped without a word).
        try TestWorkbook(folder: other).write(
            .categories, header: TablePatcher.newHeader(Tab.categories.schema) + ["Budget"], rows: [row + ["300"]])
        let extra = try await ledger.run("import", other.path)
        #expect(
            extra.stdout.contains("'Budget' are not ledger fields") || extra.stderr.contains("'Budget' are not ledger fields"),
            "\(extra.stdout)\(extra.stderr)")
    }

    /// The hand-edited sample holds two rows with one id (a copy-paste) and a category with empty
    /// times: the copy gets an id of its own once, and a second import adds and changes nothing.
    @Test func importingAFileWithACopiedRowTwiceAddsTheCopyOnceAndChangesNothingElse() async throws {
        let ledger = try await Ledger.synced()
        let source = CLI.repoRoot.appendingPathComponent("samples/hand-edited")
        let first = try await ledger.run("import", source.path)
        #expect(first.status == 65, "rows of the sample are rejected: \(first.stderr)")
        let pizza = try ledger.storeRows(.transactions).values.filter { $0[.note] == "Pizza night" }
        #expect(pizza.count == 2, "both copies are loaded, under two ids")
        let after = try Tab.allCases.map { try ledger.storeRows($0) }
        let second = try await ledger.run("import", source.path)
        #expect(second.status == 65, "\(second.stderr)")
        #expect(second.stdout.contains("imported 0 transactions"), "\(second.stdout)")
        #expect(try Tab.allCases.map { try ledger.storeRows($0) } == after)
    }

    @Test func exportNeverOverwritesTheLiveWorkbookOrAnotherOneWithoutForce() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.transactions) { $0.rows[0][8] = .text("unsynced hand edit") }
        let before = try ledger.workbook.allBytes()
        let live = try await CLI.run(["export", "book", "--format", "csv", "--force"], in: ledger.folder)
        #expect(live.status == 78, "a refusal that protects the workbook, not a usage error")
        #expect(live.stderr.contains("is the configured workbook"))
        let dot = try await CLI.run(["export", ".", "--format", "csv", "--config", "../sheetsync.json"], in: ledger.book)
        #expect(dot.status == 78, "\(dot.stderr)")
        #expect(try ledger.workbook.allBytes() == before)
        #expect(try await ledger.run("export", "copy", "--format", "csv").status == 0)
        let again = try await ledger.run("export", "copy", "--format", "csv")
        #expect(again.status == 78)
        #expect(again.stderr.contains("add --force"))
        #expect(try await ledger.run("export", "copy", "--format", "csv", "--force").status == 0)
        #expect(
            try TestWorkbook(folder: ledger.folder.appendingPathComponent("copy")).records(
                .transactions, now: Timestamp(millisecondsSinceEpoch: 0)
            ).count == 10)
    }

    /// The folder moved, the README's hint followed (`init` recreated it at the old place from the store),
    /// then the config corrected to the moved folder: a workbook the base never agreed with. The rows it
    /// lacks are not deletions: a union by id, nothing deleted (a row added after the move
    /// was deleted, exit 0).
    @Test func aWorkbookAtAnotherPlaceIsMergedByIdNotDiffedAgainstTheOldOnesBase() async throws {
        let ledger = try await Ledger.synced()
        let moved = ledger.folder.appendingPathComponent("book-moved")
        try FileManager.default.moveItem(at: ledger.book, to: moved)
        let added = try await ledger.run("add", "expense", "--amount", "4.00", "--category", "Dining", "--note", "after the move")
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await ledger.run("sync").status == 78)
        #expect(try await ledger.run("init").status == 0)
        let config = #"{"store": "ledger.sqlite", "remote": {"type": "csv", "path": "book-moved"}}"#
        try Data(config.utf8).write(to: ledger.folder.appendingPathComponent("sheetsync.json"))
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("the workbook is now") || run.stderr.contains("the workbook is now"), "\(run.stdout)\(run.stderr)")
        #expect(try ledger.storeRows(.transactions)[id]?[.note] == "after the move", "the row added after the move stays")
        #expect(try TestWorkbook(folder: moved).records(.transactions, now: Timestamp(millisecondsSinceEpoch: 0))[id] != nil)
        #expect(try ledger.storeRows(.transactions).count == 11)
        // And then it is the workbook: a delete there is a delete again (the newest row's, the second time:
        // the first looks like an older copy's).
        #expect(try await ledger.run("sync").status == 0)
        try TestWorkbook(folder: moved).edit(.transactions) { $0.rows.removeAll { $0.first?.rawText == id } }
        #expect(try await ledger.run("sync").status == 65)
        try TestWorkbook(folder: moved).edit(.transactions) { $0.rows.removeAll { $0.first?.rawText == id } }
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.storeRows(.transactions)[id] == nil)
        // A ledger folder copied whole (store and workbook together) is the same ledger: no merge, no note.
        let copy = try TestWorkbook.scratch("copied")
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: ledger.folder, to: copy)
        try TestWorkbook(folder: copy.appendingPathComponent("book-moved")).edit(.transactions) { $0.rows[0][8] = .text("edited") }
        let copied = try await CLI.run(["sync"], in: copy)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(!(copied.stdout + copied.stderr).contains("the workbook is now"), "\(copied.stdout)\(copied.stderr)")
    }

    /// Nor, even with --force, over a file the ledger lives in: a tab file of the CSV workbook, the store,
    /// the config (each was replaced, exit 0, and every later run failed).
    @Test func exportNeverOverwritesATabFileTheStoreOrTheConfig() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.everyByte()
        for (target, what) in [
            ("book/Transactions.csv", "a tab file of the configured workbook"), ("ledger.sqlite", "the store's file"),
            ("sheetsync.json", "the config file"),
        ] {
            let run = try await ledger.run("export", target, "--format", "xlsx", "--force")
            #expect(run.status == 78, "\(target): \(run.stderr)")
            #expect(run.stderr.contains("is \(what)"), "\(run.stderr)")
        }
        #expect(try ledger.everyByte() == before)
        #expect(try await ledger.run("sync").status == 0)
        // A path ending in .xlsx is an XLSX file without --format (it made a folder named book.xlsx).
        #expect(try await ledger.run("export", "snapshot.xlsx").status == 0)
        var isFolder: ObjCBool = true
        #expect(FileManager.default.fileExists(atPath: ledger.folder.appendingPathComponent("snapshot.xlsx").path, isDirectory: &isFolder))
        #expect(!isFolder.boolValue)
    }

    /// A path of the wrong kind is refused (78) naming it, and a missing folder on the way is made:
    /// never exit 1 ("internal error") for a user's choice of path, never a byte of the path changed.
    @Test func exportToAPathOfTheWrongKindIsRefusedNamingIt() async throws {
        let ledger = try await Ledger.synced()
        let notes = ledger.folder.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: notes)
        let csvOverFile = try await ledger.run("export", notes.path, "--format", "csv")
        #expect(csvOverFile.status == 78, "\(csvOverFile.stderr)")
        #expect(csvOverFile.stderr.contains("\(notes.path) is a file; a CSV export writes a folder"), "\(csvOverFile.stderr)")
        let xlsxOverFile = try await ledger.run("export", notes.path, "--format", "xlsx")
        #expect(xlsxOverFile.status == 78, "\(xlsxOverFile.stderr)")
        #expect(
            xlsxOverFile.stderr.contains("\(notes.path) already exists") && !xlsxOverFile.stderr.contains("workbook;"),
            "\(xlsxOverFile.stderr)")
        #expect(try Data(contentsOf: notes) == Data("mine".utf8))
        let folder = ledger.folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xlsxIntoFolder = try await ledger.run("export", folder.path, "--format", "xlsx")
        #expect(xlsxIntoFolder.status == 78, "\(xlsxIntoFolder.stderr)")
        #expect(xlsxIntoFolder.stderr.contains("\(folder.path) is a folder"), "\(xlsxIntoFolder.stderr)")
        let nested = ledger.folder.appendingPathComponent("exports/2026/book.xlsx")
        let made = try await ledger.run("export", nested.path, "--format", "xlsx")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: nested.path))
        let dry = try await ledger.run(
            "export", ledger.folder.appendingPathComponent("later/book.xlsx").path, "--format", "xlsx", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ledger.folder.appendingPathComponent("later").path))
    }

    @Test func storeRowWithAnUnknownCategoryIsHeldBackAndListed() async throws {
        let ledger = try await Ledger.synced()
        let id = "0b7d6a7e-1111-4222-8333-444455556666"
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO transactions (transactionId, type, date, amount, category, note) VALUES (?, 'expense', '2026-02-01', '9.99', 'Nope', 'by sql')
                    """, arguments: [id])
        }
        try db.close()
        let run = try await ledger.run("sync")
        #expect(run.status == 65)
        #expect(run.stderr.contains("Transactions (store row) (\(id)): unknown category 'Nope' in the store"), "\(run.stderr)")
        // The header says where the row waits: in the store, not in the workbook.
        #expect(run.stderr.contains("1 row(s) could not be loaded (1 held back in the store, not pushed):"), "\(run.stderr)")
        #expect(try ledger.sheetRows(.transactions)[id] == nil)
        #expect(try ledger.storeRows(.transactions)[id]?[.category] == "Nope")
        let again = try await ledger.run("sync")
        #expect(again.status == 0, "\(again.stderr)")
        let status = try #require(try await ledger.run("status", "--json").statusReport)
        #expect(status.rejected.map(\.code) == [.unknownCategory], "\(status.rejected)")
    }

    /// A tab cleared down to its header is held (65); a store edit to one of its rows before the next
    /// run must not let the others be deleted (it did: exit 0, 8 of 9 rows gone, silent).
    @Test func aClearedTabStaysHeldAfterAStoreEditToOneOfItsRows() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.transactions)
        try ledger.workbook.edit(.transactions) { $0.rows = [] }
        let cleared = try Data(contentsOf: ledger.workbook.url(.transactions))
        let held = try await ledger.run("sync")
        #expect(held.status == 65)
        // The sample's receipt points at a transaction the store still has: not "does not exist", which
        // sent the user to delete the receipt.
        #expect(held.stderr.contains("is gone from the workbook (the store still has it)"), "\(held.stderr)")
        #expect(!held.stderr.contains("does not exist"), "\(held.stderr)")
        let edited = try #require(before.keys.sorted().first)
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write { try $0.execute(sql: "UPDATE transactions SET note = 'paid' WHERE transactionId = ?", arguments: [edited]) }
        try db.close()
        let run = try await ledger.run("sync", "--quiet", "--json")
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.has(.massDelete, .heldBack, tab: .transactions), "\(run.stdout)")
        let after = try ledger.storeRows(.transactions)
        #expect(Set(after.keys) == Set(before.keys), "no row deleted from the store")
        #expect(after[edited]?[.note] == "paid")
        #expect(try Data(contentsOf: ledger.workbook.url(.transactions)) == cleared, "the workbook is not written")
    }

    @Test func olderCopySavedOverTheFileLosesNoRowAddedSince() async throws {
        let ledger = try await Ledger.synced()
        let old = try Data(contentsOf: ledger.workbook.url(.transactions))
        var added: [String] = []
        for amount in ["1.00", "2.00", "3.00"] {
            let run = try await ledger.run("add", "expense", "--amount", amount, "--category", "Dining")
            added.append(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.transactions).count == 13)
        try old.write(to: ledger.workbook.url(.transactions))
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65)
        #expect(run.has(.olderCopy, .heldBack, tab: .transactions), "\(run.stdout)")
        #expect(try ledger.storeRows(.transactions).count == 13)
        #expect(try Set(ledger.sheetRows(.transactions).keys).isSuperset(of: added))
        #expect(try await ledger.run("sync").status == 0)
    }

    /// The commonest old copy: the file was open in a spreadsheet program while a sync pushed new rows,
    /// and the user typed one expense (no id, empty times) and saved. The typed row's time is the time
    /// of this read, not the copy's: it must not make the copy look new (it did: every pushed
    /// row was deleted, exit 0, nothing said).
    @Test func olderCopySavedWithOneTypedRowLosesNoRowAddedSince() async throws {
        let ledger = try await Ledger.synced()
        let old = try Data(contentsOf: ledger.workbook.url(.transactions))
        var added: [String] = []
        for amount in ["43.00", "44.00"] {
            let run = try await ledger.run("add", "expense", "--amount", amount, "--category", "Dining")
            added.append(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(try await ledger.run("sync").status == 0)
        let store = try ledger.storeRows(.transactions)
        #expect(store.count == 12)
        try old.write(to: ledger.workbook.url(.transactions))
        try ledger.workbook.edit(.transactions) { table in
            var row = [Cell](repeating: .empty, count: table.header.count)
            for (name, value) in [
                ("type", "expense"), ("date", "2026-09-01"), ("amount", "1.00"), ("category", "Dining"), ("note", "typed"),
            ] {
                row[table.header.firstIndex(of: name)!] = .text(value)
            }
            table.rows.append(row)
        }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        #expect(run.has(.olderCopy, .heldBack, tab: .transactions), "\(run.stdout)")
        let after = try ledger.storeRows(.transactions)
        for id in added { #expect(after[id] == store[id], "row \(id) added since the copy was made") }
        #expect(after.values.contains { $0[.note] == "typed" }, "the typed row loads")
        #expect(try Set(ledger.sheetRows(.transactions).keys).isSuperset(of: added))
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.storeRows(.transactions).count == 13)
    }

    /// A file cut at a line end (the first rows kept, the rest gone) looks like an older copy: its
    /// newer rows are written back, and so are the older ones it lacks. A tab that looks like an old
    /// copy deletes nothing, on this run or the next.
    @Test func fileCutAtALineEndDeletesNothingNowOrOnTheNextRun() async throws {
        let ledger = try await Ledger.synced()
        for amount in ["1.00", "2.00", "3.00"] {
            #expect(try await ledger.run("add", "expense", "--amount", amount, "--category", "Dining").status == 0)
        }
        #expect(try await ledger.run("sync").status == 0)
        let all = try ledger.storeRows(.transactions)
        #expect(all.count == 13)
        try ledger.workbook.edit(.transactions) { table in table.rows = Array(table.rows.prefix(5)) }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65)
        #expect(run.has(.olderCopy, .heldBack, tab: .transactions), "\(run.stdout)")
        #expect(try ledger.storeRows(.transactions) == all)
        #expect(try Set(ledger.sheetRows(.transactions).keys) == Set(all.keys))
        let next = try await ledger.run("sync")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try ledger.storeRows(.transactions) == all)
        #expect(try Set(ledger.sheetRows(.transactions).keys) == Set(all.keys))
    }

    /// The newest row deleted by hand looks to a sync exactly like a row an older copy saved over the
    /// workbook never had (cron added it while the file was open): it is written back once, with 65 and
    /// what to do; deleted again, it goes, without a flag.
    @Test func deletingTheNewestRowByHandTakesASecondDeleteWithoutAFlag() async throws {
        let ledger = try await Ledger.synced()
        let id = try await ledger.run("add", "expense", "--amount", "1.00", "--category", "Dining").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await ledger.run("sync").status == 0)
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0.first?.rawText == id } }
        let first = try await ledger.run("sync", "--json")
        #expect(first.status == 65, "\(first.stderr)")
        let held = first.issues.filter { $0.code == .olderCopy && $0.severity == .heldBack && $0.place.tab == .transactions }
        #expect(held.count == 1 && held[0].message.contains(id) && held[0].message.contains("delete it again"), "\(first.stdout)")
        #expect(try ledger.storeRows(.transactions)[id] != nil)
        #expect(try ledger.sheetRows(.transactions)[id] != nil, "written back")
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0.first?.rawText == id } }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions)[id] == nil)
        // Said, with the way back (a sync that deleted store rows printed nothing).
        let said = run.issues.filter { $0.code == .rowsDeleted && $0.severity == .notice && $0.place.tab == .transactions }
        #expect(said.count == 1 && said[0].message.contains(id) && said[0].message.contains("restore --list"), "\(run.stdout)")
        // Kept for restore, and restored as a local change the next sync pushes.
        #expect(try await ledger.run("restore", id).status == 0)
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.transactions)[id] != nil)
    }

    /// `restore --list` keeps listing a restored row (the log is kept) but says it is in the store again.
    @Test func restoreListSaysWhichRowsAreBackInTheStore() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0.first?.rawText == Self.lunch } }
        #expect(try await ledger.run("sync").status == 0)
        let listed = try await ledger.run("restore", "--list")
        let what = "2026-01-03 expense 18.75 Dining \"Lunch with Sam\""
        #expect(listed.stdout.contains("Transactions \(Self.lunch) \(what) (deleted in the workbook)\n"), "\(listed.stdout)")
        #expect(try await ledger.run("restore", Self.lunch).status == 0)
        #expect(try ledger.storeRows(.transactions)[Self.lunch] != nil)
        let after = try await ledger.run("restore", "--list")
        #expect(
            after.stdout.contains("Transactions \(Self.lunch) \(what) (deleted in the workbook; in the store again)"), "\(after.stdout)")
        let json = try await ledger.run("restore", "--list", "--json")
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.contains { $0["id"] as? String == Self.lunch && $0["inStore"] as? Bool == true } == true, "\(json.stdout)")
    }

    /// `--since` compares instants: any ISO 8601 offset, or a date; anything else is a usage error.
    @Test func restoreSinceReadsItsTimeAndRefusesWhatIsNoTime() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0.first?.rawText == Self.lunch } }
        #expect(try await ledger.run("sync").status == 0)
        let listed = try await ledger.run("restore", "--list", "--json")
        let deletedAt = try #require((listed.stdout.split(separator: "\"").drop { $0 != "deletedAt" }.dropFirst(2).first).map(String.init))
        let at = try #require(Timestamp(iso: deletedAt))
        func shown(_ t: Timestamp, hours: Int) -> String {  // the same instant written at UTC+hours
            let local = t.adding(milliseconds: Int64(hours) * 3_600_000).description.dropLast()
            return local + (hours >= 0 ? "+" : "-") + String(format: "%02d:00", abs(hours))
        }
        for (since, found) in [
            (shown(at, hours: 1), true), (shown(at.adding(milliseconds: 1000), hours: 1), false),
            (shown(at, hours: -5), true), (shown(at.adding(milliseconds: 1000), hours: -5), false),
            ("2000-01-01", true), ("2999-01-01", false),
        ] {
            let run = try await ledger.run("restore", "--list", "--since", since)
            #expect(run.status == 0, "\(since): \(run.stderr)")
            #expect(run.stdout.contains(Self.lunch) == found, "\(since): \(run.stdout)")
        }
        for bad in ["yesterday", "2026-13-01"] {
            let run = try await ledger.run("restore", "--since", bad)
            #expect(run.status == 64, "\(bad): \(run.stderr)")
            #expect(run.stderr.contains("--since '\(bad)' is neither a date"), "\(run.stderr)")
        }
        #expect(try ledger.storeRows(.transactions)[Self.lunch] == nil)
    }

    @Test func strayOpeningQuoteSwallowingRowsDeletesNothing() async throws {
        let ledger = try await Ledger.synced()
        let url = ledger.workbook.url(.transactions)
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: ",Lunch with Sam,", with: ",\"Lunch with Sam,")
        try Data(text.utf8).write(to: url)
        let before = try Data(contentsOf: url)
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65)
        #expect(run.report?.rejected.contains { $0.code == .damagedRow && $0.tab == .transactions && $0.row == 3 } == true, "\(run.stdout)")
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func xlsxWorkbookMissingItsTransactionsSheetDeletesNothing() async throws {
        let ledger = try await Ledger.synced()
        let book = ledger.folder.appendingPathComponent("book.xlsx")
        #expect(try await ledger.run("export", book.path, "--format", "xlsx").status == 0)
        try Data(#"{"store": "x.sqlite", "remote": {"type": "xlsx", "path": "book.xlsx"}}"#.utf8)
            .write(to: ledger.folder.appendingPathComponent("sheetsync.json"))
        #expect(try await ledger.run("sync").status == 0)
        let sheets = try XLSXReader.read(contentsOf: book).filter { $0.name != "Transactions" }
        try FileManager.default.removeItem(at: book)
        try XLSXWriter.write(sheets, to: book)
        let before = try Data(contentsOf: book)
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65)
        #expect(
            run.issues.contains { $0.code == .unreadableTab && $0.place.tab == .transactions && $0.message.contains(book.path) },
            "\(run.stdout)")

        let store = Ledger(folder: ledger.folder, book: ledger.book, store: ledger.folder.appendingPathComponent("x.sqlite"))
        #expect(try store.storeRows(.transactions).count == 10)
        #expect(try Data(contentsOf: book) == before)
    }

    @Test func aPushedStoreDeleteLeavesNoTombstoneSoQuietRunsStayCheap() async throws {
        let ledger = try await Ledger.synced()
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write { try $0.execute(sql: "DELETE FROM transactions WHERE transactionId = ?", arguments: [Self.lunch]) }
        try db.close()
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.transactions)[Self.lunch] == nil)
        let quiet = try await ledger.run("sync", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(quiet.stdout.utf8)) as? [String: Any])
        #expect(json["upToDate"] as? Bool == true, "\(quiet.stdout)")
        // Pull does not carry the delete to the workbook, so it keeps the tombstone for the next push.
        let other = try await Ledger.synced()
        let db2 = try DatabaseQueue(path: other.store.path)
        try await db2.write { try $0.execute(sql: "DELETE FROM transactions WHERE transactionId = ?", arguments: [Self.lunch]) }
        try db2.close()
        #expect(try await other.run("pull").status == 0)
        #expect(try other.sheetRows(.transactions)[Self.lunch] != nil)
        #expect(try await other.run("push").status == 0)
        #expect(try other.sheetRows(.transactions)[Self.lunch] == nil)
    }
}
