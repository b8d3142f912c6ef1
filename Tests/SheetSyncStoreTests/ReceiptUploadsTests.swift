import Foundation
import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// The receipt upload queue is the `receipt_uploads` table; a store from before it keeps every queued entry.
@Suite struct ReceiptUploadsTests {
    static let a = "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01"
    static let b = "1c8e4d2f-7e2b-4d66-8b68-3e2e8c1d8b02"
    static let c = "2d7f3e3a-6f3c-4e77-9c79-4f3f9d2e7c03"
    static let t = "9e6a2b4c-5a4d-4f88-8d8a-5a4a0e3f6d04"

    /// A store as the build before the table left it: migrated to v2, the queue as JSON texts in `sync_state`.
    static func oldStore(at path: String, entries: [String: String]) throws {
        let queue = try DatabaseQueue(path: path)
        try StoreMigrations.migrator.migrate(queue, upTo: "v2-deleted-rows")
        try queue.write { db in
            for (key, value) in entries {
                try db.execute(sql: "INSERT INTO sync_state (key, value) VALUES (?, ?)", arguments: [key, value])
            }
            try db.execute(sql: "INSERT INTO sync_state (key, value) VALUES ('lastSyncAt', '2026-01-01T00:00:00.000Z')")
        }
    }

    @Test func anOldStoresQueuedEntriesAreMovedIntoTheTableNoneLost() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        try Self.oldStore(
            at: path,
            entries: [
                "receiptQueue.\(Self.a)":
                    #"{"receiptId":"\#(Self.a)","transactionId":"\#(Self.t)","name":"a.jpg","file":"/q/a.jpg","session":"https://upload/s1"}"#,
                "receiptQueue.\(Self.b)":
                    #"{"receiptId":"\#(Self.b)","transactionId":"\#(Self.t)","name":"b.jpg","file":"/q/b.jpg","failed":"its queued file /q/b.jpg is gone"}"#,
            ])
        let store = try LedgerStore(path: path)
        let uploads = try store.receiptUploads()
        #expect(uploads.map(\.receiptId) == [Self.a, Self.b])
        let first = try #require(uploads.first), second = try #require(uploads.last)
        #expect(
            first.status == .queued && first.transactionId == Self.t && first.file == "/q/a.jpg" && first.session == "https://upload/s1")
        #expect(second.status == .failed && second.lastError == "its queued file /q/b.jpg is gone")
        // The old keys are gone from sync_state; everything else there stays.
        let state = try store.glance().state
        #expect(state.keys.filter { $0.hasPrefix("receiptQueue.") }.isEmpty)
        #expect(state["lastSyncAt"] == "2026-01-01T00:00:00.000Z")
    }

    @Test func aCorruptOldEntryIsKeptAsAFailedUploadThatSaysWhy() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        try Self.oldStore(
            at: path,
            entries: [
                "receiptQueue.\(Self.a)": #"{"receiptId":"\#(Self.a)","transactionId":"\#(Self.t)","name":"a.jpg","file":"/q/a.jpg"}"#,
                "receiptQueue.\(Self.c)": #"{"receiptId": "\#(Self.c)", "name": trunc"#,
            ])
        let store = try LedgerStore(path: path)
        let uploads = try store.receiptUploads()
        #expect(uploads.count == 2)
        let corrupt = try #require(uploads.first { $0.receiptId == Self.c })
        #expect(corrupt.status == .failed)
        #expect(corrupt.lastError?.contains("could not be read") == true)
        #expect(corrupt.lastError?.contains(#""name": trunc"#) == true, "the entry's text is kept: \(corrupt.lastError ?? "")")
        #expect(try store.receiptUploads([.queued]).map(\.receiptId) == [Self.a])
    }

    @Test func statusIsConstrainedAndEntriesAreSavedAndDeleted() throws {
        let store = try LedgerStore.inMemory()
        var upload = ReceiptUpload(
            receiptId: Self.a, transactionId: Self.t, name: "a.jpg", file: "/q/a.jpg",
            createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z")
        try store.saveReceiptUpload(upload)
        upload.status = .failed
        upload.attempts = 2
        upload.lastError = "gone"
        try store.saveReceiptUpload(upload)
        #expect(try store.receiptUploads([.failed]) == [upload])
        #expect(try store.receiptUploads([.queued]).isEmpty)
        #expect(throws: DatabaseError.self) {
            try store.execute("UPDATE receipt_uploads SET status = 'lost'")
        }
        #expect(try store.deleteReceiptUpload(receiptId: Self.a))
        #expect(try store.receiptUploads().isEmpty)
    }
}
