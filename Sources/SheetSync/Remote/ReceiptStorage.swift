import Foundation
import SheetSyncCore
import SheetSyncStore

/// Where a remote keeps receipt files (`sheetsync receipt add`).
public enum ReceiptStorage: Sendable {
    /// Copied into this folder beside the workbook at once; the Receipts row's `driveFileId` is the
    /// file's name there and the next push writes the row.
    case folder(URL)
    /// Copied beside the store and uploaded by the next push; the Receipts row is written only once
    /// the target confirmed the file.
    case upload(any ReceiptUploadTarget)
}

/// A place receipts are uploaded to (a Drive folder, or a `MemoryRemote`'s memory).
public protocol ReceiptUploadTarget: Sendable {
    /// The id of the file already uploaded for this receipt (an upload whose answer was lost), if any,
    /// so a receipt is never uploaded twice.
    func uploadedFile(receiptId: String) async throws -> String?
    /// Uploads one queued receipt and returns the id its Receipts row keeps (`driveFileId`).
    /// `settings` is the dataset's Settings row (Drive finds its folder there). A target that can
    /// resume calls `keepSession` with each new session, which the queue stores for the next run.
    /// Throws `ReceiptStorageRefusal` when the storage refuses every upload for now.
    func upload(
        _ receipt: ReceiptUpload, content: [UInt8], settings: LedgerRow, keepSession: @escaping @Sendable (String) throws -> Void
    ) async throws -> String
}

/// The storage refuses uploads for now (a full Drive): the queue waits and says so once.
public struct ReceiptStorageRefusal: Error, CustomStringConvertible, Sendable {
    public var reason: String
    /// A short stable name for the refusal, so it is reported only once (`drive storage refused`).
    public var kind: String

    public init(kind: String, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
