import Foundation
import GRDB
import SheetSyncCore
import Testing
import Workbook

/// What session 11's user trial found, each through the binary with both sides' contents checked.
@Suite struct UserTrial11Tests {
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
        let receipt = try #require(ledger.storeRows(.receipts).values.first { $0["transactionId"] == Self.groceries })
        #expect(try ledger.sheetRows(.receipts)[receipt["receiptId"]] != nil)
        try CostFollowsChangeTests.sql(
            ledger,
            "DELETE FROM receipts WHERE transactionId = '\(Self.groceries)'; DELETE FROM transactions WHERE transactionId = '\(Self.groceries)'"
        )
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try ledger.sheetRows(.transactions)[Self.groceries] == nil)
        #expect(try ledger.sheetRows(.receipts)[receipt["receiptId"]] == nil)
        #expect(try ledger.sheetRows(.receipts) == ledger.storeRows(.receipts))
        #expect(try ledger.sheetRows(.transactions) == ledger.storeRows(.transactions))
        let status = try await ledger.run("status")
        #expect(status.stdout.contains("pending local changes: none"), "\(status.stdout)")
        #expect(status.stdout.contains("rejected rows: 0"), "\(status.stdout)")
    }

    /// A receipt row edited in the workbook while the store deleted it and its transaction: the edit
    /// beats the delete, and the receipt (pointing at a transaction that is gone) is rejected as before.
    @Test func aReceiptEditedInTheWorkbookWhileDeletedInTheStoreIsStillChecked() async throws {
        let ledger = try await Self.twoReceipts()
        let receipt = try #require(ledger.storeRows(.receipts).values.first { $0["transactionId"] == Self.groceries })
        try CostFollowsChangeTests.sql(
            ledger,
            "DELETE FROM receipts WHERE transactionId = '\(Self.groceries)'; DELETE FROM transactions WHERE transactionId = '\(Self.groceries)'"
        )
        try ledger.workbook.edit(.receipts) { table in
            let row = try! #require(table.rows.firstIndex { $0[0].rawText == receipt["receiptId"] })
            let column = try! #require(table.header.firstIndex(of: "fileName"))
            table.rows[row][column] = .text("renamed by hand.jpg")
        }
        let run = try await ledger.run("sync")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("does not exist") || run.stderr.contains("does not exist"), "\(run.stdout)\(run.stderr)")
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
        let run = try await ledger.run("sync")
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        let output = run.stdout + run.stderr
        #expect(output.contains("Categories row 9"), "\(output)")
        #expect(output.contains("name"), "\(output)")
        #expect(try ledger.storeRows(.categories) == before)
        #expect(try Data(contentsOf: url) == fileBefore)
    }
}
