import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// What `sheetsync materialize` did.
public struct MaterializeReport: Codable, Sendable {
    public struct RuleLine: Codable, Sendable {
        public var ruleId: String
        public var created: Int
        public var lastGeneratedDate: String?
        public var capped: Bool
    }

    public var through: String
    public var dryRun: Bool
    public var created = 0
    /// The earliest and latest date of the transactions created; nil when none was.
    public var firstDate: String?
    public var lastDate: String?
    public var rules: [RuleLine] = []
    public var rejected: [Rejection] = []
    public var notices: [SyncIssue] = []
    /// Counts in the shape of the sync report (`Transactions.added`, `RecurringRules.updated`).
    public var tabs: [String: SyncReport.TabReport] = [:]

    /// What was made: `materialized 4 transactions, 2026-02-01 to 2026-03-15 (through 2026-03-31)`.
    public var summary: String {
        let verb = dryRun ? "would materialize" : "materialized"
        switch (created, firstDate, lastDate) {
        case (0, _, _): return "nothing to materialize through \(through)"
        case (1, let first?, _): return "\(verb) 1 transaction, on \(first) (through \(through))"
        case (_, let first?, let last?): return "\(verb) \(created) transactions, \(first) to \(last) (through \(through))"
        default: return "\(verb) \(created) transactions (through \(through))"
        }
    }

    public var lines: [String] { lines(everyRule: true) }

    /// The summary and a line for each rule that reached the per-run limit (said even without
    /// `--verbose`: the catching up is not done); with `everyRule`, a line for each rule that made something.
    public func lines(everyRule: Bool) -> [String] {
        var out = [summary]
        for rule in rules where (everyRule && rule.created > 0) || rule.capped {
            out.append("  rule \(rule.ruleId): \(rule.created) created\(rule.capped ? " (limit reached; the next run continues)" : "")")
        }
        return out
    }
}

extension RecurringRules {
    /// Turns recurring rules into transactions in the local store, through `through` (default: today in
    /// the dataset's time zone). The next push writes them and the rules' `lastGeneratedDate`.
    public func materialize(through: LocalDate?, dryRun: Bool) async throws -> MaterializeReport {
        try await workspace.withStore(preview: dryRun) { store in
            var report = try materialize(store: store, through: through, dryRun: dryRun)
            report.notices += await rulesOnlyInWorkbook(store: store)
            return report
        }
    }

    /// Rules typed into the workbook since the last sync, which `materialize` (reading the store) cannot
    /// see: one note each, naming its row. Only a workbook changed since the last sync is read; one that
    /// cannot be read now adds no note (the sync that loads the rules says what is wrong with it).
    func rulesOnlyInWorkbook(store: LedgerStore) async -> [SyncIssue] {
        guard let remote = try? workspace.makeRemote(), (try? await remote.exists()) == true else { return [] }
        if let recorded = (try? store.state(SyncEngine.stateRemoteVersion)) ?? nil, let current = try? await remote.currentVersion(),
            current == recorded
        {
            return []
        }
        guard let snapshot = try? await remote.read(), let table = snapshot.tables[.recurringRules],
            let rows = try? TabReader.read(
                table, schema: Tab.recurringRules.schema.reading(workspace.localForms(store)), seenAt: workspace.clock.now()
            ).1
        else { return [] }
        let known = Set(((try? store.records(in: .recurringRules)) ?? []).map { $0[.recurringRuleId] })
        return rows.compactMap { row -> SyncIssue? in
            let what: String
            switch row.outcome {
            case .blank: return nil
            case .record(let rule, _):
                guard rule[.recurringRuleId].isEmpty || !known.contains(rule[.recurringRuleId]) else { return nil }
                what = " (\(rule[.amount]) \(rule[.category])\(rule[.note].isEmpty ? "" : ", '\(rule[.note])'"))"
            case .rejected:
                guard row.key.map({ $0.isEmpty || !known.contains($0) }) ?? true else { return nil }
                what = ""
            }
            return .notice(
                .ruleProblem, at: .row(row.sheetRowNumber, of: .recurringRules),
                "the rule\(what) in \(remote.location(of: .recurringRules)) is not in the store "
                    + "yet, so it made nothing: run `sheetsync sync` first (`sheetsync sync --materialize` does both)")
        }
    }

