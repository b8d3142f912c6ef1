import Foundation
import SheetSyncCore
import SheetSyncStore

/// What `sheetsync report` is asked for.
public struct ReportRequest: Sendable {
    /// nil: the current month in the dataset's time zone, or every date for an open-rows report
    /// (`--unpaid` or `--unreimbursed`: a bill from last month is still open).
    public var period: ReportPeriod?
    public var grouping: ReportGrouping
    public var filter: OpenRowFilter

    public init(period: ReportPeriod? = nil, grouping: ReportGrouping = .category, filter: OpenRowFilter = []) {
        self.period = period
        self.grouping = grouping
        self.filter = filter
    }
}

/// A report with what it left out: the ledger's numbers plus the rejected rows that are not in them.
public struct ReportOutput: Sendable {
    public var report: LedgerReport
    /// Transactions rows the last sync could not load: they are not counted.
    public var rejected: [Rejection]
    /// How many of those rows the store still holds in their last good version (which is counted).
    public var rejectedCountedAtLastGoodVersion: Int

    /// A line about the rejected rows, or nil when there are none.
    public var rejectedNote: String? {
        guard !rejected.isEmpty else { return nil }
        var note =
            "\(rejected.count) Transactions row(s) rejected at the last sync are not counted "
            + "(`sheetsync status` lists them with the fix)"
        if rejectedCountedAtLastGoodVersion > 0 {
            note += "; \(rejectedCountedAtLastGoodVersion) of them counted at the last good version the store keeps"
        }
        return note
    }

    /// A line about store rows that could not be read, or nil.
    public var unreadableNote: String? {
        guard !report.unreadable.isEmpty else { return nil }
        return "\(report.unreadable.count) store row(s) with an unreadable date, type or amount are not counted: "
            + report.unreadable.joined(separator: ", ")
    }
}

/// `sheetsync report`: a period's totals from the store.
public struct Reports: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Totals for a period, read from a read-only copy of the store: nothing on disk is written,
    /// not even a WAL or lock file.
    public func report(_ request: ReportRequest) async throws -> ReportOutput {
        let config = workspace.config
        guard FileManager.default.fileExists(atPath: config.store.path) else {
            throw SheetSyncError.configuration(
                "no store at \(config.store.path): nothing to report yet; run `sheetsync sync` (or `sheetsync init` "
                    + "in a new folder) first, or point --config at your ledger")
        }
        return try await workspace.withStore(preview: true) { store in
            let period = try request.period ?? (request.filter.isEmpty ? ReportPeriod.month(of: workspace.today(store: store)) : nil)
            let transactions = try store.records(in: .transactions)
            let report = LedgerReport(
                transactions: transactions, categories: try store.records(in: .categories), period: period,
                grouping: request.grouping, filter: request.filter)
            let rejected = try store.rejectedRows().filter { $0.tab == .transactions }
            let storeIDs = Set(transactions.map { $0[.transactionId] })
            return ReportOutput(
                report: report, rejected: rejected,
                rejectedCountedAtLastGoodVersion: rejected.filter { storeIDs.contains($0.id) }.count)
        }
    }
}
