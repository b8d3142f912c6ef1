import Foundation
import GoogleAPI
import SheetSyncCore
import SheetSyncStore

extension GoogleSheetsRemote {
    /// Receipts go to the dataset's Drive `Receipts/` folder.
    public var receiptStorage: ReceiptStorage { .upload(DriveReceiptTarget(drive: drive)) }
}

/// The dataset's Drive `Receipts/` folder. Each upload is resumable (its session is kept by the queue,
/// so an interrupted upload resumes on the next run) and each file is tagged with
/// `appProperties.receiptId`, so a file uploaded just before a crash is found, not uploaded twice.
struct DriveReceiptTarget: ReceiptUploadTarget {
    let drive: DriveClient

    func uploadedFile(receiptId: String) async throws -> String? {
        do {
            let existing = try await drive.listFiles(q: DriveQuery.appProperty("receiptId", equals: receiptId) + " and trashed = false")
            return existing.first?.id
        } catch let error as GoogleAPIError {
            throw Self.map(error)
        }
    }

    func upload(
        _ receipt: ReceiptUpload, content: [UInt8], settings: LedgerRow, keepSession: @escaping @Sendable (String) throws -> Void
    ) async throws -> String {
        let folder = settings[.receiptsFolderId]
        guard !folder.isEmpty else {
            throw SheetSyncError.configuration(
                "the Settings row has no receiptsFolderId: receipts cannot be uploaded to this spreadsheet "
                    + "(run `sheetsync init` to create the Drive folders)")
        }
        let metadata = DriveClient.metadata(name: receipt.name, parents: [folder], appProperties: ["receiptId": receipt.receiptId])
        do {
            return try await drive.uploadResumable(
                metadata: metadata, contentType: Self.contentType(receipt.name), content: content,
                existingSession: receipt.session.flatMap(URL.init(string:))
            ) { session in try keepSession(session.absoluteString) }.id
        } catch let error as GoogleAPIError {
            throw Self.map(error)
        }
    }

    /// A full Drive refuses every upload alike: the queue waits; anything else is the run's error.
    static func map(_ error: GoogleAPIError) -> any Error {
        if case .storageQuotaExceeded = error { return ReceiptStorageRefusal(kind: "drive storage refused", reason: "\(error)") }
        return GoogleRemoteErrors.map(error)
    }

    static func contentType(_ name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "pdf": return "application/pdf"
        case "heic": return "image/heic"
        default: return "image/jpeg"
        }
    }
}