    func materialize(store: LedgerStore, through: LocalDate?, dryRun: Bool) throws -> MaterializeReport {
        let zone = try workspace.timeZone(store: store)
        let day = try through ?? workspace.today(store: store)
        let now = workspace.clock.now()
        let categories = Set(try store.records(in: .categories).map { $0[.name] })
        var report = MaterializeReport(through: day.description, dryRun: dryRun)
        var rules: [LedgerRow] = []
        // A rule whose workbook row is rejected is frozen: the store keeps its last good version for
        // the sync, but expanding that version would make instances the user's edit may have stopped.
        var frozen: [String: Rejection] = [:]
        for r in try store.rejectedRows() where r.tab == .recurringRules && !r.id.isEmpty { frozen[r.id] = r }
        for raw in try store.records(in: .recurringRules) {
            if let rejected = frozen[raw[.recurringRuleId]] {
                var held = rejected
                held.message = "its row in the workbook is rejected (\(rejected.message)); the rule makes nothing until that row is fixed"
                report.rejected.append(held)
                continue
            }
            switch RecurringRuleCheck.read(cells: { raw[$0].isEmpty ? .empty : .text(raw[$0]) }, categories: categories, seenAt: now) {
            case .rule(let rule):
                rules.append(rule)
            case .problems(let problems):
                report.rejected.append(
                    Rejection(
                        tab: .recurringRules, row: Rejection.storeRow, id: raw[.recurringRuleId],
                        message: problems.map(\.message).joined(separator: "; "),
                        hint: problems.map(\.hint).joined(separator: "; "), rawCells: Self.cells(of: raw),
                        code: Rejection.code(of: problems)))
            case .blank:
                continue
            }
        }
        let transactions = try store.records(in: .transactions)
        let existing = Set(transactions.map { $0[.transactionId] })
        let occurrences = Set(
            transactions.filter { !$0[.recurringRuleId].isEmpty }.map {
                Materializer.occurrence(ruleId: $0[.recurringRuleId], date: $0[.date])
            })
        let plan = Materializer.plan(
            rules: rules, existingTransactionIds: existing, existingOccurrences: occurrences, through: day, timeZone: zone)
        report.created = plan.newTransactions.count
        // Written in date order, as the workbook will show them.
        let made = plan.newTransactions.sorted { ($0[.date], $0[.transactionId]) < ($1[.date], $1[.transactionId]) }
        (report.firstDate, report.lastDate) = (made.first?[.date], made.last?[.date])
        report.notices = plan.problems.map(\.issue)
        report.rules = plan.outcomes.map {
            .init(ruleId: $0.ruleId, created: $0.created, lastGeneratedDate: $0.newLastGeneratedDate?.description, capped: $0.capped)
        }
        var tx = SyncReport.TabReport(), rr = SyncReport.TabReport()
        tx.added = plan.newTransactions.count
        rr.updated = plan.updatedRules.count
        rr.rejected = report.rejected.count
        report.tabs = [Tab.transactions.rawValue: tx, Tab.recurringRules.rawValue: rr]
        guard !dryRun, !plan.writesNothing else { return report }
        try store.write { writer in
            for record in made { try writer.upsert(record, in: .transactions) }
            for record in plan.updatedRules { try writer.upsert(record, in: .recurringRules) }
        }
        return report
    }

    /// A store row's cells in the tab's column order, as the rejected-row log keeps them.
    static func cells(of row: LedgerRow) -> [String] {
        Tab.recurringRules.schema.fields.map { row[$0.key] }
    }
}
