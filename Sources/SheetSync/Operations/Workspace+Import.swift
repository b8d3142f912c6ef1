import Foundation
import SheetSyncCore
import SheetSyncStore

/// What `sheetsync import` did or would do.
public struct ImportReport: Sendable {
    public var sync: SyncReport
    public var combinedCategories: Int

    /// `imported 15 transactions, combined 3 categories`
    public var summary: String {
        let t = sync.tabs[Tab.transactions.rawValue]
        let n = (t?.added ?? 0) + (t?.updated ?? 0)
        var parts = ["\(sync.dryRun ? "would import" : "imported") \(n) transaction\(n == 1 ? "" : "s")"]
        for tab in [Tab.categories, .recurringRules, .receipts] {
            let c = sync.tabs[tab.rawValue].map { $0.added + $0.updated } ?? 0
            if c > 0 { parts.append("\(c) \(tab.rawValue.lowercased()) row\(c == 1 ? "" : "s")") }
        }
        if combinedCategories > 0 { parts.append("combined \(combinedCategories) categor\(combinedCategories == 1 ? "y" : "ies")") }
        if !sync.rejected.isEmpty { parts.append("\(sync.rejected.count) rejected") }
        return parts.joined(separator: ", ")
    }
}

extension Workspace {
    /// Merges a hand-edited workbook (a CSV folder or an `.xlsx`, possibly of another dataset) into the
    /// local store. The store's own rows act as the base, so the file's differences show as edits and
    /// go through the reconcile rules; the file's Settings tab is ignored; rows the file lacks are kept
    /// (an import adds and updates, it never deletes). All in one transaction: a failure changes nothing.
    public func importWorkbook(at path: URL, mergeCategories: Bool, dryRun: Bool) async throws -> ImportReport {
        let source = try Self.remote(at: path)
        var snapshot = try await source.read()
        snapshot.tables[.settings] = nil
        return try await locked { store, _ in
            let local = try store.snapshot()
            var combined = 0
            if mergeCategories {
                combined = CategoryMerger.merge(into: &snapshot, storeNames: (local.rows[.categories] ?? [:]).keys)
            }
            let now = clock.now()
            let read = try WorkbookReading(snapshot: snapshot, now: now)
            var asBase = local
            for tab in Tab.allCases { asBase.base[tab] = local.rows[tab] ?? [:] }
            var plans = Planner(read: read, local: asBase, now: now, newID: newID).plans().filter { $0.tab != .settings }
            for i in plans.indices {
                plans[i].localDeletes = []
                plans[i].localCounts.deleted = 0
                plans[i].remoteCounts = TabCounts()
            }
            var report = SyncReport(command: "import", dryRun: dryRun)
            report.errors = read.tabErrors.map(\.description)
            for plan in plans {
                var t = SyncReport.TabReport()
                t.added = plan.localCounts.added
                t.updated = plan.localCounts.updated
                t.rejected = plan.rejections.count
                report.tabs[plan.tab.rawValue] = t
                report.notices += plan.notices
                report.rejected += plan.rejections.map(SyncReport.RejectedEntry.init)
                report.conflicts += plan.conflicts.count
            }
            report.newlyRejected = report.rejected.count
            report.changes = PlanPrinter.lines(plans)
            guard !dryRun else { return ImportReport(sync: report, combinedCategories: combined) }
            var commit = StoreCommit()
            for plan in plans {
                commit.upserts[plan.tab] = plan.localUpserts.map { RowWrite(record: $0.record, expected: $0.expected) }
                commit.conflicts += plan.conflicts.map { ConflictEntry($0, resolvedAt: now.description) }
            }
            // Imported rows are local changes the next sync must push, even though the engine wrote them.
            commit.state[SyncEngine.stateRemoteVersion] = .some(nil)
            let outcome = try store.commit(commit)
            for (tab, keys) in outcome.skipped where !keys.isEmpty {
                report.notices.append("\(tab.rawValue): \(keys.count) row(s) changed in the store during the import were not overwritten")
            }
            return ImportReport(sync: report, combinedCategories: combined)
        }
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
        if let table = snapshot.tables[.categories], let map = try? ColumnMap(header: table.header, schema: .categories) {
            for row in table.rows {
                let name = map.cell("name", in: row).rawText.trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, canonical[name.lowercased()] == nil { canonical[name.lowercased()] = name }
            }
        }
        var combined: Set<String> = []
        for tab in [Tab.categories, .transactions, .recurringRules] {
            guard var table = snapshot.tables[tab], let map = try? ColumnMap(header: table.header, schema: tab.schema),
                  let column = map.columns[tab == .categories ? "name" : "category"] else { continue }
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
