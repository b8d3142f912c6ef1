import Foundation
import GoogleAPI
import SheetSyncCore
import SheetSyncStore

/// Receipt images queued by `sheetsync receipt add` in Google mode, uploaded to the dataset's Drive
/// `Receipts/` folder on the next push. Each upload is resumable and its session URI is kept in the
/// store, so an interrupted upload resumes on the next run; each file is tagged with
/// `appProperties.receiptId`, so a file uploaded just before a crash is found, not uploaded twice.
/// The Receipt row is written only after Drive confirmed the file.
struct ReceiptUploader {
    struct Entry: Codable {
        var receiptId: String
        var transactionId: String
        var name: String
        var file: String
        var session: String?
    }

    static let statePrefix = "receiptQueue."

    let store: LedgerStore
    let drive: DriveClient
    let clock: any Clock

    /// Where queued copies wait: a folder beside the store.
    static func queueFolder(store: URL) -> URL {
        store.deletingLastPathComponent().appendingPathComponent(".\(store.lastPathComponent).receipts")
    }

    static func enqueue(_ entry: Entry, store: LedgerStore) throws {
        let data = try JSONEncoder().encode(entry)
        try store.setState(statePrefix + entry.receiptId, String(decoding: data, as: UTF8.self))
    }

    func queued() throws -> [Entry] {
        try store.snapshot().state.filter { $0.key.hasPrefix(Self.statePrefix) }.values
            .compactMap { try? JSONDecoder().decode(Entry.self, from: Data($0.utf8)) }.sorted { $0.name < $1.name }
    }

    /// Uploads every queued receipt; returns how many were written as rows.
    func uploadAll() async throws -> Int {
        // Most runs have nothing queued: an empty queue folder spares reading the whole store (seconds at 100k
        // rows).
        let queue = Self.queueFolder(store: URL(fileURLWithPath: store.path))
        guard let waiting = try? FileManager.default.contentsOfDirectory(atPath: queue.path), !waiting.isEmpty else { return 0 }
        let entries = try queued()
        guard !entries.isEmpty else { return 0 }
        guard let folder = try store.records(in: .settings).first?["receiptsFolderId"], !folder.isEmpty else {
            throw SheetSyncError.configuration(
                "the Settings row has no receiptsFolderId: receipts cannot be uploaded to this spreadsheet (run `sheetsync init` to create the Drive folders)"
            )
        }
        var done = 0
        for var entry in entries {
            let file = try await upload(&entry, folder: folder)
            let stamp = clock.now().description
            try store.write { writer in
                _ = try writer.upsert(
                    Record([
                        "receiptId": entry.receiptId, "transactionId": entry.transactionId, "driveFileId": file.id,
                        "fileName": entry.name, "createdAt": stamp, "lastModifiedAt": stamp,
                    ]), in: .receipts)
            }
            try store.setState(Self.statePrefix + entry.receiptId, nil)
            try? FileManager.default.removeItem(atPath: entry.file)
            done += 1
        }
        return done
    }

    private func upload(_ entry: inout Entry, folder: String) async throws -> DriveFile {
        do {
            let existing = try await drive.listFiles(
                q: DriveQuery.appProperty("receiptId", equals: entry.receiptId) + " and trashed = false")
            if let file = existing.first { return file }
            guard let content = FileManager.default.contents(atPath: entry.file) else {
                throw SheetSyncError.data("queued receipt file \(entry.file) is gone; add it again with `sheetsync receipt add`")
            }
            let metadata = DriveClient.metadata(name: entry.name, parents: [folder], appProperties: ["receiptId": entry.receiptId])
            let saved = entry
            let store = self.store
            return try await drive.uploadResumable(
                metadata: metadata, contentType: Self.contentType(entry.name), content: [UInt8](content),
                existingSession: entry.session.flatMap(URL.init(string:))
            ) { session in
                var withSession = saved
                withSession.session = session.absoluteString
                try ReceiptUploader.enqueue(withSession, store: store)
            }
        } catch let error as GoogleAPIError {
            if case .storageQuotaExceeded = error {
                throw SheetSyncError.configuration(
                    "\(error): service accounts have no Drive storage of their own; use `sheetsync auth login` (a user account) or a shared drive for receipts"
                )
            }
            throw GoogleRemoteErrors.map(error)
        }
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
