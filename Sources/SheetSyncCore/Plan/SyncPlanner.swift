import SheetValues

/// Which directions a run moves changes in.
public enum SyncMode: String, Sendable, Codable {
    case pull, push, sync
}

/// What a plan is for: a sync in some direction, an import of another workbook, or a check.
public enum PlanPurpose: Hashable, Sendable {
    case sync(SyncMode)
    /// The store's rows are the base; the file only adds and updates, and may lack tabs.
    case importing
    /// Against an empty store: the plan's rejections are exactly the workbook's problems.
    case checking
}

/// The store's side of a plan.
public struct LedgerState: Sendable {
    public var rows: [Tab: [String: LedgerRow]]
    public var base: [Tab: [String: LedgerRow]]
    public var tombstones: [Tab: [String: String]]
    /// Category renames made in the store and not yet seen through a sync: old name → new name.
    public var renames: [String: String]
    /// Key → `lastModifiedAt` of rows deleted from the store and kept for `restore` (`TabState.deleted`).
    public var deleted: [Tab: [String: String]] = [:]
    /// Rows an older copy saved over the workbook lacked, alone, and that a run wrote back
    /// (`StaleCopyGuard`): absent again, their delete is meant.
    public var writtenBack: [Tab: Set<String>] = [:]

    /// The store's `sync_state` keys of rows written back after an older copy lacked them alone.
    public static let writtenBackPrefix = "writtenBack:"
    /// The `sync_state` key of a row written back after an older copy lacked it alone.
    public static func writtenBackKey(_ tab: Tab, _ key: String) -> String { writtenBackPrefix + tab.rawValue + ":" + key }
    /// Rows this store's own recent runs added to the workbook (a few at a time: `sheetsync add`, a
    /// recurring instance), by tab, with when each run wrote them: the rows an editor's older copy can
    /// lack alone. Another machine's delete of a row it added is a delete here.
    public var appendedHere: [Tab: [String: String]] = [:]
    /// The store's `sync_state` keys of rows its own runs added to the workbook (value: when).
    public static let appendedHerePrefix = "appendedHere:"
    public static func appendedHereKey(_ tab: Tab, _ key: String) -> String { appendedHerePrefix + tab.rawValue + ":" + key }

    /// Rows a sheetsync command deleted from the store by name (`rule delete`), by tab: deletes asked
    /// for one by one, which the mass-delete guard does not count.
    public var deletedByName: [Tab: Set<String>] = [:]
    /// The store's `sync_state` keys of rows deleted by name (value: when).
    public static let deletedByNamePrefix = "deletedByName:"
    public static func deletedByNameKey(_ tab: Tab, _ key: String) -> String { deletedByNamePrefix + tab.rawValue + ":" + key }

    /// The store's `sync_state` keys of pending category renames start with this.
    public static let renamePrefix = "categoryRename:"
    /// The `sync_state` key of a pending category rename (old name → new name).
    public static func renameKey(_ old: String) -> String { renamePrefix + old }

    public init(
        rows: [Tab: [String: LedgerRow]], base: [Tab: [String: LedgerRow]], tombstones: [Tab: [String: String]] = [:],
        renames: [String: String] = [:]
    ) {
        self.rows = rows
        self.base = base
        self.tombstones = tombstones
        self.renames = renames
    }
}

/// The plan of one run over every tab, with the guards that held changes back.
public struct SyncPlan: Sendable {
    public var tabs: [TabPlan] = []
    /// Tabs that could not be read (a missing column) or are missing: nothing of them changes.
    public var tabErrors: [TabError] = []
    /// Tabs the base knows and the workbook lacks (unreadable, not empty).
    public var missingTabs: [Tab] = []
    /// Guards that held changes back; the run exits 65.
    public var held: [SyncIssue] = []
    /// True when a guard stopped the whole run: nothing may be applied.
    public var blocked = false
    /// The dataset's Settings row as the workbook has it, if readable.
    public var settings: LedgerRow?

