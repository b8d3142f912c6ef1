import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// A transaction typed on the command line.
public struct NewTransaction: Sendable {
    public var type: String
    public var amount: String
    public var category: String
    public var date: String?
    public var note: String
    public var tags: String

    public init(type: String, amount: String, category: String, date: String? = nil, note: String = "", tags: String = "") {
        self.type = type
        self.amount = amount
        self.category = category
        self.date = date
        self.note = note
        self.tags = tags
    }
}

/// `sheetsync add`: a transaction typed on the command line added to the store.
public struct Transactions: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Adds a transaction to the local store (the next push writes it to the workbook); returns its id.
    public func add(_ new: NewTransaction, dryRun: Bool = false) async throws -> String {
        try await workspace.withStore(preview: dryRun) { store in
            let categories = Set(try store.records(in: .categories).map { $0[.name] })
            // Trimmed, as a category cell in the sheet is read.
            let category = new.category.trimmingCharacters(in: .whitespaces)
            if let problem = CategoryCheck.problem(for: category, known: categories) {
                guard try store.state(SyncEngine.stateLastSync) != nil else {
                    // The workbook's categories reach the store with the first sync.
                    throw SheetSyncError(
                        .usage,
                        "\(problem.message): this store has never synced, so it knows no category of the workbook yet; run "
                            + "`sheetsync sync` first (or `sheetsync category add '\(category)'` for a new one)")
                }
                throw SheetSyncError(.usage, "\(problem.message) (\(problem.hint))")
            }
            let now = workspace.clock.now()
            let day =
                try new.date.map { try LocalDate.option($0, named: "--date", workspace.localForms(store)).description }
                ?? workspace.today(store: store).description
            guard case .success(let amount) = Amount.parse(new.amount) else {
                throw SheetSyncError(.usage, "--amount '\(new.amount)' is not an amount (a non-negative decimal such as 12.50)")
            }
            let id = workspace.newID()
            let date = LocalDate(iso: day)
            let record = LedgerRow([
                .transactionId: id, .type: new.type, .date: day, .year: date.map { String($0.year) } ?? "",
                .month: date.map { String($0.month) } ?? "", .amount: amount.description, .category: category,
                .tagsCSV: new.tags, .note: new.note, .paidFlag: "", .reimbursedFlag: "", .recurringRuleId: "",
                .createdAt: now.description, .lastModifiedAt: now.description,
            ])
            try store.upsert(record, in: .transactions)
            return id
        }
    }
}
