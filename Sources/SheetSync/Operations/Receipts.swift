import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Workbook

/// `sheetsync receipt …`: receipt images added to a transaction, and the upload queue's receipts uploaded
/// before a push, retried or forgotten.
public struct Receipts: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Adds receipt images to a transaction, where the remote keeps receipts (`receiptStorage`). For file
    /// workbooks each image is copied into `Receipts/` beside the workbook under the seed's name rule and its
    /// row's `driveFileId` is the path relative to that folder; the next push writes the rows. Where receipts
    /// are uploaded (Google), the copy waits beside the store in the `receipt_uploads` queue.
    public func add(transactionId: String, files: [URL], dryRun: Bool = false) async throws -> [String] {
        guard let id = FieldParser.canonicalUUID(transactionId) else {
            throw SheetSyncError(.usage, "'\(transactionId)' is not a transaction id")
        }
        try Self.requireReceiptFiles(files)
        let (folder, queued) = try receiptsFolder()
        return try await workspace.withStore(preview: dryRun) { store in
            guard let transaction = try store.records(in: .transactions).first(where: { $0[.transactionId] == id }) else {
                throw SheetSyncError(.usage, "no transaction with id \(id) in the store (run `sheetsync pull` first?)")
            }
            if !dryRun { try Self.prepareReceiptsFolder(folder, queued: queued) }
            var names = try ReceiptNumbering(transaction, id: id, folder: folder, store: store)
            let stamp = workspace.clock.now().description
            var ids: [String] = []
            var records: [LedgerRow] = []
            for file in files {
                let name = names.next(sourceExtension: file.pathExtension)
                let target = folder.appendingPathComponent(name)
                let receiptId = workspace.newID()
                ids.append(receiptId)
                if dryRun { continue }
                // copyItem refuses an existing target: a file that appeared since the check is not replaced.
                try FileManager.default.copyItem(at: file, to: target)
                if queued {
                    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
                    try store.saveReceiptUpload(
                        ReceiptUpload(
                            receiptId: receiptId, transactionId: id, name: name, file: target.path, createdAt: stamp, updatedAt: stamp))
                    continue
                }
                records.append(
                    LedgerRow([
                        .receiptId: receiptId, .transactionId: id, .driveFileId: name, .fileName: name,
                        .createdAt: stamp, .lastModifiedAt: stamp,
                    ]))
            }
            try store.write { writer in for record in records { try writer.upsert(record, in: .receipts) } }
            return ids
        }
    }

    /// Each receipt is one readable file, not a folder.
    private static func requireReceiptFiles(_ files: [URL]) throws {
        for file in files {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue {
                throw SheetSyncError(.usage, "\(file.path) is not a file; a receipt is one image file")
            }
            if !FileManager.default.isReadableFile(atPath: file.path) {
                throw SheetSyncError(.usage, "cannot read receipt file \(file.path)")
            }
        }
    }

    /// Where new receipts are copied: the workbook's receipts folder, or the upload queue beside the store.
    private func receiptsFolder() throws -> (folder: URL, queued: Bool) {
        switch try workspace.makeRemote().receiptStorage {
        case .folder(let receipts):
            return (receipts, false)
        case .upload:
            // Copies wait beside the store until the next push uploads them.
            return (ReceiptQueue.folder(store: workspace.config.store), true)
        }
    }

    private static func prepareReceiptsFolder(_ folder: URL, queued: Bool) throws {
        // A symlink (or a file) in the receipts folder's place is refused, not copied through (`FileSafety`).
        try FileSafety.requireFolderOrNothing(folder.path)
        // The queue beside the store is private like the store; a receipts folder of the workbook is the workbook's.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // (also one an earlier version made 0755)
        if queued { try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path) }
    }
}

/// The names of a transaction's new receipts under the seed's rule, numbered on from the receipts it has.
private struct ReceiptNumbering {
    let transaction: LedgerRow
    let id: String
    let folder: URL
    var n: Int
    var taken: Set<String>

