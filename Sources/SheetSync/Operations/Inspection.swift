import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// What `sheetsync status` shows.
public struct StatusReport: Codable, Sendable {
    public var store: String
    public var remote: String
    public var datasetId: String?
    public var lastSyncAt: String?
    /// How dates and amounts typed as text are read: `dmy`, `mdy` or `ymd`, and `.` or `,`.
    public var dateOrder: String
    public var decimalSeparator: String
    /// What the last sync held back (exit 65) and since when; nil when it held nothing back.
    public var heldBack: HeldBack?

    /// Kept in the store's state as one JSON text (`SyncEngine.stateHeld`): since when, and the issues.
    public struct HeldBack: Codable, Sendable, Equatable {
        public var since: String
        /// What the run held back, as it reported it (each with its code and place).
        public var reasons: [SyncIssue]

        init(since: String, reasons: [SyncIssue]) {
            self.since = since
            self.reasons = reasons
        }

        /// The state as written: JSON, or (by a version before the issues had codes) the time and a
        /// reason per line, each read as a held-back `note`.
        init?(stateText: String) {
            if stateText.hasPrefix("{") {
                guard let held = try? JSONDecoder().decode(HeldBack.self, from: Data(stateText.utf8)) else { return nil }
                self = held
                return
            }
            let lines = stateText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let since = lines.first, lines.count > 1 else { return nil }
            self.init(since: since, reasons: lines.dropFirst().map { SyncIssue.heldBack(.note, $0) })
        }

        var stateText: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Encoding plain strings and numbers cannot fail.
            return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? since
        }
    }
    /// Local rows changed, added or deleted since the last sync, per tab.
    public var pendingLocalChanges: [String: Int]
    public var rejected: [Rejection]
    /// Rows deleted from the store and kept for `sheetsync restore` (the last 90 days).
    public var deletedRows: Int
    public var recentConflicts: [Conflict]
    /// Receipts waiting for the next push to upload them.
    public var queuedReceipts: Int
    /// Receipts whose upload was given up, with why (`receipt retry` or `receipt forget` settles them).
    public var failedReceipts: [FailedReceipt]
    /// Cells of a CSV workbook that a spreadsheet program opening the file may run as formulas.
    public var formulaLikeCells: [FormulaLikeCell] = []

    public struct FailedReceipt: Codable, Sendable {
        public var receiptId: String
        public var transactionId: String
        public var file: String
        public var error: String
        public var attempts: Int
    }

    public var lines: [String] {
        var out = [
            "store: \(store)", "remote: \(remote)", "dataset: \(datasetId ?? "not bound yet")",
            "last sync: \(lastSyncAt ?? "never")",
            "dates typed with the year last: \(dateOrder) (dateOrder); decimal separator: '\(decimalSeparator)' (decimalSeparator)",
        ]
        if let heldBack {
            out.append("held back by the last sync (since \(heldBack.since); `sheetsync sync` says it again):")
            out += heldBack.reasons.map { "  " + $0.text }
        }
        let pending = Tab.allCases.compactMap { tab in pendingLocalChanges[tab.rawValue].flatMap { $0 > 0 ? "\(tab.rawValue) \($0)" : nil }
        }
        out.append("pending local changes: \(pending.isEmpty ? "none" : pending.joined(separator: ", "))")
        out.append("rejected rows: \(rejected.count)")
        for r in rejected {
            out.append("  " + r.summary)
        }
        if deletedRows > 0 {
            out.append("deleted rows kept for restore: \(deletedRows) (`sheetsync restore --list` shows them)")
        }
        if !recentConflicts.isEmpty {
            out.append("recent conflicts (losing values kept in the store's sync_conflicts table):")
            for c in recentConflicts {
                out.append("  \(c.resolvedAt) \(c.tab.rawValue) \(c.key) \(c.field): kept '\(c.winningValue)', lost '\(c.losingValue)'")
            }
        }
        if queuedReceipts > 0 { out.append("receipts queued for upload: \(queuedReceipts)") }
        if !failedReceipts.isEmpty {
            out.append("failed receipt uploads: \(failedReceipts.count) (`sheetsync receipt retry` or `receipt forget`)")
            for r in failedReceipts { out.append("  \(r.receiptId) of transaction \(r.transactionId): \(r.error)") }
        }
        if !formulaLikeCells.isEmpty {
            out.append(
                "formula-like cells in the CSV workbook: \(formulaLikeCells.count) (a spreadsheet program opening the file may "
                    + "run them as formulas; sheetsync keeps them as typed)")
            out += formulaLikeCells.prefix(20).map { "  " + $0.place }
            if formulaLikeCells.count > 20 {
                out.append("  \(formulaLikeCells.count - 20) more (`sheetsync status --json` lists them all)")
            }
        }
        return out
    }
}

/// `sheetsync status` and `check`: what the store and a workbook hold, read without writing anything.
public struct Inspection: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    public func status() async throws -> StatusReport {
        try await workspace.requireLedger()
        let store = try workspace.readOnlyStore()
        // Counted in SQL: status neither copies nor loads the store.
        let pending = Dictionary(uniqueKeysWithValues: try store.pendingLocalChanges().map { ($0.key.rawValue, $0.value) })
        // Read-only status line: a remote that cannot be built is shown as unavailable.
        let remote = (try? workspace.makeRemote().displayName) ?? "unavailable"
        let uploads = try store.receiptUploads([.queued, .failed])
        let forms = try workspace.localForms(store)
        var report = StatusReport(
            store: workspace.config.store.path, remote: remote, datasetId: try store.state(SyncEngine.stateDataset),
            lastSyncAt: try store.state(SyncEngine.stateLastSync),
            dateOrder: forms.dateOrder.rawValue, decimalSeparator: forms.decimalSeparator.rawValue,
            heldBack: try store.state(SyncEngine.stateHeld).flatMap(StatusReport.HeldBack.init(stateText:)), pendingLocalChanges: pending,
            rejected: try store.rejectedRows(),
            deletedRows: try store.deletedRowCount(),
            recentConflicts: try store.conflicts(limit: 20),
            queuedReceipts: uploads.filter { $0.status == .queued }.count,
            failedReceipts: uploads.filter { $0.status == .failed }.map {
                StatusReport.FailedReceipt(
                    receiptId: $0.receiptId, transactionId: $0.transactionId, file: $0.file,
                    error: $0.lastError ?? "", attempts: $0.attempts)
            })
        report.formulaLikeCells = await formulaLikeCells()
        return report
    }

    /// The formula-like cells of the configured CSV workbook, read without writing; none for another kind
    /// of workbook (XLSX and Google cells are text cells no program runs) or one that cannot be read now
    /// (the sync says what is wrong with it).
    private func formulaLikeCells() async -> [FormulaLikeCell] {
        guard let remote = try? workspace.makeRemote() as? CSVWorkbookRemote, let snapshot = try? await remote.read() else { return [] }
        return FormulaLikeCell.review(snapshot.tables, roundTrips: false).formulaLike
    }
}
