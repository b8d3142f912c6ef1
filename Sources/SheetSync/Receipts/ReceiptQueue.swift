import Foundation
import SheetSyncCore
import SheetSyncStore
import Workbook

/// Receipt images queued by `sheetsync receipt add` for a remote whose receipts are uploaded (Google:
/// the dataset's Drive `Receipts/` folder), uploaded on the next push. The queue is the store's
/// `receipt_uploads` table; the Receipts row is written only after the target confirmed the file, in
/// the same transaction that marks the entry uploaded.
struct ReceiptQueue {
    /// What a run of uploads did, and the problems to report (each only the first time it happens).
    struct Outcome {
        var uploaded = 0
        var problems: [String] = []
    }

    let store: LedgerStore
    let target: any ReceiptUploadTarget
    let clock: any WallClock

    /// Where queued copies wait: a folder beside the store.
    static func folder(store: URL) -> URL {
        store.deletingLastPathComponent().appendingPathComponent(".\(store.lastPathComponent).receipts")
    }

    /// Uploads every queued receipt. A receipt whose queued file is gone is marked failed and reported
    /// once; a storage refusal is reported once and the queue waits; neither fails every later run.
    func uploadAll() async throws -> Outcome {
        var outcome = Outcome()
        let entries = try store.receiptUploads([.queued])
        guard !entries.isEmpty else { return outcome }
        let settings = try store.records(in: .settings).first ?? LedgerRow()
        for var entry in entries {
            let fileId: String
            do {
                guard let uploaded = try await upload(&entry, settings: settings) else {
                    outcome.problems.append(try markGone(&entry))
                    continue
                }
                fileId = uploaded
            } catch let refusal as ReceiptStorageRefusal {
                // Every other upload would meet the same refusal: the queue waits, reported once.
                if let problem = try note(refusal, of: entry) { outcome.problems.append(problem) }
                return outcome
            } catch {
                // The run fails with this error; the entry stays queued and remembers why its last try failed.
                note(error, of: entry)
                throw error
            }
            try recordUploaded(&entry, fileId: fileId)
            if let problem = removeQueuedCopy(of: entry) { outcome.problems.append(problem) }
            outcome.uploaded += 1
        }
        return outcome
    }

    /// Marks an entry whose queued file is gone as failed; returns the problem to report.
    private func markGone(_ entry: inout ReceiptUpload) throws -> String {
        entry.status = .failed
        entry.lastError = "its queued file \(entry.file) is gone"
        try save(&entry)
        return "receipt \(entry.receiptId) of transaction \(entry.transactionId): \(entry.lastError ?? ""); it is marked failed "
            + "and no longer tried — put the file back and run `sheetsync receipt retry \(entry.receiptId)`, or drop it "
            + "with `sheetsync receipt forget \(entry.receiptId)`"
    }

    /// Keeps a storage refusal with the entry; returns the problem to report, nil when the entry already had it.
    private func note(_ refusal: ReceiptStorageRefusal, of entry: ReceiptUpload) throws -> String? {
        var entry = try latest(entry)
        guard entry.lastError != refusal.kind else { return nil }
        entry.lastError = refusal.kind
        try save(&entry)
        return "receipts stay queued: \(refusal)"
    }

    /// Keeps why the entry's last try failed, as far as the store lets it.
    private func note(_ error: any Error, of entry: ReceiptUpload) {
        do {
            var entry = try latest(entry)
            entry.lastError = "\(error)"
            try save(&entry)
        } catch {
            // Only the note is lost (the entry stays queued); the upload's error is the one to report.
        }
    }

