import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// A recurring rule typed on the command line (`sheetsync rule add`), as typed.
public struct NewRule: Sendable {
    public var type: String
    public var amount: String
    public var category: String
    public var cadence: Cadence
    /// `--on`, read for `cadence` by `RuleSchedule.day`.
    public var on: String?
    public var interval: String
    /// The first day an occurrence may fall on; nil: today in the dataset's time zone.
    public var from: String?
    public var until: String?
    public var note: String
    public var tags: String

    public init(
        type: String = "expense", amount: String, category: String, cadence: Cadence, on: String? = nil, interval: String = "1",
        from: String? = nil, until: String? = nil, note: String = "", tags: String = ""
    ) {
        self.type = type
        self.amount = amount
        self.category = category
        self.cadence = cadence
        self.on = on
        self.interval = interval
        self.from = from
        self.until = until
        self.note = note
        self.tags = tags
    }
}

/// One recurring rule as `rule list` shows it.
public struct RuleLine: Codable, Sendable {
    public var recurringRuleId: String
    public var enabled: Bool
    public var type: String
    public var amount: String
    public var category: String
    public var cadence: String
    public var interval: String
    public var startDate: String
    public var endDate: String
    public var lastGeneratedDate: String
    public var note: String
    /// The next occurrences `materialize` would make (`--next N`), oldest first.
    public var next: [String]
    /// Why the rule makes nothing as it stands (a bad cell), empty when it is fine.
    public var problem: String

    /// `every month`, `every 2 weeks`.
    public var every: String {
        let unit = ["daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"][cadence] ?? cadence
        return interval == "1" || interval.isEmpty ? "every \(unit)" : "every \(interval) \(unit)s"
    }
}

/// What `rule add`, `pause`, `resume` or `delete` did.
public struct RuleChange: Codable, Sendable {
    public var rule: RuleLine
    public var dryRun: Bool
    /// What the user should know (the start moved to an earlier month, missed occurrences ahead).
    public var notes: [String] = []
}

