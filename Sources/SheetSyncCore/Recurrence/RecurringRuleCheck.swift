import SheetValues

/// A RecurringRules row checked as a sync checks one typed into the sheet: the tab's field rules
/// (`TabReader`, defaults included), then its category (`CategoryCheck`). `materialize` checks the
/// store's rules with it and `rule add` the rule typed on the command line, so a rule is valid in
/// one place whichever way it was written.
public enum RecurringRuleCheck {
    public enum Outcome: Sendable {
        /// The canonical record.
        case rule(LedgerRow)
        /// Every problem found.
        case problems([FieldProblem])
        /// A row with no value at all.
        case blank
    }

    public static func read(cells: (FieldKey) -> Cell, categories: Set<String>, seenAt: Timestamp) -> Outcome {
        switch TabReader.parse(schema: .recurringRules, seenAt: seenAt, cell: cells).0 {
        case .record(let rule, _):
            if let problem = CategoryCheck.problem(for: rule[.category], known: categories) { return .problems([problem]) }
            return .rule(rule)
        case .rejected(let problems):
            return .problems(problems)
        case .blank:
            return .blank
        }
    }
}