    /// Writes the Receipts row and marks the entry uploaded, in one transaction.
    private func recordUploaded(_ entry: inout ReceiptUpload, fileId: String) throws {
        let stamp = clock.now().description
        entry.status = .uploaded
        entry.lastError = nil
        entry.updatedAt = stamp
        let done = entry
        try store.write { writer in
            _ = try writer.upsert(
                LedgerRow([
                    .receiptId: done.receiptId, .transactionId: done.transactionId, .driveFileId: fileId,
                    .fileName: done.name, .createdAt: stamp, .lastModifiedAt: stamp,
                ]), in: .receipts)
            try writer.saveReceiptUpload(done)
        }
    }

    /// Removes the queued copy of an uploaded receipt; returns the problem to report when it stays.
    private func removeQueuedCopy(of entry: ReceiptUpload) -> String? {
        // Only the copy sheetsync made: a symlink put in its place is left alone (`FileSafety`).
        do { if FileSafety.kind(of: entry.file) == .file { try FileManager.default.removeItem(atPath: entry.file) } } catch {
            // The row is written; a copy left in the queue folder only takes space.
            return "receipt \(entry.receiptId) is uploaded but its queued copy \(entry.file) could not be removed: \(error)"
        }
        return nil
    }

    /// The uploaded file's id, or nil when the queued copy is gone.
    private func upload(_ entry: inout ReceiptUpload, settings: LedgerRow) async throws -> String? {
        if let existing = try await target.uploadedFile(receiptId: entry.receiptId) { return existing }
        // Never through a symlink, nor from a FIFO or device put in the copy's place (refused, 78).
        guard let content = try FileSnapshot.read(URL(fileURLWithPath: entry.file))?.bytes else { return nil }
        entry.attempts += 1
        try save(&entry)
        let started = entry
        let store = self.store
        let stamp = clock.now().description
        return try await target.upload(entry, content: [UInt8](content), settings: settings) { session in
            // Kept at once: a run killed mid-upload resumes this session next time.
            var withSession = started
            withSession.session = session
            withSession.updatedAt = stamp
            try store.saveReceiptUpload(withSession)
        }
    }

    /// The entry as stored now: an upload may have kept its resumable session meanwhile, which must not be written over.
    private func latest(_ entry: ReceiptUpload) throws -> ReceiptUpload {
        try store.receiptUpload(entry.receiptId) ?? entry
    }

    private func save(_ entry: inout ReceiptUpload) throws {
        entry.updatedAt = clock.now().description
        try store.saveReceiptUpload(entry)
    }

    /// Queued receipts that failed are tried again on the next push (all of them when `ids` is empty).
    static func retry(_ ids: [String], store: LedgerStore, now: String) throws -> [String] {
        try change(ids, store: store) { entry in
            entry.status = .queued
            entry.lastError = nil
            entry.updatedAt = now
            try store.saveReceiptUpload(entry)
        }
    }

    /// Queued receipts dropped from the queue, with their queued copies.
    static func forget(_ ids: [String], store: LedgerStore, keepingFiles: Bool = false) throws -> [String] {
        try change(ids, store: store) { entry in
            try store.deleteReceiptUpload(receiptId: entry.receiptId)
            if !keepingFiles, !entry.file.isEmpty, FileSafety.kind(of: entry.file) == .file {
                try FileManager.default.removeItem(atPath: entry.file)
            }
        }
    }

    /// Runs `body` on the named entries that wait (queued or failed), or on every failed one when `ids` is empty.
    private static func change(_ ids: [String], store: LedgerStore, _ body: (inout ReceiptUpload) throws -> Void) throws -> [String] {
        let all = try store.receiptUploads([.queued, .failed])
        let wanted = Set(ids.compactMap(FieldParser.canonicalUUID))
        for id in ids where FieldParser.canonicalUUID(id).map({ id in !all.contains { $0.receiptId == id } }) ?? true {
            throw SheetSyncError(.usage, "no queued receipt with id '\(id)'")
        }
        var changed: [String] = []
        for var entry in all where wanted.isEmpty ? entry.status == .failed : wanted.contains(entry.receiptId) {
            try body(&entry)
            changed.append(entry.receiptId)
        }
        return changed
    }
}
