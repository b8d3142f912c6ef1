import Foundation
import GRDB
import SheetSyncCore

/// A receipt file waiting for (or done with) its upload: one row of `receipt_uploads`.
public struct ReceiptUpload: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "receipt_uploads"

    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Waits for the next push.
        case queued
        /// Given up (its file is gone, or its old queue entry was unreadable); waits for `receipt retry` or `forget`.
        case failed
        /// Confirmed by the storage; its Receipts row is written.
        case uploaded
    }

    public var receiptId: String
    public var transactionId: String
    /// The file name the receipt gets in the storage.
    public var name: String
    /// The queued copy's path.
    public var file: String
    /// A resumable upload's session, so an interrupted upload continues where it stopped.
    public var session: String?
    public var status: Status
    public var attempts: Int
    /// Why the receipt failed, or the last refusal already reported (said once, not every run).
    public var lastError: String?
    public var createdAt: String
    public var updatedAt: String

    public enum Columns {
        public static let receiptId = Column(CodingKeys.receiptId)
        public static let transactionId = Column(CodingKeys.transactionId)
        public static let status = Column(CodingKeys.status)
        public static let name = Column(CodingKeys.name)
    }

    public init(
        receiptId: String, transactionId: String, name: String, file: String, session: String? = nil, status: Status = .queued,
        attempts: Int = 0, lastError: String? = nil, createdAt: String, updatedAt: String
    ) {
        (self.receiptId, self.transactionId, self.name, self.file, self.session) = (receiptId, transactionId, name, file, session)
        (self.status, self.attempts, self.lastError, self.createdAt, self.updatedAt) = (status, attempts, lastError, createdAt, updatedAt)
    }
}

/// The `receipt_uploads` table and the move of the old queue (JSON texts in `sync_state`) into it.
enum ReceiptUploads {
    /// Where the queue lived before this table: `sync_state` keys with this prefix, JSON values.
    static let oldStatePrefix = "receiptQueue."

    static func create(_ db: Database) throws {
        try db.create(table: ReceiptUpload.databaseTableName) { t in
            t.primaryKey("receiptId", .text)
            t.column("transactionId", .text).notNull()
            t.column("name", .text).notNull()
            t.column("file", .text).notNull()
            t.column("session", .text)
            t.column("status", .text).notNull().check(sql: "status IN ('queued', 'failed', 'uploaded')")
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("lastError", .text)
            t.column("createdAt", .text).notNull()
            t.column("updatedAt", .text).notNull()
        }
        try db.create(index: "receipt_uploads_status", on: ReceiptUpload.databaseTableName, columns: ["status"])
    }

    /// The old queue entry as `receipt add` wrote it into `sync_state`.
    private struct OldEntry: Decodable {
        var receiptId: String
        var transactionId: String
        var name: String
        var file: String
        var session: String?
        var failed: String?
        var lastError: String?
    }

    /// Moves every old queue entry into the table. An entry that cannot be read is kept as a failed
    /// upload carrying its text, so `status` shows it and `receipt forget` drops it: never lost silently.
    static func migrateOldQueue(_ db: Database) throws {
        let now = try String.fetchOne(db, sql: "SELECT \(DataTable.now)") ?? ""
        let entries = try StateEntry.filter(Column("key").like(oldStatePrefix + "%")).fetchAll(db)
        for entry in entries {
            let id = String(entry.key.dropFirst(oldStatePrefix.count))
            var upload: ReceiptUpload
            do {
                let old = try JSONDecoder().decode(OldEntry.self, from: Data(entry.value.utf8))
                upload = ReceiptUpload(
                    receiptId: old.receiptId, transactionId: old.transactionId, name: old.name, file: old.file, session: old.session,
                    status: old.failed == nil ? .queued : .failed, lastError: old.failed ?? old.lastError, createdAt: now, updatedAt: now)
            } catch {
                upload = ReceiptUpload(
                    receiptId: id, transactionId: "", name: "", file: "", status: .failed,
                    lastError: "its queue entry from an older sheetsync could not be read (\(error)): \(entry.value)", createdAt: now,
                    updatedAt: now)
            }
            if upload.receiptId.isEmpty { upload.receiptId = id }
            try upload.upsert(db)
            _ = try StateEntry.deleteOne(db, key: entry.key)
        }
    }
}

extension LedgerStore {
    /// The upload queue in name order, only those with one of `statuses` (all when empty).
    public func receiptUploads(_ statuses: Set<ReceiptUpload.Status> = []) throws -> [ReceiptUpload] {
        try reading { db in
            var request = ReceiptUpload.order(ReceiptUpload.Columns.name, ReceiptUpload.Columns.receiptId)
            if !statuses.isEmpty { request = request.filter(statuses.map(\.rawValue).contains(ReceiptUpload.Columns.status)) }
            return try request.fetchAll(db)
        }
    }

    /// One queue entry, nil when there is none.
    public func receiptUpload(_ receiptId: String) throws -> ReceiptUpload? {
        try reading { try ReceiptUpload.fetchOne($0, key: receiptId) }
    }

    /// Inserts or replaces one queue entry.
    public func saveReceiptUpload(_ upload: ReceiptUpload) throws {
        try writing { try upload.upsert($0) }
    }

    /// Removes one queue entry; false when there was none.
    @discardableResult
    public func deleteReceiptUpload(receiptId: String) throws -> Bool {
        try writing { try ReceiptUpload.deleteOne($0, key: receiptId) }
    }
}

extension LocalWriter {
    /// Updates a queue entry in the same transaction as the rows written beside it (the Receipts row
    /// of an upload and the entry marked uploaded: both or neither).
    public func saveReceiptUpload(_ upload: ReceiptUpload) throws {
        try upload.upsert(db)
    }
}
