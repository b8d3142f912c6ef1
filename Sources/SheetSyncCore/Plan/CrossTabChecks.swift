import SheetValues

/// The checks that span tabs: a category must exist (on both sides, pending renames seen), and a
/// receipt must point at a transaction. Fed by each tab's plan in `SyncPlanner.order`.
struct CrossTabChecks {
    /// Category names after the Categories plan (the store's, when that tab is not planned).
    private var categories: Set<String>
    /// Names the base knew and the plan's result lacks (removed or renamed by hand).
    private var removedCategories: Set<String> = []
    /// Transactions after the Transactions plan (the store's, when that tab is not planned), by id:
    /// the plan's own dictionary, not a set of its keys built again (100k inserts on a first pull).
    private var transactions: [String: LedgerRow]
    private var frozenTransactions: Set<String> = []
    /// Transactions the plan deletes from the store (gone from the workbook).
    private var deletedTransactions: Set<String> = []
    /// Transactions the plan left out as unchanged (present on both sides).
    private var unchangedTransactions = UnchangedRows()
    /// Transactions taken as read (`TabPlan.plain`), which the plan keeps no records of.
    private(set) var plainTransactions: PlainRows?
    private let renames: [String: String]
    private let baseCategories: Set<String>

    init(ledger: LedgerState) {
        categories = Set((ledger.rows[.categories] ?? [:]).keys)
        baseCategories = Set((ledger.base[.categories] ?? [:]).keys)
        transactions = ledger.rows[.transactions] ?? [:]
        renames = ledger.renames
    }

    /// The category names rows may name.
    var knownCategories: Set<String> { categories }

    static func namesCategory(_ tab: Tab) -> Bool { tab == .transactions || tab == .recurringRules }

    /// Takes what a planned tab leaves behind as the known names or ids for the tabs after it.
    mutating func record(_ plan: TabPlan) {
        let frozen = Set(plan.rejections.map(\.id).filter { !$0.isEmpty })
        switch plan.tab {
        case .categories:
            categories = Set(plan.result.keys).union(frozen)
            removedCategories = baseCategories.subtracting(categories)
        case .transactions:
            (transactions, frozenTransactions, unchangedTransactions) = (plan.result, frozen, plan.unchanged)
            deletedTransactions = Set(plan.localDeletes.map(\.key))
            plainTransactions = plan.plain
        default:
            break
        }
    }

    /// The check a sheet row of `tab` must pass to load.
    func validator(for tab: Tab) -> @Sendable (LedgerRow) -> FieldProblem? {
        switch tab {
        case .transactions, .recurringRules:
            let (known, removed) = (categories, removedCategories)
            return { CategoryCheck.problem(for: $0[.category], known: known, removed: removed) }
        case .receipts:
            let (known, frozen, unchanged) = (transactions, frozenTransactions, unchangedTransactions)
            let (deleted, loaded) = (deletedTransactions, plainTransactions)
            return { record in
                let id = record[.transactionId]
                guard known.index(forKey: id) == nil, !frozen.contains(id), !unchanged.contains(id),
                    !(loaded?.contains(RowKey(id)) ?? false)
                else { return nil }
                if deleted.contains(id) {
                    // The store still has it: "does not exist" would send the user to delete the receipt.
                    return FieldProblem(
                        field: "transactionId", value: id,
                        message: "its transaction '\(id)' is gone from the workbook (the store still has it)",
                        hint: "if that was a mistake, put the transaction back in the workbook; if not, delete this receipt row too",
                        code: .unknownTransaction)
                }
                return FieldProblem(
                    field: "transactionId", value: id, message: "transaction '\(id)' does not exist",
                    hint:
                        "point the receipt at an existing transactionId, delete the receipt row, or bring the transaction back with `sheetsync restore` if it was deleted",
                    code: .unknownTransaction)
            }
        case .settings:
            return { SettingsChecks.timeZoneProblem($0[.timezone]) }
        case .categories:
            return { _ in nil }
        }
    }

    /// Sheet rows that still name a category renamed in the store take the new name (and the cell
    /// is rewritten), so a rename reaches rows the store never saw.
    func applyRenames(_ rows: inout [SheetRow], tab: Tab) {
        guard Self.namesCategory(tab), !renames.isEmpty else { return }
        for i in rows.indices {
            guard case .record(var record, var fixes) = rows[i].outcome else { continue }
            let name = record[.category]
            guard !categories.contains(name), let renamed = renames[name], categories.contains(renamed) else { continue }
            record[.category] = renamed
            fixes.insert(FieldKey.category.rawValue)
            rows[i].outcome = .record(record, fixes: fixes)
        }
    }

    /// Store rows changed since the last sync that name an unknown category: held back from the
    /// push (frozen) and reported, like a sheet row with the same problem.
    func heldLocalRows(_ tab: Tab, local: [String: LedgerRow], base: [String: LedgerRow]) -> [Rejection] {
        if tab == .receipts { return heldReceipts(local: local, base: base) }
        guard Self.namesCategory(tab) else { return [] }
        var held: [Rejection] = []
        for (key, record) in local where base[key] != record && !categories.contains(record[.category]) {
            let name = record[.category]
            held.append(
                Rejection(
                    tab: tab, row: Rejection.storeRow, id: key, message: "unknown category '\(name)' in the store",
                    hint: CategoryCheck.hint(for: name, known: categories, removed: removedCategories)
                        + "; the row stays in the store and is not pushed until it is fixed",
                    rawCells: tab.schema.fields.map { record[$0.key] }, code: .unknownCategory))
        }
        return held.sorted { $0.id < $1.id }
    }

    /// Receipts added or changed in the store whose transaction the Transactions plan leaves out (it
    /// was deleted in the sheet meanwhile): pushed, they would be rows the next read rejects.
    private func heldReceipts(local: [String: LedgerRow], base: [String: LedgerRow]) -> [Rejection] {
        var held: [Rejection] = []
        for (key, record) in local where base[key] != record {
            let id = record[.transactionId]
            guard transactions.index(forKey: id) == nil, !frozenTransactions.contains(id), !unchangedTransactions.contains(id),
                !(plainTransactions?.contains(RowKey(id)) ?? false)
            else { continue }
            held.append(
                Rejection(
                    tab: .receipts, row: Rejection.storeRow, id: key, message: "its transaction '\(id)' does not exist",
                    hint: "bring the transaction back with `sheetsync restore \(id)` if it was deleted, or point the receipt "
                        + "at another one; the row stays in the store and is not pushed until then",
                    rawCells: Tab.receipts.schema.fields.map { record[$0.key] }, code: .unknownTransaction))
        }
        return held.sorted { $0.id < $1.id }
    }
}
