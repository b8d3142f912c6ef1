import Foundation
import SheetSyncCore
import SheetSyncStore
import Testing

@testable import SheetSync

/// The receipt upload queue (`receipt_uploads`) against a `MemoryRemote`'s receipt storage.
@Suite struct ReceiptQueueTests {
    static let transactionId = "9e6a2b4c-5a4d-4f88-8d8a-5a4a0e3f6d04"
    static let receiptId = "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01"

    struct Setup {
        let store: LedgerStore
        let workbook = MemoryWorkbook()
        let clock = ManualClock(Timestamp(iso: "2026-03-01T00:00:00.000Z")!)
        let file: URL

        var queue: ReceiptQueue {
            guard case .upload(let target) = MemoryRemote(workbook: workbook).receiptStorage else { fatalError("memory receipts upload") }
            return ReceiptQueue(store: store, target: target, clock: clock)
        }

        func entry() throws -> ReceiptUpload { try #require(try store.receiptUploads().first) }
    }

    static func setUp() throws -> Setup {
        let store = try LedgerStore.inMemory()
        let folder = try TestWorkbook.scratch("receipt-queue")
        let file = folder.appendingPathComponent("20260301_Food_\(transactionId)_1.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0x01]).write(to: file)
        let stamp = "2026-03-01T00:00:00.000Z"
        try store.saveReceiptUpload(
            ReceiptUpload(
                receiptId: receiptId, transactionId: transactionId, name: file.lastPathComponent, file: file.path,
                createdAt: stamp, updatedAt: stamp))
        return Setup(store: store, file: file)
    }

    @Test func anUploadWritesTheRowMarksTheEntryUploadedAndRemovesTheCopy() async throws {
        let setup = try Self.setUp()
        let outcome = try await setup.queue.uploadAll()
        #expect(outcome.uploaded == 1 && outcome.problems.isEmpty)
        let uploaded = try #require(await setup.workbook.uploadedReceipts()[Self.receiptId])
        #expect(uploaded.content == [0xFF, 0xD8, 0xFF, 0x01])
        let row = try #require(try setup.store.records(in: .receipts).first)
        #expect(row[.receiptId] == Self.receiptId && row[.driveFileId] == uploaded.fileId && row[.transactionId] == Self.transactionId)
        let entry = try setup.entry()
        #expect(entry.status == .uploaded && entry.attempts == 1 && entry.lastError == nil)
        #expect(!FileManager.default.fileExists(atPath: setup.file.path))
        // Nothing is uploaded twice.
        #expect(try await setup.queue.uploadAll().uploaded == 0)
    }

    @Test func aFullStorageIsReportedOnceAndTheReceiptStaysQueued() async throws {
        let setup = try Self.setUp()
        await setup.workbook.setStorageFull(true)
        let first = try await setup.queue.uploadAll()
        #expect(first.uploaded == 0 && first.problems.count == 1 && first.problems[0].contains("stay queued"))
        #expect(try setup.entry().status == .queued)
        #expect(try await setup.queue.uploadAll().problems.isEmpty, "said once")
        await setup.workbook.setStorageFull(false)
        #expect(try await setup.queue.uploadAll().uploaded == 1)
        #expect(try setup.store.records(in: .receipts).count == 1)
    }

    @Test func aGoneFileIsMarkedFailedWithItsErrorAndRetryQueuesItAgain() async throws {
        let setup = try Self.setUp()
        let aside = setup.file.appendingPathExtension("aside")
        try FileManager.default.moveItem(at: setup.file, to: aside)
        let first = try await setup.queue.uploadAll()
        #expect(first.problems.count == 1 && first.problems[0].contains("receipt retry \(Self.receiptId)"))
        let failed = try setup.entry()
        #expect(failed.status == .failed && failed.lastError == "its queued file \(setup.file.path) is gone")
        #expect(try await setup.queue.uploadAll().problems.isEmpty, "a failed receipt is not tried again")
        try FileManager.default.moveItem(at: aside, to: setup.file)
        #expect(try ReceiptQueue.retry([], store: setup.store, now: "2026-03-02T00:00:00.000Z") == [Self.receiptId])
        #expect(try await setup.queue.uploadAll().uploaded == 1)
        #expect(try setup.store.records(in: .receipts).map { $0[.receiptId] } == [Self.receiptId])
    }

    @Test func forgetDropsTheEntryAndItsCopyAndAnUnknownIdIsAUsageError() async throws {
        let setup = try Self.setUp()
        #expect(throws: SheetSyncError.self) { try ReceiptQueue.forget(["not-an-id"], store: setup.store) }
        #expect(try ReceiptQueue.forget([Self.receiptId], store: setup.store) == [Self.receiptId])
        #expect(try setup.store.receiptUploads().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: setup.file.path))
    }

    /// A target whose uploads start a resumable session, then fail as a network outage does.
    struct Unreachable: ReceiptUploadTarget {
        func uploadedFile(receiptId: String) async throws -> String? { nil }
        func upload(
            _ receipt: ReceiptUpload, content: [UInt8], settings: LedgerRow, keepSession: @escaping @Sendable (String) throws -> Void
        ) async throws -> String {
            try keepSession("https://upload.example/session-1")
            throw SheetSyncError.temporary("drive did not answer")
        }
    }

    @Test func aFailedTryFailsTheRunAndLeavesTheEntryQueuedWithItsError() async throws {
        let setup = try Self.setUp()
        let queue = ReceiptQueue(store: setup.store, target: Unreachable(), clock: setup.clock)
        await #expect(throws: SheetSyncError.self) { _ = try await queue.uploadAll() }
        let entry = try setup.entry()
        #expect(entry.status == .queued && entry.attempts == 1 && entry.lastError == "drive did not answer")
        #expect(entry.session == "https://upload.example/session-1", "the session is kept for the next run to resume")
        #expect(FileManager.default.fileExists(atPath: setup.file.path), "the queued copy is kept")
        // The next run with the target back uploads it.
        #expect(try await setup.queue.uploadAll().uploaded == 1)
        #expect(try setup.entry().attempts == 2)
    }
}
