import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
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
        let copy = ledger.book.appendingPathComponent("Receipts").appendingPathComponent(row[.driveFileId])
        #expect(try Data(contentsOf: copy) == Data([0xFF, 0xD8, 0xFF, 0x02]))
        #expect(row[.fileName] == row[.driveFileId] && row[.transactionId] == DataSafetyTests.lunch)
        let pushed = try await ledger.run("push")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try ledger.sheetRows(.receipts)[receiptId]?[.driveFileId] == row[.driveFileId])
        // Nothing waits in the upload queue of a file ledger.
        let status = try JSONDecoder().decode(StatusReport.self, from: Data(try await ledger.run("status", "--json").stdout.utf8))
        #expect(status.queuedReceipts == 0 && status.failedReceipts.isEmpty)
    }

    /// A receipt image already on disk is never replaced: not one whose row was deleted meanwhile (the
    /// next number is then taken by a live receipt's file), not one put there by hand. A folder is no image.
    @Test func receiptAddNeverReplacesAFileOnDisk() async throws {
        let ledger = try await Ledger.synced()
        let receipts = ledger.book.appendingPathComponent("Receipts")
        func image(_ name: String) throws -> URL {
            let url = ledger.folder.appendingPathComponent(name)
            try Data(name.utf8).write(to: url)
            return url
        }
        let first = try await ledger.run("receipt", "add", DataSafetyTests.lunch, try image("one.jpg").path, try image("two.jpg").path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try await ledger.run("sync").status == 0)
        let ids = first.stdout.split(separator: "\n").map(String.init)
        let one = try #require(try ledger.storeRows(.receipts)[ids[0]]?[.driveFileId])
        try ledger.workbook.edit(.receipts) { table in table.rows.removeAll { $0.first?.rawText == ids[0] } }
        #expect(try await ledger.run("sync").status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: receipts.path).sorted()
        let contents = try Dictionary(uniqueKeysWithValues: before.map { ($0, try Data(contentsOf: receipts.appendingPathComponent($0))) })
        let third = try await ledger.run("receipt", "add", DataSafetyTests.lunch, try image("three.jpg").path)
        #expect(third.status == 0, "\(third.stderr)")
        let name = try #require(
            try ledger.storeRows(.receipts)[third.stdout.trimmingCharacters(in: .whitespacesAndNewlines)]?[.driveFileId])
        #expect(!before.contains(name), "\(name) was already on disk")
        for (file, data) in contents { #expect(try Data(contentsOf: receipts.appendingPathComponent(file)) == data, "\(file)") }
        #expect(try Data(contentsOf: receipts.appendingPathComponent(name)) == Data("three.jpg".utf8))
        #expect(before.contains(one), "a deleted row's file stays on disk")
        let folder = ledger.folder.appendingPathComponent("scans")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let notAFile = try await ledger.run("receipt", "add", DataSafetyTests.lunch, folder.path)
        #expect(notAFile.status == 64 && notAFile.stderr.contains("is not a file"), "\(notAFile.stderr)")
    }

    /// A receipt added in the store for a transaction the same sync deletes (deleted by hand in the
    /// sheet meanwhile) is held back and said, not pushed as a row the next read rejects.
    @Test func receiptForATransactionDeletedInTheSameRunIsHeldBack() async throws {
        let ledger = try await Ledger.synced()
        let bus = "ef4cfdfd-4ac4-5e21-b5fe-ffb2bd3dfeb1"
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0.first?.rawText == bus } }
        let image = ledger.folder.appendingPathComponent("bus.jpg")
        try Data("ticket".utf8).write(to: image)
        let added = try await ledger.run("receipt", "add", bus, image.path)
        #expect(added.status == 0, "\(added.stderr)")
        let receipt = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65, "\(run.stderr)")
        let held = run.report?.rejected.filter { $0.tab == .receipts && $0.row == Rejection.storeRow && $0.id == receipt } ?? []
        #expect(held.count == 1 && held[0].code == .unknownTransaction && held[0].message.contains(bus), "\(run.stdout)")

        #expect(try ledger.sheetRows(.receipts)[receipt] == nil)
        #expect(try ledger.storeRows(.receipts)[receipt] != nil)
        // Brought back, the transaction and then its receipt reach the sheet.
        #expect(try await ledger.run("restore", bus).status == 0)
        let fixed = try await ledger.run("sync")
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try ledger.sheetRows(.receipts)[receipt]?[.transactionId] == bus)
    }
}
