import SheetValues

/// What one `materialize` run must write: new transactions and advanced rules, plus what it
/// found along the way. A value: the caller applies it, the core never does I/O.
public struct MaterializePlan: Hashable, Sendable {
    /// Transactions rows to create (every Transactions field set), rule by rule in input order,
    /// each rule's in date order.
    public var newTransactions: [LedgerRow]
    /// RecurringRules rows whose `lastGeneratedDate` advanced, with `lastModifiedAt` already set;
    /// write them exactly as given so every machine holds the same row.
    public var updatedRules: [LedgerRow]
    /// One entry per enabled, valid rule, in input order.
    public var outcomes: [RuleOutcome]
    /// Rules with `isEnabled` FALSE, left untouched.
    public var disabledRuleIds: [String]
    /// Enabled rules that could not be read, left untouched.
    public var problems: [RuleProblem]

    public init(
        newTransactions: [LedgerRow] = [], updatedRules: [LedgerRow] = [], outcomes: [RuleOutcome] = [],
        disabledRuleIds: [String] = [], problems: [RuleProblem] = []
    ) {
        self.newTransactions = newTransactions
        self.updatedRules = updatedRules
        self.outcomes = outcomes
        self.disabledRuleIds = disabledRuleIds
        self.problems = problems
    }

    /// Rules that hit the per-run limit; the next run continues where this one stopped.
    public var cappedRuleIds: [String] { outcomes.filter(\.capped).map(\.ruleId) }

    /// The new `lastGeneratedDate` of every rule that advanced.
    public var lastGeneratedDates: [String: LocalDate] {
        Dictionary(outcomes.compactMap { o in o.newLastGeneratedDate.map { (o.ruleId, $0) } }) { a, _ in a }
    }

    /// Whether applying the plan would write nothing.
    public var writesNothing: Bool { newTransactions.isEmpty && updatedRules.isEmpty }
}

/// What a run did with one enabled rule.
public struct RuleOutcome: Hashable, Sendable {
    public var ruleId: String
    /// Instances to create in this run.
    public var created: Int
    /// Instances due in this run whose id already existed (made by another machine or an
    /// earlier interrupted run); not created again, but counted as done.
    public var alreadyPresent: Int
    /// The rule's new `lastGeneratedDate`; nil when nothing was due and the rule is unchanged.
    public var newLastGeneratedDate: LocalDate?
    /// Whether the per-run limit stopped this rule before `through`.
    public var capped: Bool

    public init(ruleId: String, created: Int, alreadyPresent: Int, newLastGeneratedDate: LocalDate?, capped: Bool) {
        self.ruleId = ruleId
        self.created = created
        self.alreadyPresent = alreadyPresent
        self.newLastGeneratedDate = newLastGeneratedDate
        self.capped = capped
    }
}

/// Why an enabled recurring rule was skipped: the field, its value and what is wrong.
public struct RuleProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule's id as written (may be empty or malformed itself).
    public var ruleId: String
    /// The RecurringRules header of the bad cell.
    public var field: String
    public var value: String
    /// What is wrong, lowercase, e.g. `interval '0' is not a whole number of 1 or more`.
    public var message: String

    // No public initializer: only this module's rule reader finds problems; others read them.

    public var description: String { issue.text }
    /// The problem as a run reports it: the rule is skipped, nothing else held back.
    public var issue: SyncIssue { .notice(.ruleProblem, "recurring rule '\(ruleId)' skipped: \(message)") }
}