    /// Every tab was read and nothing was held: the sides agree after this plan is applied.
    public var converges: Bool { tabErrors.isEmpty && held.isEmpty && !blocked }
}

/// Plans a run from values: reads each tab tolerantly, reconciles the tabs in dependency
/// order with the cross-tab checks, restricts to the run's direction and applies every guard (missing
/// tab, emptied tab, mass delete, stale copy). Pure: the time and new ids are passed in.
public struct SyncPlanner: Sendable {
    public var purpose: PlanPurpose
    public var allowMassDelete: Bool
    public var now: Timestamp
    public var newID: @Sendable () -> String
    /// When each tab was last saved, as the remote tells (`ReconcileContext.savedAt`).
    public var savedAt: [Tab: Timestamp] = [:]
    /// How the workbook's dates and amounts typed as text read (the ledger's settings).
    public var forms = LocalForms.standard
    /// The workbook is CSV, which a spreadsheet program may open and save, turning texts that look
    /// like numbers into numbers (`RoundTripChecks`).
    public var coercesText = false
    /// How each tab's plan is made (`PlanStrategy.fastest(for:)` of the purpose unless given).
    public var strategy: PlanStrategy
    /// The cells a check's scan of its plain tabs sets aside on the way (`PlainRows.noted`), by tab.
    public var noting: [Tab: CellCandidates] = [:]

    /// Categories before the rows naming them, transactions before the receipts pointing at them.
    public static let order: [Tab] = [.settings, .categories, .recurringRules, .transactions, .receipts]

    public init(
        purpose: PlanPurpose, allowMassDelete: Bool = false, now: Timestamp, strategy: PlanStrategy? = nil,
        newID: @escaping @Sendable () -> String
    ) {
        self.purpose = purpose
        self.strategy = strategy ?? .fastest(for: purpose)
        self.allowMassDelete = allowMassDelete
        self.now = now
        self.newID = newID
    }

    /// - Parameters:
    ///   - workbook: the tabs the workbook has (a tab it lacks is absent).
    ///   - scope: the rows left out as unchanged (`ledger` then holds only the other keys of a
    ///     narrowed tab), with every row's hash to record; nil plans every row and records no hash.
    public func plan(workbook: [Tab: Table], ledger: LedgerState, scope: ChangeScope? = nil) -> SyncPlan {
        var result = SyncPlan()
        let plainTabs = plainTabs(workbook, ledger: ledger, scope: scope)
        let read = readTabs(workbook, ledger: ledger, scope: scope, skipping: plainTabs, into: &result)
        var ledger = ledger
        if workbook[.settings].map(Self.hasNoRows) ?? true, case .sync = purpose {
            // A missing or emptied Settings tab is recreated from the store: its row is new to the
            // workbook. The row binds the store to its dataset; emptying the tab never deletes it.
            ledger.base[.settings] = [:]
        }
        var run = Planning(ledger: ledger, read: read, result: result, workbook: workbook, scope: scope)
        for tab in Self.order {
            if plainTabs.contains(tab) {
                if let plan = planPlain(tab, run: &run) {
                    run.add(plan)
                    continue
                }
                run.read[tab] = readTab(tab, workbook, ledger: run.ledger, scope: scope, into: &run.result)
            }
            guard let rows = run.read[tab] else { continue }
            let plan = planTab(tab, rows, run: &run)
            run.add(plan)
        }
        guardRun(&run)
        if case .sync = purpose { Self.recordChanges(&run) }
        return run.result
    }

