import Foundation
import SheetSyncCore

/// `--json`: `{"period": {...}, "income": "2500.00", "expense": "715.00", "net": "1785.00", "categories": [...]}`.
/// Amounts are strings, so no reader takes them through binary floating point.
extension ReportOutput: Encodable {
    private struct PeriodJSON: Encodable {
        var label: String
        var from: String
        var to: String
        init(_ period: ReportPeriod) {
            label = period.label
            from = period.from.description
            to = period.to.description
        }
    }

    private enum Keys: String, CodingKey {
        case period, previousPeriod, by, income, expense, net, incomeCount, expenseCount, categories, tags, months,
            topChange, rows, rejected, notes
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        // An open-rows report over every date has no period: `null`, so readers need not guess.
        try c.encode(report.period.map(PeriodJSON.init), forKey: .period)
        try c.encode(report.period.map { PeriodJSON($0.previous) }, forKey: .previousPeriod)
        try c.encode(report.grouping.rawValue, forKey: .by)
        try c.encode(report.income.description, forKey: .income)
        try c.encode(report.expense.description, forKey: .expense)
        try c.encode(report.net.description, forKey: .net)
        try c.encode(report.incomeCount, forKey: .incomeCount)
        try c.encode(report.expenseCount, forKey: .expenseCount)
        let groupKey: Keys =
            switch report.grouping {
            case .category: .categories
            case .tag: .tags
            case .month: .months
            }
        try c.encode(report.groups.reportJSON(ReportColumns.group), forKey: groupKey)
        try c.encode(report.topChange.map { ReportLineJSON(columns: ReportColumns.change, line: $0) }, forKey: .topChange)
        if !report.filter.isEmpty {
            try c.encode(report.rows.reportJSON(ReportColumns.row), forKey: .rows)
        }
        try c.encode(rejected, forKey: .rejected)
        try c.encode([rejectedNote, unreadableNote].compactMap { $0 }, forKey: .notes)
    }
}

extension ReportOutput {
    /// The report as a table for a person: aligned columns, amounts right-aligned; with `bars`
    /// (stdout is a terminal) a bar per group, scaled to the largest of its type.
    public func table(bars: Bool) -> [String] {
        let span = report.period.map { "\($0.label) (\($0.from) to \($0.to))" } ?? "all dates"
        let what = report.filter.isEmpty ? "" : " — " + filterLabel + " rows only"
        var out = ["report for \(span), by \(report.grouping.rawValue)\(what)"]
        let widths = Widths(report)
        for type in ["expense", "income"] { out += groupLines(ofType: type, widths: widths, bars: bars) }
        if report.groups.isEmpty { out.append(""); out.append("no transactions in this period") }
        out += totalLines(widths)
        out += topChangeLine
        out += openRowLines
        out += [rejectedNote, unreadableNote].compactMap { $0.map { "note: \($0)" } }
        return out
    }

    /// The table's column widths, and each group's name as shown.
    private struct Widths {
        let names: [String]
        let name: Int
        let amount: Int
        let count: Int

        init(_ report: LedgerReport) {
            let amounts =
                report.groups.map(\.total.description) + [report.income.description, report.expense.description, report.net.description]
            amount = max(amounts.map(\.count).max() ?? 0, "total".count)
            names = report.groups.map { $0.name + ($0.archived ? " (archived)" : "") }
            name = max(names.map(\.count).max() ?? 0, "expense".count, "income".count)
            count = max(report.groups.map { String($0.count).count }.max() ?? 0, "rows".count)
        }
    }

    /// The groups of one type under a heading, each with a bar scaled to the largest when `bars`.
    private func groupLines(ofType type: String, widths: Widths, bars: Bool) -> [String] {
        let groups = report.groups.enumerated().filter { $0.element.type == type }
        guard !groups.isEmpty else { return [] }
        var out = [""]
        out.append(
            leftAligned(type, widths.name + 2) + "  " + rightAligned("total", widths.amount) + "  " + rightAligned("rows", widths.count))
        let largest = groups.map { Double($0.element.total.description) ?? 0 }.max() ?? 0
        for (index, group) in groups {
            var line =
                "  " + leftAligned(widths.names[index], widths.name) + "  " + rightAligned(group.total.description, widths.amount)
                + "  " + rightAligned(String(group.count), widths.count)
            if bars, largest > 0 {
                let length = Int(((Double(group.total.description) ?? 0) / largest * 30).rounded(.up))
                line += "  " + String(repeating: "█", count: length)
            }
            out.append(line)
        }
        return out
    }

    private func totalLines(_ widths: Widths) -> [String] {
        [
            "",
            leftAligned("income", widths.name + 2) + "  " + rightAligned(report.income.description, widths.amount) + "  "
                + rows(report.incomeCount),
            leftAligned("expense", widths.name + 2) + "  " + rightAligned(report.expense.description, widths.amount) + "  "
                + rows(report.expenseCount),
            leftAligned("net", widths.name + 2) + "  " + rightAligned(report.net.description, widths.amount),
        ]
    }

    /// The group that changed most against the previous period, when the report has a period.
    private var topChangeLine: [String] {
        guard let period = report.period else { return [] }
        guard let change = report.topChange else { return ["no change vs \(period.previous.label)"] }
        return [
            "top change vs \(period.previous.label): \(change.name) (\(change.type)) \(change.change.signed) "
                + "(\(change.previous) → \(change.current))"
        ]
    }

    /// With `--unpaid` / `--unreimbursed`: the open rows, one a line.
    private var openRowLines: [String] {
        guard !report.filter.isEmpty else { return [] }
        var out = ["", "\(filterLabel) rows:"]
        let width = report.rows.map(\.amount.description.count).max() ?? 0
        for row in report.rows {
            let note = row.note.replacingOccurrences(of: "\n", with: " ")
            out.append(
                "  \(row.date)  \(leftAligned(row.type, 7))  \(rightAligned(row.amount.description, width))  \(row.category)"
                    + (note.isEmpty ? "" : "  \(note)") + "  \(row.id)")
        }
        if report.rows.isEmpty { out.append("  none") }
        return out
    }

    /// `--csv`: one line per group (`name,type,total,count,archived`), or with `--unpaid` /
    /// `--unreimbursed` one line per open row.
    public var csv: String {
        var lines: [[String]]
        if report.filter.isEmpty {
            // The first column is named for the grouping: `category`, `tag` or `month`.
            lines = [[report.grouping.rawValue] + ReportColumns.group.dropFirst().map(\.name)]
            lines += Self.csvLines(report.groups, ReportColumns.group)
        } else {
            lines = [ReportColumns.row.map(\.name)]
            lines += Self.csvLines(report.rows, ReportColumns.row)
        }
        return lines.map { $0.map(Self.csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    private static func csvLines<Line>(_ lines: [Line], _ columns: [ReportColumn<Line>]) -> [[String]] {
        lines.map { line in columns.map { $0.value(line).csvText } }
    }

    /// A field as the CSV holds it: quoted when it must be, and a text a spreadsheet would run as a
    /// formula (a category named `=HYPERLINK(…)`) neutralised with a leading `'` (`FormulaText`).
    private static func csvField(_ text: String) -> String {
        let text = FormulaText.neutralised(text)
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private var filterLabel: String {
        [report.filter.contains(.unpaid) ? "unpaid" : nil, report.filter.contains(.unreimbursed) ? "unreimbursed" : nil]
            .compactMap { $0 }.joined(separator: " or ")
    }

    private func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    private func leftAligned(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private func rightAligned(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
