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
        /// Why the upload was given up (its file is gone); a failed entry waits for `receipt retry` or `forget`.
        var failed: String?
        /// The last refusal already reported (Drive storage), so it is said once, not every run.
        var lastError: String?
    }

    /// What a run of uploads did, and the problems to report (each only the first time it happens).
    struct Outcome {
        var uploaded = 0
        var problems: [String] = []
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

    /// The queue, from the store's state alone (cheap: no ledger rows are read).
    static func queued(in store: LedgerStore) throws -> [Entry] {
        try store.glance().state.filter { $0.key.hasPrefix(Self.statePrefix) }.values
            .compactMap { try? JSONDecoder().decode(Entry.self, from: Data($0.utf8)) }.sorted { $0.name < $1.name }
    }

    /// Uploads every queued receipt that has not failed. A receipt whose queued file is gone is marked failed
    /// and reported once; a Drive storage refusal is reported once and the queue waits; neither fails
    /// every later run.
    func uploadAll() async throws -> Outcome {
        var outcome = Outcome()
        let entries = try Self.queued(in: store).filter { $0.failed == nil }
        guard !entries.isEmpty else { return outcome }
        guard let folder = try store.records(in: .settings).first?["receiptsFolderId"], !folder.isEmpty else {
            throw SheetSyncError.configuration(
                "the Settings row has no receiptsFolderId: receipts cannot be uploaded to this spreadsheet (run `sheetsync init` to create the Drive folders)"
            )
        }
        for var entry in entries {
            let file: DriveFile
            switch try await upload(&entry, folder: folder) {
            case .uploaded(let uploaded):
                file = uploaded
            case .fileGone:
                entry.failed = "its queued file \(entry.file) is gone"
                try Self.enqueue(entry, store: store)
                outcome.problems.append(
                    "receipt \(entry.receiptId) of transaction \(entry.transactionId): \(entry.failed ?? ""); it is marked failed "
                        + "and no longer tried — put the file back and run `sheetsync receipt retry \(entry.receiptId)`, or drop it "
                        + "with `sheetsync receipt forget \(entry.receiptId)`")
                continue
            case .refused(let error):
                // Every other upload would meet the same refusal: the queue waits, reported once.
                let reason = "drive storage refused"
                if entry.lastError != reason {
                    entry.lastError = reason
                    try Self.enqueue(entry, store: store)
                    outcome.problems.append("receipts stay queued: \(error)")
                }
                return outcome
            }
            let stamp = clock.now().description
            try store.write { writer in
                _ = try writer.upsert(
                    Record([
                        "receiptId": entry.receiptId, "transactionId": entry.transactionId, "driveFileId": file.id,
                        "fileName": entry.name, "createdAt": stamp, "lastModifiedAt": stamp,
                    ]), in: .receipts)
            }
            try store.setState(Self.statePrefix + entry.receiptId, nil)
            do { try FileManager.default.removeItem(atPath: entry.file) } catch {
                // The row is written; a copy left in the queue folder only takes space.
                outcome.problems.append(
                    "receipt \(entry.receiptId) is uploaded but its queued copy \(entry.file) could not be removed: \(error)")
            }
            outcome.uploaded += 1
        }
        return outcome
    }

    enum UploadResult {
        case uploaded(DriveFile)
        case fileGone
        case refused(GoogleAPIError)
    }

    private func upload(_ entry: inout Entry, folder: String) async throws -> UploadResult {
        do {
            let existing = try await drive.listFiles(
                q: DriveQuery.appProperty("receiptId", equals: entry.receiptId) + " and trashed = false")
            if let file = existing.first { return .uploaded(file) }
            guard let content = FileManager.default.contents(atPath: entry.file) else { return .fileGone }
            let metadata = DriveClient.metadata(name: entry.name, parents: [folder], appProperties: ["receiptId": entry.receiptId])
            let saved = entry
            let store = self.store
            return .uploaded(
                try await drive.uploadResumable(
                    metadata: metadata, contentType: Self.contentType(entry.name), content: [UInt8](content),
                    existingSession: entry.session.flatMap(URL.init(string:))
                ) { session in
                    var withSession = saved
                    withSession.session = session.absoluteString
                    try ReceiptUploader.enqueue(withSession, store: store)
                })
        } catch let error as GoogleAPIError {
            if case .storageQuotaExceeded = error { return .refused(error) }
            throw GoogleRemoteErrors.map(error)
        }
    }

    /// Queued receipts that failed are tried again on the next push (all of them when `ids` is empty).
    static func retry(_ ids: [String], store: LedgerStore) throws -> [String] {
        try change(ids, store: store) { entry in
            entry.failed = nil
            entry.lastError = nil
            try enqueue(entry, store: store)
        }
    }

    /// Queued receipts dropped from the queue, with their queued copies.
    static func forget(_ ids: [String], store: LedgerStore, keepingFiles: Bool = false) throws -> [String] {
        try change(ids, store: store) { entry in
            try store.setState(statePrefix + entry.receiptId, nil)
            if !keepingFiles, FileManager.default.fileExists(atPath: entry.file) { try FileManager.default.removeItem(atPath: entry.file) }
        }
    }

    private static func change(_ ids: [String], store: LedgerStore, _ body: (inout Entry) throws -> Void) throws -> [String] {
        let all = try queued(in: store)
        let wanted = Set(ids.compactMap(FieldParser.canonicalUUID))
        for id in ids where FieldParser.canonicalUUID(id).map({ id in !all.contains { $0.receiptId == id } }) ?? true {
            throw SheetSyncError(.usage, "no queued receipt with id '\(id)'")
        }
        var changed: [String] = []
        for var entry in all where wanted.isEmpty ? entry.failed != nil : wanted.contains(entry.receiptId) {
            try body(&entry)
            changed.append(entry.receiptId)
        }
        return changed
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