    /// Each tab's rows but those of `skipping` (read later, if at all); see `readTab`.
    private func readTabs(
        _ workbook: [Tab: Table], ledger: LedgerState, scope: ChangeScope?, skipping: Set<Tab>, into result: inout SyncPlan
    ) -> [Tab: [SheetRow]] {
        var read: [Tab: [SheetRow]] = [:]
        for tab in Tab.allCases where !skipping.contains(tab) {
            read[tab] = readTab(tab, workbook, ledger: ledger, scope: scope, into: &result)
        }
        if var settings = read[.settings] {
            SettingsChecks.keepOne(&settings, known: Set((ledger.base[.settings] ?? [:]).keys).union((ledger.rows[.settings] ?? [:]).keys))
            read[.settings] = settings
        }
        result.settings = Self.firstRecord(read[.settings] ?? [])
        return read
    }

    /// A tab's rows; a missing tab is unreadable when the base knows it (or when checking),
    /// and empty when it is new (it is created on the first push).
    func readTab(
        _ tab: Tab, _ workbook: [Tab: Table], ledger: LedgerState, scope: ChangeScope?, into result: inout SyncPlan
    ) -> [SheetRow]? {
        var table: Table
        if let present = workbook[tab] {
            table = present
            if Self.isBlank(present) {
                // Cleared with its header (select all, Delete): an emptied tab, not renamed columns.
                // The header is written back with the first row the tab gets.
                table = Table(header: TablePatcher.newHeader(tab.schema))
            }
        } else {
            switch purpose {
            case .importing:
                return nil
            case .checking:
                result.missingTabs.append(tab)
                result.tabErrors.append(TabError(tab: tab, message: "the workbook has no \(tab.rawValue) tab"))
                return nil
            case .sync:
                // Settings is recreated from the store; other tabs the base knows are held.
                if tab != .settings, !(ledger.base[tab] ?? [:]).isEmpty {
                    result.missingTabs.append(tab)
                    result.tabErrors.append(
                        TabError(tab: tab, message: "the tab is missing from the workbook; nothing of it was deleted"))
                    return nil
                }
                table = Table(header: TablePatcher.newHeader(tab.schema))
            }
        }
        do {
            return try TabReader.read(table, schema: tab.schema.reading(forms), seenAt: now, skipping: scope?.narrowed[tab]?.unchanged.rows)
                .1
        } catch {
            result.tabErrors.append(error)
            return nil
        }
    }

    /// The tabs whose plain rows (`PlainRows`) are taken as read, without a record each: Transactions
    /// and Receipts, where a check counts them (`count`) or a pull loads them (`loadPlain`) into a store
    /// that has nothing of them at all (no row, base, tombstone, kept deleted row or pending rename), and
    /// the workbook keeps them as bytes. Which rows are plain is known only once the tabs before them
    /// are planned (`planPlain`).
    func plainTabs(_ workbook: [Tab: Table], ledger: LedgerState, scope: ChangeScope?) -> Set<Tab> {
        switch (strategy, purpose) {
        case (.count, .checking), (.loadPlain, .sync(.pull)): break
        default: return []
        }
        guard ledger.renames.isEmpty else { return [] }
        var tabs: Set<Tab> = []
        for tab in [Tab.transactions, .receipts] {
            guard let table = workbook[tab], scope?.narrowed[tab] == nil,
                (ledger.rows[tab] ?? [:]).isEmpty, (ledger.base[tab] ?? [:]).isEmpty,
                (ledger.tombstones[tab] ?? [:]).isEmpty, (ledger.deleted[tab] ?? [:]).isEmpty,
                table.visitCells(rows: 0..<0, cell: { _ in true }, endOfRow: { _ in true })
            else { continue }
            tabs.insert(tab)
        }
        // Receipts are plain only beside plain transactions (they point at them).
        if !tabs.contains(.transactions) { tabs.remove(.receipts) }
        return tabs
    }

