import Foundation
import SheetSync
import SheetSyncCore
import Testing

/// A file workbook keeps receipts in `Receipts/` beside its tabs (the remote's `receiptStorage`): `receipt add`
/// copies the file there and the next push writes its row; nothing is queued for upload.
@Suite struct FileReceiptTests {
    @Test func aReceiptAddedToACSVLedgerIsCopiedIntoReceiptsAndPushedAsARow() async throws {
        let ledger = try await Ledger.synced()
        let image = ledger.folder.appendingPathComponent("lunch.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0x02]).write(to: image)
        let added = try await ledger.run("receipt", "add", DataSafetyTests.lunch, image.path)
        #expect(added.status == 0, "\(added.stderr)")
        let receiptId = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let row = try #require(try ledger.storeRows(.receipts)[receiptId])
        let copy = ledger.book.appendingPathComponent("Receipts").appendingPathComponent(row["driveFileId"])
        #expect(try Data(contentsOf: copy) == Data([0xFF, 0xD8, 0xFF, 0x02]))
        #expect(row["fileName"] == row["driveFileId"] && row["transactionId"] == DataSafetyTests.lunch)
        let pushed = try await ledger.run("push")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try ledger.sheetRows(.receipts)[receiptId]?["driveFileId"] == row["driveFileId"])
        // Nothing waits in the upload queue of a file ledger.
        let status = try JSONDecoder().decode(StatusReport.self, from: Data(try await ledger.run("status", "--json").stdout.utf8))
        #expect(status.queuedReceipts == 0 && status.failedReceipts.isEmpty)
    }
}
