import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// What `sheetsync import` did or would do.
public struct ImportReport: Sendable {
    public var sync: SyncReport
    public var combinedCategories: Int
    /// Rows without ids an earlier import already loaded (matched by content), skipped.
    public var alreadyImported: Int
    /// Rows without ids whose content equals a transaction in the store, skipped (`--allow-duplicates` loads them).
    public var likelyDuplicates: Int
    /// Categories the file's rows name that the store lacks (not created: their rows are rejected).
    public var missingCategories: [MissingCategories.Entry] = []
    /// The store's spelling of a missing category that differs from it only in case or by look-alike
    /// characters: never created beside it (as `category add` refuses it); `--merge-categories` files its rows there.
    public var categoryTwins: [String: String] = [:]
    /// Categories created by `--create-categories`.
    public var createdCategories: [String] = []

    /// `imported 15 transactions, combined 3 categories, 20 rows already imported, skipped`
    public var summary: String {
        let t = sync.tabs[Tab.transactions.rawValue]
        let n = (t?.added ?? 0) + (t?.updated ?? 0)
        var parts = ["\(sync.dryRun ? "would import" : "imported") \(n) transaction\(n == 1 ? "" : "s")"]
        for tab in [Tab.categories, .recurringRules, .receipts] {
            let c = sync.tabs[tab.rawValue].map { $0.added + $0.updated } ?? 0
            if c > 0 { parts.append("\(c) \(tab.rawValue.lowercased()) row\(c == 1 ? "" : "s")") }
        }
        if combinedCategories > 0 { parts.append("combined \(combinedCategories) categor\(combinedCategories == 1 ? "y" : "ies")") }
        if alreadyImported > 0 { parts.append("\(alreadyImported) row\(alreadyImported == 1 ? "" : "s") already imported, skipped") }
        if likelyDuplicates > 0 {
            parts.append("\(likelyDuplicates) likely duplicate\(likelyDuplicates == 1 ? "" : "s") skipped (--allow-duplicates loads them)")
        }
        if !createdCategories.isEmpty {
            parts.append(
                "created categor\(createdCategories.count == 1 ? "y" : "ies") \(createdCategories.map { "'\($0)'" }.joined(separator: ", "))"
            )
        }
        if !sync.rejected.isEmpty { parts.append("\(sync.rejected.count) rejected") }
        return parts.joined(separator: ", ")
    }

    /// The report as printed: rows rejected only for a missing category are told once per category.
    public var printable: SyncReport {
        var report = json
        let perRow = Set(missingCategories.map { "unknown category '\($0.name)'" })
        report.rejected.removeAll { perRow.contains($0.message) }
        report.newlyRejected = report.rejected.count
        return report
    }

    /// The report as `--json` prints it: every rejected row, each missing category once among the
    /// errors, and what was skipped, combined or created (`imported`).
    public var json: SyncReport {
        var report = sync
        report.errors += missingCategories.map(refusal)
        report.imported = ImportCounts(
            alreadyImported: alreadyImported, likelyDuplicates: likelyDuplicates, combinedCategories: combinedCategories,
            createdCategories: createdCategories)
        return report
    }

    /// A missing category's rows refused, with what to do: merge into the ledger's twin, or create it.
    private func refusal(_ missing: MissingCategories.Entry) -> SyncIssue {
        let rows = "\(missing.rows) row\(missing.rows == 1 ? "" : "s")"
        if let twin = categoryTwins[missing.name] {
            return SyncIssue.heldBack(
                .importRefused,
                "unknown category '\(missing.name)' in \(rows); the ledger has '\(twin)', which differs only in case: "
                    + "import again with --merge-categories to file these rows under '\(twin)'")
        }
        return SyncIssue.heldBack(
            .importRefused,
            "unknown category '\(missing.name)' in \(rows); add it to the Categories tab or the store, "
                + "or import again with --create-categories to create it")
    }
}

/// What an import skipped, combined or created beyond the tabs' counts (`--json`'s `imported`).
public struct ImportCounts: Codable, Sendable, Equatable {
    /// Rows without ids an earlier import already loaded (matched by content), skipped.
    public var alreadyImported: Int
    /// Rows without ids whose content equals a transaction in the store, skipped.
    public var likelyDuplicates: Int
    /// Categories combined with the store's by `--merge-categories`.
    public var combinedCategories: Int
    /// Categories created by `--create-categories`.
    public var createdCategories: [String]
}

/// How `sheetsync import` treats what it finds.
public struct ImportOptions: Sendable {
    public var mergeCategories = false
    public var allowDuplicates = false
    /// Create the categories the file's rows name that neither the store nor the file has.
    public var createCategories = false
    public var dryRun = false

    public init(mergeCategories: Bool = false, allowDuplicates: Bool = false, createCategories: Bool = false, dryRun: Bool = false) {
        self.mergeCategories = mergeCategories
        self.allowDuplicates = allowDuplicates
        self.createCategories = createCategories
        self.dryRun = dryRun
    }
}