    /// The plan of a `plainTabs` tab: its plain rows taken as read (`TabPlan.plain`; a pull loads them,
    /// `TabPlan.load`), and its other rows, with every row that shares a key with one of them, read and
    /// planned as any tab's. Nil when the tab does not scan (`PlainRows.scan`): it is then planned whole.
    func planPlain(_ tab: Tab, run: inout Planning) -> TabPlan? {
        guard let table = run.workbook[tab], var plain = scanPlain(tab, table, checks: run.checks),
            var rows = readOthers(tab, table, plain)
        else { return nil }
        // A key that a row read the ordinary way has too: which copy loads is the reconcile's to decide.
        let shared = rows.compactMap { row in row.key.map(RowKey.init) }.filter(plain.contains)
        if !shared.isEmpty {
            plain = plain.leaving(shared)
            guard let again = readOthers(tab, table, plain) else { return nil }
            rows = again
        }
        var load: PlainLoad?
        if purpose == .sync(.pull) {
            guard let made = PlainLoad(table, tab: tab, plain: plain, hashes: run.scope?.hashes[tab]) else { return nil }
            load = made
        }
        run.read[tab] = rows
        var plan = planTab(tab, rows, run: &run)
        plan.plain = plain
        plan.load = load
        plan.localCounts.added += plain.count
        return plan
    }

    /// The plain rows of `tab` (`PlainRows.scan`), against the categories and transactions the tabs
    /// before it leave.
    private func scanPlain(_ tab: Tab, _ table: Table, checks: CrossTabChecks) -> PlainRows? {
        let schema = tab.schema.reading(forms)
        switch tab {
        case .transactions:
            return PlainRows.scan(table, schema: schema, now: now, categories: checks.knownCategories, noting: noting[tab])
        case .receipts:
            guard let transactions = checks.plainTransactions else { return nil }
            return PlainRows.scan(table, schema: schema, now: now, transactions: transactions, noting: noting[tab])
        default:
            return nil
        }
    }

    /// The rows of `table` that `plain` leaves to the ordinary way, read as `readTab` reads a tab.
    private func readOthers(_ tab: Tab, _ table: Table, _ plain: PlainRows) -> [SheetRow]? {
        var skipping = [Bool](repeating: true, count: table.rowCount)
        for row in plain.others { skipping[row] = false }
        return try? TabReader.read(table, schema: tab.schema.reading(forms), seenAt: now, skipping: skipping).1
    }

    /// A transaction deleted from the workbook while a receipt row that stays in the workbook points
    /// at it is not deleted from the store: that row (rejected as pointing at a transaction gone from
    /// the workbook, "the store still has it") would point at nothing for good, and so would the
    /// store's copy of it. The delete is held back, naming the receipt row, until that row goes too or
    /// the transaction comes back. (A receipt only the store has is held back from the push instead,
    /// and `restore` brings its transaction back; a receipt the store deleted leaves the workbook.)
    ///
    /// The other way round alike: a transaction deleted in the store while such a receipt row points at
    /// it stays in the workbook (its tombstone waits), so that no machine's store is left holding it
    /// for ever while the others and the workbook have let it go.
    static func keepTransactionsWithReceipts(_ result: inout SyncPlan, sheetReceipts: [SheetRow], ledger: LedgerState) {
        guard let t = result.tabs.firstIndex(where: { $0.tab == .transactions }),
            !result.tabs[t].localDeletes.isEmpty || !result.tabs[t].remoteDeletes.isEmpty
        else { return }
        let deletedHere = ledger.tombstones[.receipts] ?? [:]
        var pointing: [String: [String]] = [:]
        for row in sheetReceipts {
            guard case .record(let receipt, _) = row.outcome, let key = row.key, deletedHere[key] == nil else { continue }
            pointing[receipt[.transactionId], default: []].append("\(key) (Receipts row \(row.sheetRowNumber))")
        }
        guard !pointing.isEmpty else { return }
        let base = ledger.base[.transactions] ?? [:]
        let held = Set(result.tabs[t].localDeletes.map(\.key).filter { pointing[$0] != nil })
        if !held.isEmpty { result.tabs[t].keepLocalDeletes(base: base, only: held) }
        let kept = Set(result.tabs[t].remoteDeletes.map(\.key).filter { pointing[$0] != nil })
        if !kept.isEmpty {
            result.tabs[t].remoteDeletes.removeAll { kept.contains($0.key) }
            result.tabs[t].remoteCounts.deleted = result.tabs[t].remoteDeletes.count
            result.tabs[t].clearedTombstones.removeAll { kept.contains($0) }
            for key in kept { result.tabs[t].base[key] = base[key] }
        }
        for key in held.union(kept).sorted() {
            let receipts = (pointing[key] ?? []).sorted().joined(separator: ", ")
            result.held.append(
                .heldBack(
                    .receiptLinksDeletedTransaction, at: .key(key, of: .transactions),
                    held.contains(key)
                        ? "deleted in the workbook, but receipt \(receipts) still points at it; the store keeps the "
                            + "transaction until that receipt row is deleted too (or put the transaction back in the workbook)"
                        : "deleted in the store, but receipt \(receipts) in the workbook still points at it; the "
                            + "workbook keeps the transaction until that receipt row is deleted too (or `sheetsync restore \(key)`)"))
        }
    }

