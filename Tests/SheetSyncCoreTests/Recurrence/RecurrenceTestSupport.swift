import Foundation
import SheetSyncCore

/// Small builders shared by the recurrence tests (namespaced: the test target is shared).
enum RecurrenceTestSupport {
    static func date(_ text: String) -> LocalDate {
        guard let date = LocalDate(iso: text) else { fatalError("bad test date '\(text)'") }
        return date
    }

    static func dates(_ texts: String...) -> [LocalDate] { texts.map(date) }

    static func rule(
        _ start: String, _ cadence: Cadence, every interval: Int = 1, until end: String? = nil
    ) -> RecurrenceRule {
        guard let rule = RecurrenceRule(startDate: date(start), cadence: cadence, interval: interval, endDate: end.map(date))
        else { fatalError("bad test rule") }
        return rule
    }

    static let ruleId = "3f2b8c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4b"

    /// A canonical RecurringRules record; override any field with `changes`.
    static func ruleRecord(
        id: String = ruleId, start: String, cadence: String, interval: String = "1",
        _ changes: [FieldKey: String] = [:]
    ) -> LedgerRow {
        var fields: [FieldKey: String] = [
            .recurringRuleId: id,
            .isEnabled: "TRUE",
            .type: "expense",
            .amount: "12.50",
            .category: "Rent",
            .tagsCSV: "home, monthly",
            .note: "=HYPERLINK(\"x\")  kept verbatim ",
            .startDate: start,
            .cadence: cadence,
            .interval: interval,
            .endDate: "",
            .lastGeneratedDate: "",
            .createdAt: "2020-01-01T00:00:00.000Z",
            .lastModifiedAt: "2020-01-01T00:00:00.000Z",
        ]
        fields.merge(changes) { _, new in new }
        return LedgerRow(fields)
    }

    static let utc = TimeZone(identifier: "UTC") ?? TimeZone.current

    static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown zone \(identifier)") }
        return zone
    }
}
