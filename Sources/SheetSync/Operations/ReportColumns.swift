import SheetSyncCore

/// A value in a report line. Amounts are text, so no reader takes them through binary floating
/// point; `--json` writes counts and flags as numbers and booleans, `--csv` writes all as text.
enum ReportValue: Encodable, Sendable {
    case text(String)
    case count(Int)
    case flag(Bool)

    var csvText: String {
        switch self {
        case .text(let text): text
        case .count(let count): String(count)
        case .flag(let flag): flag ? "TRUE" : "FALSE"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .count(let count): try container.encode(count)
        case .flag(let flag): try container.encode(flag)
        }
    }
}

/// One named column of a report line. The tables below are the one list that both the `--json`
/// objects and the `--csv` lines are written from, so the two cannot drift apart.
struct ReportColumn<Line>: Sendable {
    var name: String
    var value: @Sendable (Line) -> ReportValue

    static func text(_ name: String, _ text: @escaping @Sendable (Line) -> String) -> Self {
        ReportColumn(name: name) { .text(text($0)) }
    }
}

enum ReportColumns {
    static let group: [ReportColumn<LedgerReport.Group>] = [
        .text("name", \.name), .text("type", \.type), .text("total", \.total.description),
        ReportColumn(name: "count") { .count($0.count) }, ReportColumn(name: "archived") { .flag($0.archived) },
    ]

    static let change: [ReportColumn<LedgerReport.Change>] = [
        .text("name", \.name), .text("type", \.type), .text("current", \.current.description),
        .text("previous", \.previous.description), .text("change", \.change.signed),
    ]

    /// `--unpaid` / `--unreimbursed`: the open rows, with the Transactions tab's own field names.
    static let row: [ReportColumn<LedgerReport.Row>] = [
        .text("transactionId", \.id), .text("date", \.date), .text("type", \.type), .text("amount", \.amount.description),
        .text("category", \.category), .text("note", \.note), .text("paidFlag", \.paidFlag),
        .text("reimbursedFlag", \.reimbursedFlag),
    ]
}

/// A line as a JSON object of its columns, in column order.
struct ReportLineJSON<Line>: Encodable {
    var columns: [ReportColumn<Line>]
    var line: Line

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for column in columns {
            try container.encode(column.value(line), forKey: Key(stringValue: column.name))
        }
    }
}

extension Array {
    /// Each element as a JSON object of `columns`.
    func reportJSON(_ columns: [ReportColumn<Element>]) -> [ReportLineJSON<Element>] {
        map { ReportLineJSON(columns: columns, line: $0) }
    }
}
