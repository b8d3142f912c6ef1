/// The column reference (`docs/tabs.md`, `sheetsync help tabs`), generated from the tab schemas:
/// every column with whether it is required, the values it allows and what sheetsync fills in.
/// A column added to a schema without a line in `ColumnReference.meaning` fails the test that
/// checks this page (`ColumnReferenceTests`), and so does `docs/tabs.md` out of step with it.
public enum ColumnReference {
    /// The page, in Markdown.
    public static var markdown: String {
        var out = [
            "# The workbook's tabs and columns",
            "",
            "Generated from the tab schemas by `sheetsync help tabs` (`scripts/generate-manual.sh` writes this file; a test fails",
            "when it is out of step). Columns are matched by their header text (trimmed, any case), in any order; columns",
            "you add are kept untouched. A missing required column stops that tab with an error naming it. A row that breaks",
            "a rule below is rejected: it stays in the sheet as you typed it and is reported by tab, row, value and fix.",
            "",
        ]
        for tab in Tab.allCases {
            out.append("## \(tab.rawValue)")
            out.append("")
            out.append(intro[tab] ?? "")
            out.append("")
            out.append("| column | required | values | meaning |")
            out.append("|---|---|---|---|")
            for field in tab.schema.fields {
                let required = field.required ? (filledIn(tab, field) ? "filled in" : "yes") : "no"
                out.append("| `\(field.header)` | \(required) | \(values(of: field.kind)) | \(meaning(tab, field) ?? "") |")
            }
            out.append("")
        }
        out += typing
        return out.joined(separator: "\n")
    }

    /// The fields of the five tabs that have no line in `meanings`: none may be left (the test checks it).
    public static var undocumented: [String] {
        Tab.allCases.flatMap { tab in tab.schema.fields.filter { meaning(tab, $0) == nil }.map { "\(tab.rawValue).\($0.header)" } }
    }

    static func meaning(_ tab: Tab, _ field: FieldSpec) -> String? {
        meanings[tab]?[field.key] ?? common[field.key]
    }

    /// Required, but sheetsync fills an empty cell in (so a person may leave it empty).
    static func filledIn(_ tab: Tab, _ field: FieldSpec) -> Bool {
        field.key == tab.schema.keyField && field.kind == .uuid || [.createdAt, .lastModifiedAt].contains(field.key)
            || (tab == .transactions && [.type, .year, .month].contains(field.key))
            || (tab == .recurringRules && field.key == .interval) || (tab == .categories && field.key == .isActive)
    }

    /// The values a kind of cell allows, in words.
    static func values(of kind: FieldKind) -> String {
        switch kind {
        case .uuid: return "a UUID"
        case .text: return "text (spaces around it are dropped)"
        case .freeText: return "any text, kept as typed"
        case .enumeration(let words): return words.map { "`\($0)`" }.joined(separator: ", ") + " (any case)"
        case .date: return "a date (see below)"
        case .timestamp: return "a time (see below)"
        case .amount: return "an amount of 0 or more (see below)"
        case .integer(let range):
            if range.lowerBound == Int.min { return "a whole number" }
            return range.upperBound == Int.max
                ? "a whole number, \(range.lowerBound) or more" : "a whole number, \(range.lowerBound)–\(range.upperBound)"
        case .boolean: return "`TRUE` or `FALSE` (also `true`, `1`, `yes`, `0`, `no`)"
        }
    }

    private static let intro: [Tab: String] = [
        .transactions: "One row per expense or income.",
        .receipts: "Receipt images attached to transactions (`sheetsync receipt add`); one row per file.",
        .categories: "The categories transactions and rules may name. Names are case-sensitive.",
        .recurringRules:
            "Rules that make transactions (`sheetsync rule add`, or a row typed here, loaded by the next sync); "
            + "`sheetsync materialize` makes the occurrences due.",
        .settings: "One row describing the ledger; written by `sheetsync init`.",
    ]

    /// Columns of the same name mean the same in every tab.
    private static let common: [FieldKey: String] = [
        .createdAt: "when the row was made; sheetsync fills in an empty cell",
        .lastModifiedAt:
            "when the row last changed: the later edit of a field wins on this time. sheetsync sets it when it writes "
            + "the row and when it finds the row edited by hand; you need not touch it",
        .tagsCSV: "comma-separated tags (`food,work`)",
        .note: "free text",
        .category: "the name of a row of Categories, exactly (case-sensitive)",
        .amount: "always positive; `type` says whether money went out or came in",
    ]