/// `sheetsync rule …` and `materialize`: the ledger's recurring rules added, listed, paused, resumed
/// and deleted in the store, and turned into transactions (`RecurringRules+Materialize.swift`).
public struct RecurringRules: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Adds a recurring rule to the store (the next sync writes it to RecurringRules), checked exactly
    /// as a row typed into that tab is (`RecurringRuleCheck`).
    public func add(_ new: NewRule, next: Int = 3, dryRun: Bool = false) async throws -> RuleChange {
        try await workspace.withStore(preview: dryRun) { store in
            try requireSynced(store)
            let now = workspace.clock.now()
            let interval = Int(new.interval.trimmingCharacters(in: .whitespaces)) ?? 1
            var schedule = RuleSchedule(cadence: new.cadence, interval: max(1, interval))
            if let on = new.on {
                switch RuleSchedule.day(on, for: new.cadence) {
                case .success(let day): schedule.day = day
                case .failure(let problem): throw SheetSyncError(.usage, problem.message)
                }
            }
            let forms = try workspace.localForms(store)
            let from = try new.from.map { try LocalDate.option($0, named: "--from", forms) } ?? workspace.today(store: store)
            let until = try new.until.map { try LocalDate.option($0, named: "--until", forms).description } ?? ""
            let (start, lastGenerated) = schedule.start(from: from)
            let cells: [FieldKey: String] = [
                .recurringRuleId: workspace.newID(), .isEnabled: "TRUE", .type: new.type, .amount: new.amount,
                .category: new.category, .tagsCSV: new.tags, .note: new.note, .startDate: start.description,
                .cadence: new.cadence.rawValue, .interval: new.interval, .endDate: until,
                .lastGeneratedDate: lastGenerated?.description ?? "", .createdAt: now.description,
                .lastModifiedAt: now.description,
            ]
            let categories = Set(try store.records(in: .categories).map { $0[.name] })
            let checked = RecurringRuleCheck.read(
                cells: { cells[$0].map { $0.isEmpty ? Cell.empty : .text($0) } ?? .empty }, categories: categories, seenAt: now)
            let rule: LedgerRow
            switch checked {
            case .rule(let checked): rule = checked
            case .problems(let problems): throw Self.ruleOptionError(problems)
            case .blank: throw SheetSyncError(.usage, "the rule is empty")
            }
            try store.upsert(rule, in: .recurringRules)
            var notes: [String] = []
            if lastGenerated != nil {
                notes.append(
                    "startDate is \(start) (the rule repeats its day) and lastGeneratedDate \(lastGenerated?.description ?? ""), "
                        + "so nothing before \(from) is made")
            }
            return RuleChange(rule: Self.line(rule, next: next), dryRun: dryRun, notes: notes)
        }
    }

    /// The store's recurring rules, each with its next `next` occurrences.
    public func list(next: Int = 0) async throws -> [RuleLine] {
        try await workspace.requireLedger()
        return try await workspace.withStore(preview: true) { store in
            try store.records(in: .recurringRules).map { Self.line($0, next: next) }.sorted {
                ($0.startDate, $0.recurringRuleId) < ($1.startDate, $1.recurringRuleId)
            }
        }
    }

    /// What `rule pause|resume|delete` does to one rule.
    public enum Action: String, Sendable {
        case pause, resume, delete
    }

    /// Pauses (`isEnabled` FALSE), resumes or deletes the rule `id` (or the one rule whose id starts
    /// with it). Resuming a rule makes the occurrences missed while paused at the next materialize,
    /// unless `skipMissed` moves its `lastGeneratedDate` to yesterday. Deleting a rule keeps the
    /// transactions it made.
    public func change(_ id: String, _ action: Action, skipMissed: Bool = false, dryRun: Bool = false) async throws -> RuleChange {
        try await workspace.withStore(preview: dryRun) { store in
            var rule = try Self.rule(id, in: try store.records(in: .recurringRules))
            let key = rule[.recurringRuleId]
            var notes: [String] = []
            switch action {
            case .delete:
                _ = try store.delete(key: key, in: .recurringRules)
                // Asked for by name: the next sync deletes its row even when it is the tab's only one.
                try store.setState(LedgerState.deletedByNameKey(.recurringRules, key), workspace.clock.now().description)
                notes.append("the transactions it made stay; the next sync deletes its RecurringRules row")
                return RuleChange(rule: Self.line(rule, next: 0), dryRun: dryRun, notes: notes)
            case .pause:
                rule[.isEnabled] = "FALSE"
            case .resume:
                rule[.isEnabled] = "TRUE"
                let yesterday = try workspace.today(store: store).adding(days: -1)
                if skipMissed {
                    if LocalDate(iso: rule[.lastGeneratedDate]).map({ $0 < yesterday }) ?? true {
                        rule[.lastGeneratedDate] = yesterday.description
                    }
                } else if case .success(let missed) = Materializer.upcoming(rule, count: 1000), let first = missed.first, first <= yesterday
                {
                    let count = missed.filter { $0 <= yesterday }.count
                    notes.append(
                        "the next materialize makes \(count) occurrence\(count == 1 ? "" : "s") missed since \(first); "
                            + "`rule resume --skip-missed` skips them")
                }
            }
            rule[.lastModifiedAt] = workspace.clock.now().description
            try store.upsert(rule, in: .recurringRules)
            return RuleChange(rule: Self.line(rule, next: 0), dryRun: dryRun, notes: notes)
        }
    }

    /// A command that reads the store's categories needs them synced from the workbook first.
    private func requireSynced(_ store: LedgerStore) throws {
        guard try store.state(SyncEngine.stateLastSync) == nil else { return }
        throw SheetSyncError(
            .usage,
            "this store has never synced, so it knows no category of the workbook yet; run `sheetsync sync` first")
    }

    /// The rule `id` names: its full id, or the only rule whose id starts with it.
    static func rule(_ id: String, in rules: [LedgerRow]) throws -> LedgerRow {
        let wanted = id.trimmingCharacters(in: .whitespaces).lowercased()
        let matches = rules.filter { $0[.recurringRuleId] == wanted || (wanted.count >= 4 && $0[.recurringRuleId].hasPrefix(wanted)) }
        if let exact = matches.first(where: { $0[.recurringRuleId] == wanted }) { return exact }
        guard matches.count == 1, let rule = matches.first else {
            let known = rules.isEmpty ? "the store has no recurring rule" : "`sheetsync rule list` shows their ids"
            if matches.count > 1 { throw SheetSyncError(.usage, "'\(id)' starts \(matches.count) rules' ids; type more of it") }
            throw SheetSyncError(.usage, "no recurring rule '\(id)' (\(known))")
        }
        return rule
    }

    static func line(_ rule: LedgerRow, next: Int) -> RuleLine {
        var line = RuleLine(
            recurringRuleId: rule[.recurringRuleId], enabled: rule[.isEnabled] != "FALSE", type: rule[.type],
            amount: rule[.amount], category: rule[.category], cadence: rule[.cadence], interval: rule[.interval],
            startDate: rule[.startDate], endDate: rule[.endDate], lastGeneratedDate: rule[.lastGeneratedDate],
            note: rule[.note], next: [], problem: "")
        switch Materializer.upcoming(rule, count: next) {
        case .success(let dates): line.next = dates.map(\.description)
        case .failure(let problem): line.problem = problem.message
        }
        return line
    }

    /// The problems of a typed rule, named by the option that gave each cell.
    static func ruleOptionError(_ problems: [FieldProblem]) -> SheetSyncError {
        let options = [
            "amount": "--amount", "category": "--category", "type": "--type", "interval": "--interval",
            "endDate": "--until", "startDate": "--from", "tags": "--tags", "note": "--note", "cadence": "--every",
        ]
        let text = problems.map { p in
            let option = options[p.field].map { "\($0): " } ?? ""
            return "\(option)\(p.message)\(p.hint.isEmpty ? "" : " (\(p.hint))")"
        }
        return SheetSyncError(.usage, text.joined(separator: "; "))
    }
}