    /// A row rejected after it read as a record (an unknown category, a missing transaction) kept no
    /// cells of its own (`TabReader` lets them go once a row reads): the rejected-row log gets them
    /// from the table, as read and in column order.
    static func fillRawCells(_ rejections: inout [Rejection], from table: Table) {
        for i in rejections.indices where rejections[i].rawCells.isEmpty && rejections[i].row != Rejection.storeRow {
            let index = rejections[i].row - Table.sheetRowNumber(ofDataRow: 0)
            guard index >= 0, index < table.rowCount else { continue }
            rejections[i].rawCells = table.row(index).map(\.rawText)
        }
    }

    /// A transaction typed without an id gets one written by the sync; a copy saved from before that
    /// (the editor kept the file open) has it without the id again, and lacks the id the store gave it.
    /// Such a row, with the content of a store row the workbook lacks, takes that row's id back instead
    /// of a new one: the same expense, not a second (`ImportDeduplicator.content`: date, type, amount,
    /// category, note, tags; each store row is taken once).
    static func readoptLostIDs(_ rows: inout [SheetRow], local: [String: LedgerRow]) {
        guard rows.contains(where: { $0.key == "" }), !local.isEmpty else { return }
        let inSheet = Set(rows.compactMap(\.key))
        var lost: [String: [String]] = [:]
        for (key, row) in local where !inSheet.contains(key) { lost[ImportDeduplicator.content(row), default: []].append(key) }
        guard !lost.isEmpty else { return }
        for text in lost.keys { lost[text]?.sort(by: >) }
        for i in rows.indices where rows[i].key == "" {
            guard case .record(var record, var fixes) = rows[i].outcome else { continue }
            let text = ImportDeduplicator.content(record)
            guard let key = lost[text]?.popLast() else { continue }
            record[.transactionId] = key
            fixes.insert(FieldKey.transactionId.rawValue)
            rows[i].outcome = .record(record, fixes: fixes)
            rows[i].key = key
        }
    }

    /// A pending category rename re-points rows (the store's, and the sheet's as they are read); that is
    /// no edit of a row the other side deleted, which would bring it back (an edit beats a delete). A
    /// store row that differs from its base only by the renamed category reads as its base (deleted when
    /// the workbook lacks it; where the sheet has it, the sheet's copy carries the rename, from
    /// `CrossTabChecks.applyRenames`); a sheet row the store deleted that differs only so has the rename
    /// in its base too, so it is deleted there.
    static func undoRenameEdits(
        _ local: inout [String: LedgerRow], _ rows: inout [SheetRow], base: inout [String: LedgerRow], tombstones: [String: String],
        renames: [String: String]
    ) {
        func onlyRenamed(_ row: LedgerRow, _ b: LedgerRow, ignoring: Set<String>) -> Bool {
            guard let new = renames[b[.category]], row[.category] == new else { return false }
            return b.layout.names.allSatisfy { $0 == FieldKey.category.rawValue || ignoring.contains($0) || row[named: $0] == b[named: $0] }
        }
        for (key, row) in local {
            if let b = base[key], onlyRenamed(row, b, ignoring: [FieldKey.lastModifiedAt.rawValue]) { local[key] = b }
        }
        guard !tombstones.isEmpty else { return }
        for i in rows.indices {
            guard case .record(let record, let fixes) = rows[i].outcome, let key = rows[i].key, tombstones[key] != nil,
                let b = base[key], onlyRenamed(record, b, ignoring: []), fixes.subtracting([FieldKey.category.rawValue]).isEmpty
            else { continue }
            base[key] = record
            rows[i].outcome = .record(record, fixes: [])
        }
    }

