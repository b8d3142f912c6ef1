import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// Receipts and their transactions, rejected rows and what a run reports, each through the binary with
/// both sides' contents checked.
@Suite struct ReceiptsRejectionsAndReportsTests {
    static let groceries = "d0330d34-4aee-5839-975f-88e2125b8df1"

    /// The synced sample with a second receipt (of another transaction), so that deleting one is not
    /// deleting every receipt (which the mass-delete guard holds back).
    static func twoReceipts() async throws -> Ledger {
        let ledger = try await Ledger.synced()
        try CostFollowsChangeTests.sql(
            ledger,
            """
            INSERT INTO receipts (receiptId, transactionId, driveFileId, fileName, createdAt, lastModifiedAt)
            VALUES ('5f0c3d1e-0000-4000-8000-000000000001', '1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9', 'lunch.jpg', 'lunch.jpg',
            '2026-01-04T09:00:00.000Z', '2026-01-04T09:00:00.000Z')
            """)
        let push = try await ledger.run("sync")
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(try ledger.sheetRows(.receipts).count == 2)
        return ledger
    }

    /// A transaction and its receipt deleted together in the store: both deletions reach the workbook
    /// (the receipt was rejected as pointing at a transaction that no longer exists, and stayed in the
    /// workbook and pending for good).
    @Test func aReceiptDeletedInTheStoreWithItsTransactionLeavesTheWorkbook() async throws {
        let ledger = try await Self.twoReceipts()
        let receipt = try #require(ledger.storeRows(.receipts).values.first { $0[.transactionId] == Self.groceries })
        #expect(try ledger.sheetRows(.receipts)[receipt[.receiptId]] != nil)
        try CostFollowsChangeTests.sql(
            ledger,
            "DELETE FROM receipts WHERE transactionId = '\(Self.groceries)'; DELETE FROM transactions WHERE transactionId = '\(Self.groceries)'"
        )
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try ledger.sheetRows(.transactions)[Self.groceries] == nil)
        #expect(try ledger.sheetRows(.receipts)[receipt[.receiptId]] == nil)
        #expect(try ledger.sheetRows(.receipts) == ledger.storeRows(.receipts))
        #expect(try ledger.sheetRows(.transactions) == ledger.storeRows(.transactions))
        let status = try #require(try await ledger.run("status", "--json").statusReport)
        #expect(status.nothingPending && status.rejected.isEmpty, "\(status)")
    }

    /// A receipt row edited in the workbook while the store deleted it and its transaction: the edit
    /// beats the delete, and the receipt (pointing at a transaction that is gone) is rejected as before.
    @Test func aReceiptEditedInTheWorkbookWhileDeletedInTheStoreIsStillChecked() async throws {
        let ledger = try await Self.twoReceipts()
        let receipt = try #require(ledger.storeRows(.receipts).values.first { $0[.transactionId] == Self.groceries })
        try CostFollowsChangeTests.sql(
            ledger,
            "DELETE FROM receipts WHERE transactionId = '\(Self.groceries)'; DELETE FROM transactions WHERE transactionId = '\(Self.groceries)'"
        )
        try ledger.workbook.edit(.receipts) { table in
            let row = try! #require(table.rows.firstIndex { $0[0].rawText == receipt[.receiptId] })
            let column = try! #require(table.header.firstIndex(of: "fileName"))
            table.rows[row][column] = .text("renamed by hand.jpg")
        }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        #expect(
            run.report?.rejected.contains { $0.code == .unknownTransaction && $0.tab == .receipts && $0.id == receipt[.receiptId] } == true,
            "\(run.stdout)")
        let cells = try ledger.workbook.table(.receipts).rows.map { $0.map(\.rawText) }
        #expect(cells.contains { $0.contains("renamed by hand.jpg") })
    }

    /// A Categories row typed without a name is rejected with a clear message: a name cannot be made
    /// up (a sync gave it a random UUID as its name).
    @Test func aCategoryWithoutANameIsRejectedNotNamedByAnID() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.categories)
        let url = ledger.workbook.url(.categories)
        var text = try String(contentsOf: url, encoding: .utf8)
        if !text.hasSuffix("\n") { text += "\r\n" }
        text += ",expense,,,TRUE,9,2026-01-01T09:00:00.000Z,2026-01-01T09:00:00.000Z\r\n"
        try Data(text.utf8).write(to: url)
        let fileBefore = try Data(contentsOf: url)
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        let rejected = run.report?.rejected ?? []
        #expect(rejected.map { "\($0.code.rawValue) \($0.tab.rawValue) \($0.row)" } == ["missing-value Categories 9"], "\(run.stdout)")
        #expect(rejected.first?.message.hasSuffix(" name") == true, "the message names the column: \(run.stdout)")

        #expect(try ledger.storeRows(.categories) == before)
        #expect(try Data(contentsOf: url) == fileBefore)
    }

    /// A pull that finds an old copy of a row deleted since does not say it deleted it from the
    /// workbook (a pull writes nothing there): it says the next sync or push will, and the next sync does.
    @Test func aPullSaysTheNextSyncDeletesAnOldCopyAgain() async throws {
        let ledger = try await Ledger.synced()
        let lunch = DataSafetyTests.lunch
        let old = try Data(contentsOf: ledger.workbook.url(.transactions))
        try CostFollowsChangeTests.sql(ledger, "DELETE FROM transactions WHERE transactionId = '\(lunch)'")
        #expect(try await ledger.run("sync").status == 0)
        try old.write(to: ledger.workbook.url(.transactions))
        let pull = try await ledger.run("pull")
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(!pull.stdout.contains("deleted there again"), "\(pull.stdout)")
        #expect(pull.stdout.contains("the next sync or push deletes it there again"), "\(pull.stdout)")
        #expect(try Data(contentsOf: ledger.workbook.url(.transactions)) == old)
        #expect(try ledger.storeRows(.transactions)[lunch] == nil)
        let sync = try await ledger.run("sync")
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(try ledger.sheetRows(.transactions)[lunch] == nil)
    }

    /// A run the mass-delete guard holds back lists, under --verbose, what it held back as such, and
    /// reports no change done (it did none), in text and in --json.
    @Test func aHeldBackRunDoesNotReportItsPlanAsDone() async throws {
        let ledger = try await Ledger.synced()
        try CostFollowsChangeTests.sql(ledger, "DELETE FROM receipts")
        let before = try ledger.everyByte().filter { !$0.key.hasPrefix("ledger.sqlite") }
        let run = try await ledger.run("sync", "--verbose")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("nothing was changed"), "\(run.stderr)")
        let deletes = run.stdout.split(separator: "\n").filter { $0.contains("delete row") }
        #expect(!deletes.isEmpty && deletes.allSatisfy { $0.hasPrefix("held back: ") }, "\(run.stdout)")
        #expect(!run.stdout.contains("workbook +0 ~0 -1"), "\(run.stdout)")
        let json = try await ledger.run("sync", "--json")
        #expect(json.status == 65)
        let report = try JSONDecoder().decode(SyncReport.self, from: Data(json.stdout.utf8))
        #expect(!report.hasChanges, "\(json.stdout)")
        #expect(report.changes.allSatisfy { $0.hasPrefix("held back: ") }, "\(json.stdout)")
        #expect(try ledger.everyByte().filter { !$0.key.hasPrefix("ledger.sqlite") } == before)
    }

    /// A row rejected for an unknown category is kept in the rejected-row log with its cells as read,
    /// in column order (the log had none for it).
    @Test func aRowRejectedForItsCategoryIsLoggedWithItsCells() async throws {
        let ledger = try await Ledger.synced()
        var expected: [String] = []
        try ledger.workbook.edit(.transactions) { table in
            let column = table.header.firstIndex(of: "category")!
            table.rows[2][column] = .text("Fod")
            expected = table.rows[2].map(\.rawText)
        }
        let run = try await ledger.run("sync")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        let logged = try await DatabaseQueue(path: ledger.store.path).read { db in
            try String.fetchAll(db, sql: "SELECT rawCells FROM sync_rejected WHERE code = 'unknown-category'")
        }
        #expect(logged.count == 1)
        let cells = try JSONDecoder().decode([String].self, from: Data((logged.first ?? "[]").utf8))
        #expect(cells == expected, "\(logged)")
    }

    /// `--verbose` prints what a real run did row by row, as its help says (it printed only totals; a
    /// dry run listed the rows).
    @Test func verboseListsWhatARealRunDidRowByRow() async throws {
        let ledger = try Ledger.unsynced()
        let dry = try await ledger.run("pull", "--dry-run")
        let real = try await ledger.run("pull", "--verbose")
        #expect(real.status == 0, "\(real.stdout)\(real.stderr)")
        let added = dry.stdout.split(separator: "\n").filter { $0.hasPrefix("store ") }
        #expect(added.count == 21, "\(dry.stdout)")
        #expect(real.stdout.split(separator: "\n").filter { $0.hasPrefix("store ") } == added, "\(real.stdout)")
        try ledger.workbook.edit(.transactions) { table in table.rows[0][8] = .text("edited by hand") }
        let sync = try await ledger.run("sync", "--verbose")
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        let id = try ledger.workbook.table(.transactions).rows[0][0].rawText
        let edited = sync.stdout.split(separator: "\n").filter { $0.hasPrefix("store Transactions \(id): ") }
        #expect(edited.count == 1 && edited[0].contains("→ 'edited by hand'"), "\(sync.stdout)")
        let quiet = try await ledger.run("sync")
        #expect(!quiet.stdout.contains("store "), "\(quiet.stdout)")
    }

    /// `--json` gives each rejected row the time it was first seen, as the rejected-row log has it
    /// (it was empty).
    @Test func jsonRejectionsSayWhenTheyWereFirstSeen() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.transactions) { table in table.rows[2][table.header.firstIndex(of: "category")!] = .text("Fod") }
        let first = try await ledger.run("sync", "--json")
        #expect(first.status == 65)
        let logged = try await DatabaseQueue(path: ledger.store.path).read { db in
            try String.fetchOne(db, sql: "SELECT firstSeenAt FROM sync_rejected")
        }
        let report = try JSONDecoder().decode(SyncReport.self, from: Data(first.stdout.utf8))
        #expect(report.rejected.map(\.firstSeenAt) == [try #require(logged)])
        #expect(report.rejected.map(\.code) == [.unknownCategory], "\(first.stdout)")
        let again = try await ledger.run("sync", "--json")
        let later = try JSONDecoder().decode(SyncReport.self, from: Data(again.stdout.utf8))
        #expect(later.rejected.map(\.firstSeenAt) == [try #require(logged)])
    }

    /// A transaction deleted from the workbook while a receipt still points at it stays in the store
    /// (the run exits 65 and says why) instead of leaving the store's receipt pointing at nothing; once
    /// the receipt row goes too, both are deleted, and `restore` has them.
    @Test func aTransactionWithAReceiptIsNotDeletedFromUnderIt() async throws {
        let ledger = try await Self.twoReceipts()
        let receipt = try #require(ledger.storeRows(.receipts).values.first { $0[.transactionId] == Self.groceries })
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0[0].rawText == Self.groceries } }
        let run = try await ledger.run("sync")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains(Self.groceries) && run.stderr.contains(receipt[.receiptId]), "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions)[Self.groceries] != nil)
        #expect(try ledger.storeRows(.receipts)[receipt[.receiptId]] == receipt)
        #expect(try ledger.sheetRows(.transactions)[Self.groceries] == nil)
        try ledger.workbook.edit(.receipts) { table in table.rows.removeAll { $0[0].rawText == receipt[.receiptId] } }
        let both = try await ledger.run("sync")
        #expect(both.status == 0, "\(both.stdout)\(both.stderr)")
        #expect(try ledger.storeRows(.transactions)[Self.groceries] == nil)
        #expect(try ledger.storeRows(.receipts)[receipt[.receiptId]] == nil)
        #expect(try ledger.storeRows(.receipts).values.allSatisfy { try ledger.storeRows(.transactions)[$0[.transactionId]] != nil })
        let restorable = try await ledger.run("restore", "--list")
        #expect(restorable.stdout.contains(Self.groceries) && restorable.stdout.contains(receipt[.receiptId]), "\(restorable.stdout)")
    }

    /// In a folder with neither a workbook nor a store, a command that edits the store refuses (78)
    /// and creates nothing (`materialize` made a stray store and exited 0; `category add` then worked on it).
    @Test func editingCommandsRefuseWhereThereIsNoLedger() async throws {
        let folder = try TestWorkbook.scratch("no-ledger")
        for command in [
            ["materialize"], ["category", "add", "Pets"], ["add", "expense", "--amount", "5", "--category", "Dining"],
            ["restore", "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"],
        ] {
            let run = try await CLI.run(command, in: folder)
            #expect(run.status == 78, "\(command): \(run.status) \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("sheetsync init"), "\(command): \(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "\(command) created files")
        }
        // With a workbook, a first command still starts the store as before.
        let ledger = try Ledger.unsynced()
        #expect(try await ledger.run("materialize").status == 0)
    }

    /// `category rename` into a name that differs only in case from another category is refused, as
    /// `category add` refuses it (it made 'Dining' and 'dining'); renaming a category to its own name in
    /// another case still works.
    @Test func aRenameIntoAnotherCategorysNameInOtherCaseIsRefused() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.categories)
        let run = try await ledger.run("category", "rename", "Groceries", "dining")
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("'Dining' exists already"), "\(run.stderr)")
        #expect(try ledger.storeRows(.categories) == before)
        let own = try await ledger.run("category", "rename", "Groceries", "GROCERIES")
        #expect(own.status == 0, "\(own.stdout)\(own.stderr)")
        #expect(try ledger.storeRows(.categories)["GROCERIES"] != nil)
    }

    /// `import --verbose` lists what goes into the store, not fixes to the imported file, which an import
    /// never writes (it listed `workbook … set …` lines).
    @Test func importVerboseListsNoWorkbookWrites() async throws {
        let ledger = try await Ledger.synced()
        let other = ledger.folder.appendingPathComponent("other")
        try FileManager.default.copyItem(at: CLI.repoRoot.appendingPathComponent("samples/hand-edited"), to: other)
        let before = try FileManager.default.contentsOfDirectory(atPath: other.path).sorted().map {
            try Data(contentsOf: other.appendingPathComponent($0))
        }
        let run = try await ledger.run("import", "other", "--verbose")
        #expect(run.stdout.contains("store Transactions add"), "\(run.stdout)")
        #expect(!run.stdout.contains("workbook "), "\(run.stdout)")
        let after = try FileManager.default.contentsOfDirectory(atPath: other.path).sorted().map {
            try Data(contentsOf: other.appendingPathComponent($0))
        }
        #expect(after == before)
    }
}