    init(_ transaction: LedgerRow, id: String, folder: URL, store: LedgerStore) throws {
        (self.transaction, self.id, self.folder) = (transaction, id, folder)
        // Uploaded entries have their Receipts row already: only those still waiting count beside the rows.
        let rows = try store.records(in: .receipts)
        let waiting = try store.receiptUploads([.queued, .failed])
        n = rows.filter { $0[.transactionId] == id }.count + waiting.filter { $0.transactionId == id }.count
        // A name a row, a queued upload or a file on disk already has is never used again: a receipt
        // row deleted meanwhile leaves its file, and a file put there by hand is the user's.
        taken = Set(rows.flatMap { [$0[.driveFileId], $0[.fileName]] } + waiting.map(\.name))
    }

    mutating func next(sourceExtension: String) -> String {
        var name: String
        repeat {
            n += 1
            name = ReceiptName.make(
                date: transaction[.date], category: transaction[.category], transactionId: id, number: n,
                sourceExtension: sourceExtension)
        } while taken.contains(name) || FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
        taken.insert(name)
        return name
    }
}

extension Receipts {
    /// A remote whose receipts are uploaded: receipts queued by `receipt add` are uploaded before a run
    /// that pushes; returns the problems to report (a receipt whose file is gone, storage refused), each said once.
    func uploadQueued(store: LedgerStore, remote: any Remote, options: SyncOptions) async throws -> [SyncIssue] {
        guard case .upload(let target) = remote.receiptStorage, options.mode != .pull, !options.dryRun else { return [] }
        return try await ReceiptQueue(store: store, target: target, clock: workspace.clock).uploadAll().problems.map {
            .heldBack(.receiptProblem, $0)
        }
    }

    /// What `uploadQueued` would do, for a dry run's plan: one line naming the queued receipts.
    func queuedPreview(store: LedgerStore, remote: any Remote, options: SyncOptions) throws -> [String] {
        guard case .upload = remote.receiptStorage, options.mode != .pull, options.dryRun else { return [] }
        let queued = try store.receiptUploads([.queued])
        guard !queued.isEmpty else { return [] }
        let names = queued.map { "\($0.receiptId) (\($0.name))" }.joined(separator: ", ")
        return ["Receipts: would upload \(queued.count) queued receipt file(s) and add their rows: \(names)"]
    }

    /// `receipt retry`: queued receipts marked failed are tried again on the next push (all when `ids` is empty).
    public func retry(_ ids: [String], dryRun: Bool = false) async throws -> [String] {
        try await workspace.withStore(preview: dryRun) { store in
            try ReceiptQueue.retry(ids, store: store, now: workspace.clock.now().description)
        }
    }

    /// `receipt forget`: queued receipts dropped, with their queued copies.
    public func forget(_ ids: [String], dryRun: Bool = false) async throws -> [String] {
        try await workspace.withStore(preview: dryRun) { store in try ReceiptQueue.forget(ids, store: store, keepingFiles: dryRun) }
    }
}

/// The seed's receipt name rule: `<YYYYMMDD>_<Category>_<TransactionId>_<n>.jpg`.
public enum ReceiptName {
    /// Characters unsafe in file names (and the separator `_` inside the category) become `-`.
    public static func make(date: String, category: String, transactionId: String, number: Int, sourceExtension: String) -> String {
        let day = date.replacingOccurrences(of: "-", with: "")
        let safe = String(
            category.map { c -> Character in
                c.isLetter || c.isNumber || c == "-" || c == "." || c == " " ? c : "-"
            }
        ).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "-")
        // The seed names receipts .jpg; other image types keep their own extension so viewers open them.
        let ext = sourceExtension.lowercased()
        let suffix = ext.isEmpty || ext == "jpeg" || ext == "jpg" ? "jpg" : ext
        return "\(day)_\(safe.isEmpty ? "Uncategorized" : safe)_\(transactionId)_\(number).\(suffix)"
    }
}
