import Foundation

/// Turns recurring rules into the transactions due through a date: a pure function of the
/// rules, the ids that already exist, the date and the dataset's time zone.
///
/// Decisions:
/// - **Determinism.** An instance's `transactionId` is `UUIDv5(sheetsyncNamespace,
///   "<recurringRuleId>/<YYYY-MM-DD>")`; its `createdAt` and `lastModifiedAt` are the occurrence
///   date at 00:00 in `timeZone`, so any later edit by a person wins over a re-materialization.
/// - **Progress.** Only occurrences after `lastGeneratedDate` are due (from `startDate`
///   inclusive when it is empty). When a run covered every occurrence due, `lastGeneratedDate`
///   moves to `through` (or to `endDate` when that is earlier), not merely to the last
///   occurrence: so editing `startDate`, `cadence` or `interval` later never creates
///   occurrences in a period already processed, and extending `endDate` resumes right after the
///   old one. A capped rule moves only to its last occurrence of this run. A rule with nothing
///   due is not rewritten at all, so a daily run does not churn rule rows (and a rule whose
///   start is still ahead keeps an empty `lastGeneratedDate`).
/// - **Idempotence.** An occurrence whose id is in `existingTransactionIds` (or was already
///   planned in this run), or that already has a transaction of its rule on its date under any
///   id (`existingOccurrences`: one typed by hand, or made before the rule's `lastGeneratedDate`
///   was known, as in a workbook shaped like the seed, which has no such column), is not created
///   again but counts as done, and counts towards the per-run limit, so the advanced rule row
///   never depends on which instances a machine has.
/// - **Rule rows.** An advanced rule keeps its fields; `lastModifiedAt` becomes the later of its
///   old value plus one millisecond and the newest due instance's timestamp, never "now".
/// - **Disabled rules** create nothing and are not rewritten, so re-enabling one catches up the
///   occurrences missed since its `lastGeneratedDate` (set that cell by hand to skip them).
public enum Materializer {
    /// The default per-rule, per-run limit on instances.
    public static let defaultLimitPerRule = 1000

    /// The plan that creates every due instance of `rules` through `through`.
    ///
    /// - Parameters:
    ///   - rules: canonical RecurringRules records.
    ///   - existingTransactionIds: lowercase ids of the transactions that exist now.
    ///   - existingOccurrences: `occurrence(ruleId:date:)` of every transaction that names a rule.
    ///   - through: the last day to materialize (inclusive), normally today in `timeZone`.
    ///   - timeZone: the dataset's time zone (`Settings.timezone`).
    ///   - limitPerRule: at most this many instances per rule (at least 1 is used).
    public static func plan(
        rules: [LedgerRow], existingTransactionIds: Set<String>, existingOccurrences: Set<String> = [], through: LocalDate,
        timeZone: TimeZone, limitPerRule: Int = defaultLimitPerRule
    ) -> MaterializePlan {
        var plan = MaterializePlan()
        var knownIds = existingTransactionIds
        for record in rules {
            if RecurringRuleRow.isDisabled(record) {
                plan.disabledRuleIds.append(record[.recurringRuleId])
                continue
            }
            switch RecurringRuleRow.parse(record) {
            case .failure(let problem):
                plan.problems.append(problem)
            case .success(let rule):
                let (dates, capped) = rule.recurrence.occurrences(
                    after: rule.lastGeneratedDate, through: through, limit: max(1, limitPerRule))
                var outcome = RuleOutcome(
                    ruleId: rule.id, created: 0, alreadyPresent: 0, newLastGeneratedDate: nil, capped: capped)
                for date in dates {
                    let instance = instance(of: rule, on: date, timeZone: timeZone)
                    let present = existingOccurrences.contains(occurrence(ruleId: rule.id, date: date.description))
                    if !present, knownIds.insert(instance[.transactionId]).inserted {
                        plan.newTransactions.append(instance)
                        outcome.created += 1
                    } else {
                        outcome.alreadyPresent += 1
                    }
                }
                if let last = dates.last {
                    let reached = capped ? last : rule.recurrence.endDate.map { min($0, through) } ?? through
                    outcome.newLastGeneratedDate = reached
                    plan.updatedRules.append(advanced(record, rule, to: reached, newest: last, timeZone: timeZone))
                }
                plan.outcomes.append(outcome)
            }
        }
        return plan
    }

    /// The next `count` occurrences of a RecurringRules record that a `materialize` run would make
    /// (those after its `lastGeneratedDate`, whatever today is), or why the rule cannot be read.
    public static func upcoming(_ rule: LedgerRow, count: Int) -> Result<[LocalDate], RuleProblem> {
        var enabled = rule
        enabled[.isEnabled] = "TRUE"  // a paused rule's dates, as it would make them once resumed
        return RecurringRuleRow.parse(enabled).map { rule in
            guard let last = LocalDate(year: 9999, month: 12, day: 31) else { return [] }
            return rule.recurrence.occurrences(after: rule.lastGeneratedDate, through: last, limit: max(0, count)).dates
        }
    }

    /// What identifies an occurrence whatever its transaction's id: the rule (lowercase) and the date.
    public static func occurrence(ruleId: String, date: String) -> String {
        "\(ruleId.lowercased())/\(date)"
    }

    /// The id of `ruleId`'s instance on `date`: UUIDv5 of `"<ruleId>/<YYYY-MM-DD>"` under
    /// `UUIDv5.sheetsyncNamespace`, with the rule id in lowercase.
    public static func instanceId(ruleId: String, date: LocalDate) -> String {
        UUIDv5.make(namespace: UUIDv5.sheetsyncNamespace, name: "\(ruleId.lowercased())/\(date)")
    }

    /// The Transactions record of `rule`'s occurrence on `date`.
    static func instance(of rule: RecurringRuleRow, on date: LocalDate, timeZone: TimeZone) -> LedgerRow {
        let stamp = Timestamp(startOf: date, in: timeZone).description
        return LedgerRow([
            .transactionId: instanceId(ruleId: rule.id, date: date),
            .type: rule.type,
            .date: date.description,
            .year: String(date.year),
            .month: String(date.month),
            .amount: rule.amount.description,
            .category: rule.category,
            .tagsCSV: rule.tagsCSV,
            .note: rule.note,
            .paidFlag: "",
            .reimbursedFlag: "",
            .recurringRuleId: rule.id,
            .createdAt: stamp,
            .lastModifiedAt: stamp,
        ])
    }

    /// `record` with `lastGeneratedDate` moved to `date` and `lastModifiedAt` raised to the
    /// newest instance's timestamp, or one millisecond past its old value when that is later: the
    /// row visibly changes (so store triggers do not stamp it with a machine's own "now") and every
    /// machine computes the same row.
    private static func advanced(
        _ record: LedgerRow, _ rule: RecurringRuleRow, to date: LocalDate, newest: LocalDate, timeZone: TimeZone
    ) -> LedgerRow {
        var updated = record
        updated[.lastGeneratedDate] = date.description
        updated[.lastModifiedAt] = max(rule.lastModifiedAt.adding(milliseconds: 1), Timestamp(startOf: newest, in: timeZone)).description
        return updated
    }
}
