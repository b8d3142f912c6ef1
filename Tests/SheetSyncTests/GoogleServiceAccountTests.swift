import Foundation
import SheetSync
import SheetSyncCore
import SheetsEmulator
import Testing

/// Service accounts have no Drive storage and queued receipts can fail for good: the user is told what
/// works, nothing is left behind, and no later run fails for it.
@Suite struct GoogleServiceAccountTests {
    @Test func initAsAServiceAccountWithoutStorageExplainsWhatWorksAndLeavesNoOrphanFolder() async throws {
        let bed = try await GoogleTestBed.start("g-sa-init")
        bed.emulator.refuseServiceAccountStorage()
        let run = try await bed.cli("init")
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains("shared drive") && run.stderr.contains("auth login") && run.stderr.contains("spreadsheetId"))
        #expect(run.stderr.contains("PERMISSION_DENIED"), "google's answer is quoted: \(run.stderr)")
        #expect(bed.emulator.files.filter { !$0.trashed }.isEmpty, "left behind: \(bed.emulator.files.map(\.name))")
        // With storage (a shared drive, say), the next init starts clean and succeeds.
        bed.emulator.refuseServiceAccountStorage(false)
        let again = try await bed.cli("init")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(bed.emulator.files.filter { $0.name == "ExpenseTracker" && !$0.trashed }.count == 2)
        await bed.finish()
    }

    @Test func aReceiptRefusedStorageIsReportedOnceAndStaysQueued() async throws {
        let (ledger, receiptId) = try await GoogleReceiptTests.ledger("g-sa-receipt")
        let bed = ledger.bed
        bed.emulator.refuseServiceAccountStorage()
        let first = try await bed.cli("sync")
        #expect(first.status == 65, "\(first.stderr)")
        #expect(first.stderr.contains("storageQuotaExceeded") && first.stderr.contains("shared drive"), "\(first.stderr)")
        let second = try await bed.cli("sync")
        #expect(second.status == 0, "reported once, not every run: \(second.stderr)")
        #expect(try bed.storeRecords(.receipts)[receiptId] == nil)
        bed.emulator.refuseServiceAccountStorage(false)
        #expect(try await bed.cli("add", "expense", "--amount", "1.00", "--category", "Food").status == 0)
        let third = try await bed.cli("sync")
        #expect(third.status == 0, "\(third.stderr)")
        try GoogleReceiptTests.expectUploadedOnce(ledger, receiptId: receiptId)
        await bed.finish()
    }

    @Test func aQueuedReceiptWhoseFileIsGoneIsReportedOnceMarkedFailedAndCanBeRetriedOrForgotten() async throws {
        let (ledger, receiptId) = try await GoogleReceiptTests.ledger("g-receipt-gone")
        let bed = ledger.bed
        let queued = try #require(
            try FileManager.default.contentsOfDirectory(
                at: bed.storeURL.deletingLastPathComponent().appendingPathComponent(".\(bed.storeURL.lastPathComponent).receipts"),
                includingPropertiesForKeys: nil
            ).first)
        try FileManager.default.moveItem(at: queued, to: bed.folder.appendingPathComponent("aside.jpg"))
        let first = try await bed.cli("sync")
        #expect(first.status == 65, "\(first.stderr)")
        #expect(first.stderr.contains(receiptId) && first.stderr.contains("receipt retry"), "\(first.stderr)")
        // `status` lists the failed receipt with its error, read from the receipt_uploads table.
        let status = try JSONDecoder().decode(StatusReport.self, from: Data(try await bed.cli("status", "--json").stdout.utf8))
        #expect(status.failedReceipts.map(\.receiptId) == [receiptId])
        #expect(status.failedReceipts.first?.error.contains("is gone") == true, "\(status.failedReceipts)")
        #expect(status.queuedReceipts == 0)
        let second = try await bed.cli("sync")
        #expect(second.status == 0, "reported once: \(second.stderr)")
        #expect(try bed.storeRecords(.receipts)[receiptId] == nil)
        // Put back and retried: uploaded.
        try FileManager.default.moveItem(at: bed.folder.appendingPathComponent("aside.jpg"), to: queued)
        let retried = try await bed.cli("receipt", "retry", receiptId)
        #expect(retried.status == 0 && retried.stdout.contains(receiptId), "\(retried.stderr)")
        #expect(try await bed.cli("add", "expense", "--amount", "1.00", "--category", "Food").status == 0)
        #expect(try await bed.cli("sync").status == 0)
        try GoogleReceiptTests.expectUploadedOnce(ledger, receiptId: receiptId)
        await bed.finish()
    }

    @Test func aFailedReceiptCanBeForgotten() async throws {
        let (ledger, receiptId) = try await GoogleReceiptTests.ledger("g-receipt-forget")
        let bed = ledger.bed
        let folder = bed.storeURL.deletingLastPathComponent().appendingPathComponent(".\(bed.storeURL.lastPathComponent).receipts")
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            try FileManager.default.removeItem(at: file)
        }
        #expect(try await bed.cli("sync").status == 65)
        // A dry run forgets nothing: the receipt is still queued afterwards.
        #expect(try await bed.cli("receipt", "forget", receiptId, "--dry-run").status == 0)
        #expect(try await bed.cli("receipt", "retry", receiptId, "--dry-run").status == 0)
        let forgotten = try await bed.cli("receipt", "forget", receiptId)
        #expect(forgotten.status == 0 && forgotten.stdout.contains(receiptId), "\(forgotten.stderr)")
        #expect(try await bed.cli("receipt", "retry", receiptId).status == 64)
        #expect(try await bed.cli("add", "expense", "--amount", "1.00", "--category", "Food").status == 0)
        #expect(try await bed.cli("sync").status == 0)
        #expect(try bed.storeRecords(.receipts)[receiptId] == nil)
        #expect(try bed.sheetRecords(.receipts)[receiptId] == nil)
        await bed.finish()
    }
}