/// `sheetsync import`: a workbook (`importWorkbook`) or a bank statement (`importStatement`,
/// `LedgerImport+Statement.swift`) brought into the store as local changes the next sync writes.
public struct LedgerImport: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Merges a hand-edited workbook (a CSV folder or an `.xlsx`, possibly of another dataset, possibly
    /// with only some tabs) into the local store. The store's own rows act as the base, so the file's
    /// differences show as edits and go through the reconcile rules; the file's Settings tab is
    /// ignored; rows the file lacks are kept (an import adds and updates, it never deletes); rows
    /// without ids are matched by content, so a second import of the same file adds nothing. The file
    /// itself is never written. All in one transaction: a failure changes nothing.
    public func importWorkbook(at path: URL, options: ImportOptions) async throws -> ImportReport {
        let source = try RemoteFactory.workbook(at: path)
        var snapshot = try await source.read()
        snapshot.tables[.settings] = nil
        let read = snapshot
        return try await workspace.withStore(preview: options.dryRun, startsLedger: true) { store in
            let local = try store.snapshot()
            let now = workspace.clock.now()
            let input = try prepareImport(read, local: local, store: store, options: options, now: now)
            // The store's own rows are the base: the file's differences read as edits.
            var ledger = local.ledger
            for tab in Tab.allCases { ledger.base[tab] = local.rows[tab] ?? [:] }
            var planner = SyncPlanner(purpose: .importing, now: now, newID: workspace.newID)
            planner.forms = SyncEngine.forms(local.state)
            let plan = planner.plan(workbook: input.snapshot.tables, ledger: ledger)
            var result = Self.importReport(plan, input: input, options: options)
            guard !options.dryRun else { return result }
            let outcome = try store.commit(Self.importCommit(plan, input: input, now: now))
            for (tab, keys) in outcome.skipped where !keys.isEmpty {
                result.sync.notices.append(
                    .notice(
                        .changedDuringRun, at: .tab(tab), "\(keys.count) row(s) changed in the store during the import were not overwritten"
                    ))
            }
            return result
        }
    }

    /// The file as the import plans it, with what was done to it on the way.
    struct ImportInput {
        /// The file's tabs, less Settings, with categories combined or added and transactions deduplicated.
        var snapshot: RemoteSnapshot
        /// Differently spelled categories combined (`--merge-categories`).
        var combined = 0
        /// Categories the file's rows name that neither the store nor the file has.
        var missing: [MissingCategories.Entry] = []
        /// Missing names that differ from a store category only in case: that category's spelling.
        var twins: [String: String] = [:]
        var deduplicated: ImportDeduplicator.Outcome?
    }

    /// The file's categories combined with the store's spelling, the missing ones added (when asked
    /// for), and the transactions an earlier import or the store already has set aside.
    private func prepareImport(
        _ snapshot: RemoteSnapshot, local: StoreSnapshot, store: LedgerStore, options: ImportOptions, now: Timestamp
    ) throws -> ImportInput {
        var input = ImportInput(snapshot: snapshot)
        let storeCategories = (local.rows[.categories] ?? [:]).keys
        if options.mergeCategories { input.combined = CategoryMerger.merge(into: &input.snapshot, storeNames: storeCategories) }
        input.missing = MissingCategories.find(in: input.snapshot.tables, known: Set(storeCategories), now: now)
        let names = CategoryNames(Array(storeCategories))
        for entry in input.missing where names.spelling(of: entry.name) != entry.name {
            input.twins[entry.name] = names.spelling(of: entry.name)
        }
        // A twin is never created: `category add` refuses it, and `--merge-categories` files its rows under the ledger's one.
        let creatable = input.missing.filter { input.twins[$0.name] == nil }
        if options.createCategories && !creatable.isEmpty {
            input.snapshot.tables[.categories] = MissingCategories.adding(creatable, to: input.snapshot.tables[.categories], now: now)
        }
        if let table = input.snapshot.tables[.transactions] {
            let outcome = ImportDeduplicator.run(
                table, imported: try store.importFingerprints(), store: local.rows[.transactions] ?? [:],
                allowDuplicates: options.allowDuplicates, now: now, newID: workspace.newID, forms: SyncEngine.forms(local.state))
            input.snapshot.tables[.transactions] = outcome.table
            input.deduplicated = outcome
        }
        return input
    }

    /// What the import does or would do: the plan's counts and rows, with the file's columns that are
    /// no ledger fields and the rows skipped as duplicates.
    private static func importReport(_ plan: SyncPlan, input: ImportInput, options: ImportOptions) -> ImportReport {
        var report = SyncReport(command: "import", dryRun: options.dryRun)
        report.errors = plan.tabErrors.map(\.issue) + plan.held
        report.fill(plans: plan.tabs, previous: [])
        for tab in Tab.allCases {
            // Columns of the file's own (Shop, Receipt No): kept in a workbook sync writes, but an import
            // copies ledger fields only, so say what stays behind.
            guard let header = input.snapshot.tables[tab]?.header else { continue }
            let known = Set(tab.schema.fields.map { $0.header.lowercased() })
            let extra = header.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !known.contains($0.lowercased()) }
            guard !extra.isEmpty else { continue }
            report.notices.append(
                .notice(
                    .note, at: .tab(tab),
                    "the file's column(s) \(extra.map { "'\($0)'" }.joined(separator: ", ")) are not ledger fields; "
                        + "their values were not imported"))
        }
        for duplicate in input.deduplicated?.likelyDuplicates ?? [] {
            report.notices.append(
                .notice(
                    .duplicateSkipped, at: .row(duplicate.row, of: .transactions),
                    "same content as transaction \(duplicate.id) in the store; skipped"))
        }
        // What goes into the store: the file read is never written, so its fixes are not listed.
        report.changes = PlanPrinter.lines(plan.tabs.map(\.storeSide))
        var result = ImportReport(
            sync: report, combinedCategories: input.combined, alreadyImported: input.deduplicated?.alreadyImported.count ?? 0,
            likelyDuplicates: input.deduplicated?.likelyDuplicates.count ?? 0)
        if options.createCategories {
            result.createdCategories = input.missing.filter { input.twins[$0.name] == nil }.map(\.name)
            result.missingCategories = input.missing.filter { input.twins[$0.name] != nil }
        } else {
            result.missingCategories = input.missing
        }
        result.categoryTwins = input.twins
        return result
    }

    /// The store commit of an import: the rows, marked for the next sync to push, with what they
    /// replace in the conflict log and the fingerprints of the rows loaded.
    private static func importCommit(_ plan: SyncPlan, input: ImportInput, now: Timestamp) -> StoreCommit {
        var commit = StoreCommit()
        for tabPlan in plan.tabs {
            commit.upserts[tabPlan.tab] = tabPlan.localUpserts.map { RowWrite(record: $0.record, expected: $0.expected) }
            // Written with the counting triggers quiet: marked here, so the next sync reads and pushes them.
            commit.changes[tabPlan.tab] = .marking(tabPlan.localUpserts.map { $0.record[tabPlan.tab.schema.keyField] })
            commit.conflicts += tabPlan.conflicts.map { $0.resolved(at: now) }
        }
        // Only fingerprints of rows that were loaded: a rejected row is imported again once fixed.
        let loaded = Set(plan.tabs.first { $0.tab == .transactions }?.localUpserts.map { $0.record[.transactionId] } ?? [])
        commit.importFingerprints = (input.deduplicated?.fingerprints ?? [:]).filter { loaded.contains($0.value) }
        // Imported rows are local changes the next sync must push, even though the engine wrote them.
        commit.state[SyncEngine.stateRemoteVersion] = .some(nil)
        return commit
    }
}

