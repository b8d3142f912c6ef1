import ArgumentParser
import SheetSync
import SheetSyncCore

extension SheetSyncCommand {
    struct Rule: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rule",
            abstract: "Recurring rules (rent, salary): add, list, pause, resume, delete.",
            discussion: """
                A rule makes its transactions when `sheetsync materialize` (or `sync --materialize`) runs; the next sync \
                writes the rule and its transactions to the workbook. Ids may be shortened to a unique prefix.
                """,
            subcommands: [AddRule.self, ListRules.self, Pause.self, Resume.self, Delete.self])

        /// `--every`: the unit a rule repeats in.
        enum Every: String, ArgumentValue {
            case day, week, month, year

            var cadence: Cadence {
                switch self {
                case .day: return .daily
                case .week: return .weekly
                case .month: return .monthly
                case .year: return .yearly
                }
            }
        }

        struct AddRule: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Add a recurring rule; prints its id and its next occurrences.",
                discussion: """
                    sheetsync rule add --every month --on 31 --amount 1450 --category Housing --note rent
                    (in a shorter month the 31st is its last day)
                    """)
            @OptionGroup var global: GlobalOptions
            @Option(help: Every.help("The unit the rule repeats in.")) var every: Every
            @Option(help: "month: a day 1-31; week: mon to sun; year: MM-DD. Default: the day of --from.") var on: String?
            @Option(help: "An amount of zero or more, such as 1450.") var amount: String
            @Option(help: "An existing category name (case-sensitive).") var category: String
            @Option(help: TransactionKind.help("The transactions' type.")) var type: TransactionKind = .expense
            @Option(help: "Repeat every N days, weeks, months or years.") var interval: String = "1"
            @Option(help: "The first day an occurrence may fall on (YYYY-MM-DD); default today.") var from: String?
            @Option(help: "The last day an occurrence may fall on (YYYY-MM-DD); default none.") var until: String?
            @Option(help: "A note.") var note: String = ""
            @Option(help: "Comma-separated tags.") var tags: String = ""
            @Option(help: "How many upcoming dates to print.") var next: Int = 3

            func run() async throws {
                try await global.reporting {
                    let change = try await RecurringRules(global.workspace()).add(
                        NewRule(
                            type: type.rawValue, amount: amount, category: category, cadence: every.cadence, on: on,
                            interval: interval, from: from, until: until, note: note, tags: tags),
                        next: next, dryRun: global.dryRun)
                    RuleOutput.print(change, verb: "added", global: global)
                    return .ok
                }
            }
        }

        struct ListRules: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the recurring rules (with --next N, their next N dates); changes nothing.")
            @OptionGroup var global: GlobalOptions
            @Option(help: "Show the next N dates each rule makes.") var next: Int = 0

            func run() async throws {
                try await global.reporting {
                    let rules = try await RecurringRules(global.workspace()).list(next: next)
                    if global.json {
                        Output.json(rules)
                    } else if rules.isEmpty {
                        Output.line("no recurring rules (add one with `sheetsync rule add`)")
                    } else {
                        rules.forEach { RuleOutput.lines(for: $0).forEach(Output.line) }
                    }
                    return .ok
                }
            }
        }

        struct Pause: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "pause", abstract: "Pause a rule (isEnabled FALSE): it makes nothing until resumed.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The rule's id (or a unique start of it).") var id: String
            func run() async throws {
                try await global.reporting {
                    RuleOutput.print(
                        try await RecurringRules(global.workspace()).change(id, .pause, dryRun: global.dryRun), verb: "paused",
                        global: global)
                    return .ok
                }
            }
        }

        struct Resume: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "resume",
                abstract: "Resume a paused rule; the next materialize makes what it missed unless --skip-missed.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The rule's id (or a unique start of it).") var id: String
            @Flag(help: "Do not make the occurrences missed while paused.") var skipMissed = false
            func run() async throws {
                try await global.reporting {
                    let change = try await RecurringRules(global.workspace()).change(
                        id, .resume, skipMissed: skipMissed, dryRun: global.dryRun)
                    RuleOutput.print(change, verb: "resumed", global: global)
                    return .ok
                }
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "delete",
                abstract: "Delete a rule; the transactions it made stay (`restore` brings the rule back).")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The rule's id (or a unique start of it).") var id: String
            func run() async throws {
                try await global.reporting {
                    RuleOutput.print(
                        try await RecurringRules(global.workspace()).change(id, .delete, dryRun: global.dryRun), verb: "deleted",
                        global: global)
                    return .ok
                }
            }
        }
    }
}

/// How rules are shown.
enum RuleOutput {
    static func print(_ change: RuleChange, verb: String, global: GlobalOptions) {
        if global.json {
            Output.json(change)
            return
        }
        guard !global.quiet else { return }
        Output.line("\(verb) rule \(change.rule.recurringRuleId)\(change.dryRun ? " (dry run: nothing was written)" : "")")
        lines(for: change.rule).dropFirst().forEach(Output.line)
        change.notes.forEach { Output.error("note: \($0)") }
    }

    /// `<id>  paused  expense 1450.00 Housing  every month from 2026-01-31  rent`, then its next dates.
    static func lines(for rule: RuleLine) -> [String] {
        var span = "from \(rule.startDate)"
        if !rule.endDate.isEmpty { span += " until \(rule.endDate)" }
        if !rule.lastGeneratedDate.isEmpty { span += ", made through \(rule.lastGeneratedDate)" }
        var first = [
            rule.recurringRuleId, rule.enabled ? "on    " : "paused", "\(rule.type) \(rule.amount) \(rule.category)", rule.every, span,
        ]
        if !rule.note.isEmpty { first.append(rule.note) }
        var out = [first.joined(separator: "  ")]
        if !rule.problem.isEmpty { out.append("  makes nothing: \(rule.problem)") }
        if !rule.next.isEmpty { out.append("  next: \(rule.next.joined(separator: ", "))") }
        return out
    }
}
