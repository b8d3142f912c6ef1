import SheetValues

/// The steps of `SyncPlanner.plan`: each tab's rows prepared, reconciled and guarded, in dependency
/// order, then the guards over the whole run.
extension SyncPlanner {
    /// One plan in the making: what each tab's plan reads and leaves for the tabs after it.
    struct Planning {
        /// The store's side; a tab's base changes as its rows are prepared (`prepare`).
        var ledger: LedgerState
        /// Each tab's rows as read.
        var read: [Tab: [SheetRow]]
        var result: SyncPlan
        let workbook: [Tab: Table]
        let scope: ChangeScope?
        var checks: CrossTabChecks
        /// Categories the Categories tab shows renamed (old name → new), for the tabs naming them.
        var renamedElsewhere: [String: String] = [:]

        init(ledger: LedgerState, read: [Tab: [SheetRow]], result: SyncPlan, workbook: [Tab: Table], scope: ChangeScope?) {
            self.ledger = ledger
            self.read = read
            self.result = result
            self.workbook = workbook
            self.scope = scope
            checks = CrossTabChecks(ledger: ledger)
        }

        /// A tab's finished plan, which the cross-tab checks of the tabs after it read.
        mutating func add(_ plan: TabPlan) {
            checks.record(plan)
            result.tabs.append(plan)
        }
    }

    /// The store's rows of a tab, canonical, with what the user is told of them.
    typealias LocalRows = (rows: [String: LedgerRow], notices: [SyncIssue])

    /// A tab's plan: its rows prepared, reconciled, and held back where a guard says so.
    func planTab(_ tab: Tab, _ read: [SheetRow], run: inout Planning) -> TabPlan {
        var rows = read
        let cutRow = run.workbook[tab].flatMap { CutShortFile.mark(&rows, table: $0) }
        let local = prepare(tab, &rows, run: &run)
        var plan = reconcile(tab, rows, local: local, run: run)
        guardTab(&plan, rows: rows, local: local.rows, cutRow: cutRow, run: &run)
        return plan
    }

    /// The sheet's rows and the store's made ready to reconcile: renames followed, an import's empty
    /// cells and a transaction's lost id filled, and the base adjusted where a rename or a deleted
    /// recurring instance would otherwise read as an edit or a delete.
    private func prepare(_ tab: Tab, _ rows: inout [SheetRow], run: inout Planning) -> LocalRows {
        run.checks.applyRenames(&rows, tab: tab)
        if coercesText, case .sync = purpose {
            RoundTripChecks.holdCoerced(&rows, schema: tab.schema, base: run.ledger.base[tab] ?? [:])
        }
        var local = canonicalLocal(tab, ledger: run.ledger)
        local.notices += RenamesElsewhere.follow(run.renamedElsewhere, tab: tab, local: &local.rows, base: run.ledger.base[tab] ?? [:])
        if purpose == .importing { Self.keepGivenValuesOnly(&rows, store: local.rows) }
        if tab == .transactions, case .sync = purpose { Self.readoptLostIDs(&rows, local: local.rows) }
        if CrossTabChecks.namesCategory(tab), !run.ledger.renames.isEmpty {
            let (tombstones, renames) = (run.ledger.tombstones[tab] ?? [:], run.ledger.renames)
            Self.undoRenameEdits(&local.rows, &rows, base: &run.ledger.base[tab, default: [:]], tombstones: tombstones, renames: renames)
        }
        if tab == .transactions, case .sync = purpose {
            let found = DeletedInstances.find(
                local: local.rows, base: run.ledger.base[tab] ?? [:], sheet: rows, rules: run.read[.recurringRules] ?? [])
            for instance in found {
                // As if both sides had agreed on the row before the workbook deleted it.
                run.ledger.base[tab, default: [:]][instance.key] = local.rows[instance.key]
                local.notices.append(instance.note)
            }
        }
        return local
    }

    /// The three-way reconcile of a prepared tab, with the rejections and notices of its rows.
    private func reconcile(_ tab: Tab, _ rows: [SheetRow], local: LocalRows, run: Planning) -> TabPlan {
        let ledger = run.ledger
        let held = run.checks.heldLocalRows(tab, local: local.rows, base: ledger.base[tab] ?? [:])
        let state = TabState(
            schema: tab.schema.reading(forms), base: ledger.base[tab] ?? [:], local: local.rows,
            localAsRead: ledger.rows[tab] ?? [:], tombstones: ledger.tombstones[tab] ?? [:],
            remote: rows, heldLocal: Set(held.map(\.id)), deleted: ledger.deleted[tab] ?? [:])
        var context = ReconcileContext(
            now: now, newID: newID, validate: run.checks.validator(for: tab), listsStoreWrites: purpose != .checking,
            stableCopyIDs: purpose == .importing, givesIDs: purpose != .sync(.pull) && purpose != .checking)
        context.savedAt = savedAt[tab]
        var plan = Reconciler.plan(state, context: context, sharesBase: strategy.sharesBase)
        plan.unchanged = run.scope?.narrowed[tab]?.unchanged ?? UnchangedRows()
        if let table = run.workbook[tab] { Self.fillRawCells(&plan.rejections, from: table) }
        plan.rejections += held
        plan.localCounts.rejected = plan.rejections.count
        plan.notices = local.notices + plan.notices
        if coercesText, case .sync = purpose { plan.notices += RoundTripChecks.written(plan) }
        if tab == .categories { plan.notices += CategoryCheck.caseVariantNotes(result: plan.result, base: ledger.base[tab] ?? [:]) }
        return plan
    }