    private static let meanings: [Tab: [FieldKey: String]] = [
        .transactions: [
            .transactionId: "the row's id: leave it empty on a new row and sheetsync fills one in; never copy it to another row",
            .type: "empty means `expense`",
            .date: "the day of the transaction",
            .year: "from `date`; sheetsync corrects it",
            .month: "from `date` (1–12); sheetsync corrects it",
            .paidFlag: "whether it is paid (`report --unpaid` lists `unpaid` rows); empty: not tracked",
            .reimbursedFlag: "whether it was paid back (`report --unreimbursed`); empty: not tracked",
            .recurringRuleId: "the rule that made this row (set by `materialize`); empty for rows typed or added",
        ],
        .receipts: [
            .receiptId: "the receipt's id (filled in by `receipt add`)",
            .transactionId: "the transaction it belongs to; must exist in Transactions",
            .driveFileId: "Google mode: the uploaded file's Drive id; file workbooks: the file's path in `Receipts/`",
            .fileName: "the file's name as it was added",
        ],
        .categories: [
            .name: "the category's name, as transactions and rules name it",
            .type: "which transactions may use it",
            .emoji: "shown beside the name",
            .colorHex: "a colour such as `#4caf50`",
            .isActive: "`FALSE` archives it (`category archive`): rows that name it stay valid. Empty means `TRUE`",
            .sortOrder: "the order to show categories in",
        ],
        .recurringRules: [
            .recurringRuleId: "the rule's id: leave it empty on a new row and the next sync fills one in",
            .isEnabled: "`FALSE` pauses the rule (`rule pause`): it makes nothing until `TRUE` again",
            .type: "the type of the transactions it makes",
            .startDate:
                "the first occurrence; a monthly or yearly rule repeats its day (the 31st falls on the last day of shorter months)",
            .cadence: "how often it repeats",
            .interval: "every N days, weeks, months or years; empty means 1",
            .endDate: "the last day an occurrence may fall on; empty: no end",
            .lastGeneratedDate: "the last day `materialize` has covered: occurrences after it are made next. Set by sheetsync; "
                + "set it by hand to skip occurrences",
        ],
        .settings: [
            .datasetId: "the ledger's id: a store syncs only with the workbook of its own dataset",
            .schemaVersion: "the layout of the workbook (1)",
            .timezone:
                "the IANA time zone (`Europe/Berlin`) that decides what \"today\" is for `add`, `materialize` and `report`; "
                + "`init` takes the system's (`init --timezone ZONE` to choose)",
            .rootFolderId: "Google mode: the Drive folder holding the ledger (empty for file workbooks)",
            .dataSpreadsheetId: "Google mode: the spreadsheet's id (empty for file workbooks)",
            .receiptsFolderId: "Google mode: the Drive folder receipts are uploaded to (empty for file workbooks)",
        ],
    ]

    /// How values may be typed: the forms `FieldParser` reads.
    private static let typing = [
        "## Typing values",
        "",
        "- **Dates**: `2026-01-15` (what sheetsync writes), `2026/1/15` (the year first), and date cells of an `.xlsx`",
        "  or a Google sheet read the same in every ledger. A date with the year last reads by the ledger's `dateOrder`",
        "  (`sheetsync status` shows it; `init` sets it from the locale or time zone, `init --date-order` chooses):",
        "  `dmy` reads `3/4/2026`, `3.4.2026` and `3-4-2026` as 3 April; `mdy` reads `3/4/2026` as March 4 (slashes",
        "  only, as Google Sheets and US spreadsheets write); `ymd` reads no year-last date. A date the setting does not",
        "  read (`26/11/2026` under `mdy`, any year-last date under `ymd`) is refused, with the readings it could have,",
        "  never guessed. A two-digit year is refused. A CSV cell holding a bare number (`46024`) is not a date. A date",
        "  whose day does not exist (`2026-02-30`) is rejected. How `init` chooses the settings: docs/local-forms.md.",
        "- **Amounts**: `12.50`, `12.5`, `1234`, `1,234.50`, `$1,234.50` (a currency sign and thousands commas are",
        "  dropped). Refused rather than guessed: `12,50` and other commas that are not thousands separators, negative",
        "  amounts (use `type` instead), anything else. In a ledger whose `decimalSeparator` is `,`",
        "  (`init --decimal-separator ,`) the comma is the decimal mark and points group thousands: `12,5`, `1.234,50`",
        "  and `1,234` (one point two three four) read, `12.50` (what sheetsync writes) still reads, and a text both",
        "  marks read differently (`1.234`) is refused. Number cells are numbers under either setting.",
        "- **Times** (`createdAt`, `lastModifiedAt`): ISO 8601, such as `2026-11-21T22:31:20.123Z` (what sheetsync",
        "  writes) or `2026-11-21T23:31:20+01:00`. Leave them empty on a new row: sheetsync fills them in.",
        "- **Booleans**: `TRUE`/`FALSE`, `true`/`false`, `1`/`0`, `yes`/`no`, `y`/`n`, or checkbox cells.",
        "- **Choices** (`type`, `paidFlag`, `reimbursedFlag`, `cadence`): any case (`Expense` reads as `expense`).",
        "- **Ids**: leave them empty on a new row; sheetsync fills in a new UUID when it writes the row back.",
        "",
    ]
}
