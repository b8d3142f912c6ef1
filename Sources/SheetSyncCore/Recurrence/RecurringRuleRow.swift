import Foundation

/// A RecurringRules record read into typed values, ready to materialize.
struct RecurringRuleRow {
    var id: String
    var type: String
    var amount: Amount
    var category: String
    var tagsCSV: String
    var note: String
    var recurrence: RecurrenceRule
    var lastGeneratedDate: LocalDate?
    var lastModifiedAt: Timestamp

    /// Whether the record is a disabled rule (only `TRUE` enables, in any case).
    static func isDisabled(_ record: LedgerRow) -> Bool {
        record[.isEnabled].trimmingCharacters(in: .whitespaces).uppercased() == "FALSE"
    }

    /// Reads a canonical record. The schema layer has normally validated it already; this is
    /// the last line of defence, so a rule that slipped through is skipped, never guessed at.
    static func parse(_ record: LedgerRow) -> Result<RecurringRuleRow, RuleProblem> {
        let rawId = record[.recurringRuleId]
        func problem(_ field: FieldKey, _ message: String) -> Result<RecurringRuleRow, RuleProblem> {
            let header = TabSchema.recurringRules.field(field)?.header ?? field.rawValue
            return .failure(RuleProblem(ruleId: rawId, field: header, value: record[field], message: message))
        }
        func trimmed(_ field: FieldKey) -> String { record[field].trimmingCharacters(in: .whitespaces) }

        guard let uuid = UUID(uuidString: trimmed(.recurringRuleId)) else {
            return problem(.recurringRuleId, "recurringRuleId '\(rawId)' is not a UUID")
        }
        guard trimmed(.isEnabled).uppercased() == "TRUE" else {
            return problem(.isEnabled, "isEnabled '\(record[.isEnabled])' is not TRUE or FALSE")
        }
        let type = trimmed(.type).lowercased()
        guard TabSchema.transactionTypes.contains(type) else {
            return problem(.type, "type '\(record[.type])' is not expense or income")
        }
        guard case .success(let amount) = Amount.parse(record[.amount]) else {
            return problem(.amount, "amount '\(record[.amount])' is not a non-negative number")
        }
        let category = trimmed(.category)
        guard !category.isEmpty else { return problem(.category, "category is empty") }
        guard let startDate = LocalDate(iso: trimmed(.startDate)) else {
            return problem(.startDate, "startDate '\(record[.startDate])' is not a YYYY-MM-DD date")
        }
        guard let cadence = Cadence(rawValue: trimmed(.cadence).lowercased()) else {
            return problem(.cadence, "cadence '\(record[.cadence])' is not daily, weekly, monthly or yearly")
        }
        guard let interval = Int(trimmed(.interval)), interval >= 1 else {
            return problem(.interval, "interval '\(record[.interval])' is not a whole number of 1 or more")
        }
        guard let endDate = optionalDate(trimmed(.endDate)) else {
            return problem(.endDate, "endDate '\(record[.endDate])' is not a YYYY-MM-DD date")
        }
        guard let lastGenerated = optionalDate(trimmed(.lastGeneratedDate)) else {
            return problem(.lastGeneratedDate, "lastGeneratedDate '\(record[.lastGeneratedDate])' is not a YYYY-MM-DD date")
        }
        guard let lastModifiedAt = Timestamp(iso: record[.lastModifiedAt]) else {
            return problem(.lastModifiedAt, "lastModifiedAt '\(record[.lastModifiedAt])' is not an ISO 8601 timestamp")
        }
        guard let recurrence = RecurrenceRule(startDate: startDate, cadence: cadence, interval: interval, endDate: endDate)
        else { return problem(.interval, "interval '\(record[.interval])' is not a whole number of 1 or more") }
        return .success(
            RecurringRuleRow(
                id: uuid.uuidString.lowercased(), type: type, amount: amount, category: category,
                tagsCSV: record[.tagsCSV], note: record[.note], recurrence: recurrence,
                lastGeneratedDate: lastGenerated, lastModifiedAt: lastModifiedAt))
    }

    /// `.some(nil)` for an empty cell, `.some(date)` for a date, nil for anything else.
    private static func optionalDate(_ text: String) -> LocalDate?? {
        if text.isEmpty { return .some(nil) }
        return LocalDate(iso: text).map { .some($0) }
    }
}