    /// The guards of one tab: categories in use, an older copy saved over the workbook, damaged rows,
    /// an import's never-delete, and a tab the workbook lacks.
    private func guardTab(_ plan: inout TabPlan, rows: [SheetRow], local: [String: LedgerRow], cutRow: Int?, run: inout Planning) {
        let tab = plan.tab
        let base = run.ledger.base[tab] ?? [:]
        // First (its message names what to do): a category that appears as another goes (a rename typed into the tab) is the rename flow's:
        // its rows are rejected with the `category rename` hint.
        if tab == .categories, case .sync = purpose {
            run.renamedElsewhere = RenamesElsewhere.find(categories: plan, base: run.ledger.base, sheet: run.read)
            if !plan.localDeletes.isEmpty, !plan.result.keys.contains(where: { base[$0] == nil }) {
                let named = Set([Tab.transactions, .recurringRules].flatMap { (run.ledger.rows[$0] ?? [:]).values.map { $0[.category] } })
                    .subtracting(run.renamedElsewhere.keys)
                CategoryCheck.keepInUse(&plan, local: local, named: named).map { run.result.held.append($0) }
            }
        }
        if case .sync = purpose, !allowMassDelete {
            StaleCopyGuard.apply(
                to: &plan, remote: rows, base: base, local: local, writtenBack: run.ledger.writtenBack[tab] ?? [],
                appendedHere: run.ledger.appendedHere[tab] ?? [:]
            ).map { run.result.held.append($0) }
        }
        run.result.held += Self.holdDamaged(&plan, table: run.workbook[tab], cutRow: cutRow, base: run.ledger.base)
        if purpose == .importing { Self.neverDelete(&plan, local: local) }
        if run.workbook[tab] == nil, case .sync(let mode) = purpose, mode != .pull {
            // A tab the store never had (a tab the base knows stopped above as missing): made whole again.
            plan.createsTab = true
            plan.notices.append(
                .notice(.tabCreated, at: .tab(tab), "the workbook has no \(tab.rawValue) tab; it is created with its header"))
        }
    }

    /// A tab with damaged rows (broken quoting, a stray line break) or cut short: writing it back would
    /// fix the damage into the file, so it only feeds the store this run. Returns what is held back.
    static func holdDamaged(_ plan: inout TabPlan, table: Table?, cutRow: Int?, base: [Tab: [String: LedgerRow]]) -> [SyncIssue] {
        let tab = plan.tab
        let damaged = table?.damagedRows.count ?? 0
        guard damaged > 0 || cutRow != nil else { return [] }
        var only = [plan]
        DirectionFilter.restrict(&only, to: .pull, base: base)
        plan = only[0]
        plan.keepLocalDeletes(base: base[tab] ?? [:])
        var held: [SyncIssue] = []
        if damaged > 0 {
            held.append(
                .heldBack(
                    .damagedTab, at: .tab(tab),
                    "\(damaged) row(s) with broken quoting or a stray line break; nothing of the tab was "
                        + "deleted and it is not written until they are fixed"))
        }
        if let cutRow { held.append(CutShortFile.held(tab, row: cutRow)) }
        return held
    }

    /// An import never deletes: a row the file lacks stays, and still counts for the tabs after it;
    /// what it replaces is kept in the conflict log (the way back for an overwrite).
    static func neverDelete(_ plan: inout TabPlan, local: [String: LedgerRow]) {
        let tab = plan.tab
        for write in plan.localUpserts {
            let key = write.record[tab.schema.keyField]
            if let old = local[key] { _ = Reconciler.keep(write.record, over: old, key: key, tab: tab, plan: &plan) }
        }
        for delete in plan.localDeletes { plan.result[delete.key] = local[delete.key] ?? delete.expected }
        plan.localDeletes = []
        plan.localCounts.deleted = 0
        plan.remoteCounts = TabCounts()
    }

    /// The guards over the whole run: a sync restricted to its direction, the mass-delete guard, and
    /// transactions kept while a receipt points at them; an import leaves Settings alone.
    func guardRun(_ run: inout Planning) {
        let ledger = run.ledger
        switch purpose {
        case .sync(let mode):
            DirectionFilter.restrict(&run.result.tabs, to: mode, base: ledger.base)
            let emptied = Set(
                run.workbook.compactMap { tab, table in
                    tab != .settings && !(ledger.base[tab] ?? [:]).isEmpty && Self.hasNoRows(table) ? tab : nil
                })
            let trips =
                allowMassDelete
                ? []
                : MassDeleteGuard.trips(
                    run.result.tabs, base: ledger.base, renamed: Set(ledger.renames.keys), emptied: emptied,
                    deletedByName: ledger.deletedByName)
            if !trips.isEmpty {
                run.result.held += trips
                run.result.blocked = true
            } else {
                // After the guard, which judges the deletes the workbook asked for.
                Self.keepTransactionsWithReceipts(&run.result, sheetReceipts: run.read[.receipts] ?? [], ledger: ledger)
            }
        case .importing:
            run.result.tabs.removeAll { $0.tab == .settings }
        case .checking:
            break
        }
    }

    /// Each tab's record of what changed, for the store's change marks and hashes.
    static func recordChanges(_ run: inout Planning) {
        let (ledger, scope) = (run.ledger, run.scope)
        for i in run.result.tabs.indices {
            let tab = run.result.tabs[i].tab
            run.result.tabs[i].changes = ChangeRecord.of(
                run.result.tabs[i], rows: run.read[tab] ?? [], hashes: scope?.hashes[tab], keys: scope?.keys[tab],
                local: ledger.rows[tab] ?? [:], oldBase: ledger.base[tab] ?? [:], wholeTab: scope?.narrowed[tab] == nil)
        }
    }
}