    /// An imported file's empty cell is "not given": the store's value of a row it has stays (an import
    /// only adds and updates; it never clears a value). Times are left to the reconcile.
    static func keepGivenValuesOnly(_ rows: inout [SheetRow], store: [String: LedgerRow]) {
        guard !store.isEmpty else { return }
        for i in rows.indices {
            guard case .record(var record, let fixes) = rows[i].outcome, let key = rows[i].key, let known = store[key] else { continue }
            var changed = false
            for (name, value) in known.namedValues
            where !value.isEmpty && record[named: name].isEmpty && name != FieldKey.lastModifiedAt.rawValue
                && name != FieldKey.createdAt.rawValue
            {
                record[named: name] = value
                changed = true
            }
            if changed { rows[i].outcome = .record(record, fixes: fixes) }
        }
    }

    /// Whether `table` has nothing at all, header included.
    public static func isBlank(_ table: Table) -> Bool {
        table.header.allSatisfy { $0.trimmingSpaces().isEmpty } && hasNoRows(table)
    }

    /// Whether every data row of `table` is blank (a tab cleared down to its header).
    static func hasNoRows(_ table: Table) -> Bool {
        (0..<table.rowCount).allSatisfy { table.row($0).allSatisfy(\.isEmpty) }
    }

    /// The workbook's Settings row, if it has a readable one: of several, the one of dataset `bound`
    /// (the store's), else the first.
    public static func settingsRecord(in workbook: [Tab: Table], now: Timestamp, bound: String? = nil) -> LedgerRow? {
        guard let table = workbook[.settings], var rows = try? TabReader.read(table, schema: Tab.settings.schema, seenAt: now).1 else {
            return nil
        }
        SettingsChecks.keepOne(&rows, known: bound.map { [$0] } ?? [])
        return firstRecord(rows)
    }

    private static func firstRecord(_ rows: [SheetRow]) -> LedgerRow? {
        for row in rows {
            if case .record(let record, _) = row.outcome { return record }
        }
        return nil
    }

    /// Store rows read with the same tolerant rules as sheet cells; a row another SQLite client broke
    /// counts as its last good version until it is fixed.
    func canonicalLocal(_ tab: Tab, ledger: LedgerState) -> (rows: [String: LedgerRow], notices: [SyncIssue]) {
        var result: [String: LedgerRow] = [:]
        var notices: [SyncIssue] = []
        let base = ledger.base[tab] ?? [:]
        for (key, raw) in ledger.rows[tab] ?? [:] {
            let (outcome, _) = TabReader.parse(schema: tab.schema, seenAt: now, stored: raw)
            switch outcome {
            case .record(let record, _):
                // Rows the store already holds canonically keep their storage: one copy in memory,
                // and comparisons with the base (which shares it too) are identity checks.
                result[key] = record == raw ? raw : record
            case .rejected(let problems):
                notices.append(
                    .notice(
                        .invalidStoreRow, at: .store(key, of: tab), problems.map(\.message).joined(separator: "; "),
                        hint: "fix it in the store"))
                if let b = base[key] { result[key] = b }
            case .blank:
                continue
            }
        }
        return (result, notices)
    }
}