/// `import --merge-categories`: names equal ignoring case become one category, the store's spelling.
enum CategoryMerger {
    /// Rewrites category names in the snapshot's Categories, Transactions and RecurringRules tabs;
    /// returns how many differently spelled names were combined.
    static func merge(into snapshot: inout RemoteSnapshot, storeNames: some Sequence<String>) -> Int {
        var canonical: [String: String] = [:]
        for name in storeNames { canonical[name.lowercased()] = name }
        // Names only in the file: the first spelling met wins.
        // A header that cannot be mapped is left as it is here: reading the tab for the import then
        // reports it, with the file and tab, and nothing is written.
        if let table = snapshot.tables[.categories], let map = try? ColumnMap(header: table.header, schema: .categories) {
            for row in table.rows {
                let name = map.cell(.name, in: row).rawText.trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, canonical[name.lowercased()] == nil { canonical[name.lowercased()] = name }
            }
        }
        var combined: Set<String> = []
        for tab in [Tab.categories, .transactions, .recurringRules] {
            guard var table = snapshot.tables[tab], let map = try? ColumnMap(header: table.header, schema: tab.schema),
                let column = map.columns[tab == .categories ? .name : .category]
            else { continue }
            for i in table.rows.indices where column < table.rows[i].count {
                let name = table.rows[i][column].rawText.trimmingCharacters(in: .whitespaces)
                if let target = canonical[name.lowercased()], target != name, !name.isEmpty {
                    table.rows[i][column] = .text(target)
                    combined.insert(name)
                }
            }
            if tab == .categories {
                // After renaming, drop the file's extra copies of a combined category (the store's row wins).
                var seen: Set<String> = []
                table.rows = table.rows.filter { row in
                    guard column < row.count else { return true }
                    let name = row[column].rawText
                    return name.isEmpty || seen.insert(name).inserted
                }
            }
            snapshot.tables[tab] = table
        }
        return combined.count
    }
}
