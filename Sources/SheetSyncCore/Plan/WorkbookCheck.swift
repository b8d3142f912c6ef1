import SheetValues

/// What `check` reports of a workbook: the plan of reading it into an empty store
/// (`SyncPlanner`, purpose `.checking`), with each tab's count of rows that load.
///
/// With the check's own strategy (`.count`) the plain rows of Transactions and Receipts (`PlainRows`)
/// are counted on their cells' bytes, building no record; their other rows, and the other tabs, are
/// planned as usual. Every strategy gives the same report (`WorkbookCheckTests` and `OnePathTests`
/// compare them on workbooks with every kind of problem): counting only skips building the records of
/// rows nobody looks at.
public enum WorkbookCheck {
    /// The plan and each tab's count of rows that load; `noted`, the cells of the counted tabs set aside
    /// on the way for `noting` (`check`'s cell review: a tab missing there was not scanned for them).
    public static func plan(
        _ workbook: [Tab: Table], now: Timestamp, newID: @escaping @Sendable () -> String, forms: LocalForms = .standard,
        noting: [Tab: CellCandidates] = [:], strategy: PlanStrategy = .fastest(for: .checking)
    ) -> (plan: SyncPlan, loadable: [Tab: Int], noted: [Tab: [NotedCell]]) {
        var planner = SyncPlanner(purpose: .checking, now: now, strategy: strategy, newID: newID)
        planner.forms = forms
        return planned(workbook, planner: planner, noting: noting)
    }

    /// The plan as `plan` makes it with `planner`, or nil when no row was counted on its bytes.
    static func planCounting(_ workbook: [Tab: Table], planner: SyncPlanner, noting: [Tab: CellCandidates] = [:]) -> (
        plan: SyncPlan, loadable: [Tab: Int], noted: [Tab: [NotedCell]]
    )? {
        let made = planned(workbook, planner: planner, noting: noting)
        return made.plan.tabs.contains { ($0.plain?.count ?? 0) > 0 } ? made : nil
    }

    private static func planned(_ workbook: [Tab: Table], planner: SyncPlanner, noting: [Tab: CellCandidates]) -> (
        plan: SyncPlan, loadable: [Tab: Int], noted: [Tab: [NotedCell]]
    ) {
        var planner = planner
        planner.noting = noting
        let plan = planner.plan(workbook: workbook, ledger: LedgerState(rows: [:], base: [:]))
        var loadable: [Tab: Int] = [:]
        var noted: [Tab: [NotedCell]] = [:]
        for tab in plan.tabs {
            loadable[tab.tab] = tab.result.count + (tab.plain?.count ?? 0)
            if let plain = tab.plain, noting[tab.tab] != nil { noted[tab.tab] = plain.noted }
        }
        return (plan, loadable, noted)
    }
}
