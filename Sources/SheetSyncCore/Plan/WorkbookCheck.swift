import SheetValues

/// What `check` reports of a workbook: the plan of reading it into an empty store
/// (`SyncPlanner`, purpose `.checking`), with each tab's count of rows that load.
///
/// A workbook whose Transactions and Receipts hold only plain rows (`PlainRows`), with the other tabs
/// reading cleanly, has those two tabs counted on their cells' bytes; the other tabs, which they
/// depend on and not the other way round, are planned as usual. Any other workbook is planned whole.
/// Both ways give the same report (`WorkbookCheckTests` compares them on workbooks with every kind of
/// problem): the counted way only skips building the records nobody looks at.
public enum WorkbookCheck {
    /// The tabs counted on their bytes when they are plain: the big ones.
    static let counted: [Tab] = [.transactions, .receipts]

    /// The plan and each tab's count of rows that load; `noted`, the cells of the counted tabs set aside
    /// on the way for `noting` (`check`'s cell review: a tab missing there was not scanned for them).
    /// Counted only with `strategy` `.count` (a check's own); any other plans the workbook whole.
    public static func plan(
        _ workbook: [Tab: Table], now: Timestamp, newID: @escaping @Sendable () -> String, forms: LocalForms = .standard,
        noting: [Tab: CellCandidates] = [:], strategy: PlanStrategy = .fastest(for: .checking)
    ) -> (plan: SyncPlan, loadable: [Tab: Int], noted: [Tab: [NotedCell]]) {
        var planner = SyncPlanner(purpose: .checking, now: now, strategy: strategy, newID: newID)
        planner.forms = forms
        if planner.strategy == .count, let counted = planCounting(workbook, planner: planner, noting: noting) { return counted }
        let plan = planner.plan(workbook: workbook, ledger: LedgerState(rows: [:], base: [:]))
        return (plan, loadable(plan), [:])
    }

    /// The plan with Transactions and Receipts counted, or nil when one of them (or another tab) is
    /// not plain.
    static func planCounting(_ workbook: [Tab: Table], planner: SyncPlanner, noting: [Tab: CellCandidates] = [:]) -> (
        plan: SyncPlan, loadable: [Tab: Int], noted: [Tab: [NotedCell]]
    )? {
        guard let transactions = workbook[.transactions], let receipts = workbook[.receipts],
            transactions.visitCells(rows: 0..<0, cell: { _ in true }, endOfRow: { _ in true })
        else { return nil }
        var others = workbook
        for tab in counted { others[tab] = Table(header: workbook[tab]?.header ?? []) }
        let plan = planner.plan(workbook: others, ledger: LedgerState(rows: [:], base: [:]))
        guard plan.converges, plan.tabs.allSatisfy({ $0.rejections.isEmpty }),
            let categories = plan.tabs.first(where: { $0.tab == .categories })
        else { return nil }
        guard
            let plainTransactions = PlainRows.scan(
                transactions, schema: Tab.transactions.schema.reading(planner.forms), now: planner.now,
                categories: Set(categories.result.keys), noting: noting[.transactions]),
            let plainReceipts = PlainRows.scan(
                receipts, schema: Tab.receipts.schema.reading(planner.forms), now: planner.now, transactions: plainTransactions,
                noting: noting[.receipts])
        else { return nil }
        var counts = loadable(plan)
        counts[.transactions] = plainTransactions.count
        counts[.receipts] = plainReceipts.count
        var noted: [Tab: [NotedCell]] = [:]
        if noting[.transactions] != nil { noted[.transactions] = plainTransactions.noted }
        if noting[.receipts] != nil { noted[.receipts] = plainReceipts.noted }
        return (plan, counts, noted)
    }

    private static func loadable(_ plan: SyncPlan) -> [Tab: Int] {
        Dictionary(uniqueKeysWithValues: plan.tabs.map { ($0.tab, $0.result.count) })
    }
}
