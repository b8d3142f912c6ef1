import SheetSyncCore

/// What `sheetsync import STATEMENT` did or would do (`--json` prints it as it is).
public struct StatementImportReport: Codable, Sendable {
    /// One entry of the statement and the transaction it is or would be.
    public struct Row: Codable, Sendable {
        public enum Status: String, Codable, Sendable {
            case added
            /// Its id is in the store already (or was, and was deleted there): imported before.
            case alreadyImported = "already imported"
            /// Not imported because other entries of the file were refused.
            case heldBack = "held back"
        }

        public var line: Int
        public var transactionId: String
        public var date: String
        public var type: String
        public var amount: String
        public var category: String
        public var tags: String
        public var note: String
        public var status: Status
        /// The sheet of a budget `.xlsx` the row is on (`line` is then its row); nil for a statement file.
        public var sheet: String?
    }

    public var file: String
    public var format: String
    /// The `import.profiles` entry the file was read with, if any.
    public var profile: String?
    public var dryRun: Bool
    public var added = 0
    public var alreadyImported = 0
    /// Entries the statement marks as not yet booked, left out.
    public var pending = 0
    /// Added transactions per category.
    public var categories: [String: Int] = [:]
    /// Categories the import created (the default category, or a rule's) because the ledger lacked them.
    public var createdCategories: [String] = []
    /// Entries (or the file) refused, each with the file and line: any holds the whole file back.
    public var refused: [SyncIssue] = []
    public var rows: [Row] = []
    /// A budget `.xlsx`'s sheets read, and those left out for holding no table (a summary).
    public var sheets: [String] = []
    public var skippedSheets: [String] = []

    /// `imported 12 transactions (3 already imported) from bank.csv (CSV)`
    public var summary: String {
        var parts: [String] = []
        let source = "\(file) (\(format)\(sheets.isEmpty ? "" : ": sheets " + sheets.map { "'\($0)'" }.joined(separator: ", ")))"
        if refused.isEmpty {
            parts.append("\(dryRun ? "would import" : "imported") \(added) transaction\(added == 1 ? "" : "s") from \(source)")
        } else {
            parts.append("imported nothing from \(source): \(refused.count) entr\(refused.count == 1 ? "y" : "ies") refused")
        }
        for name in skippedSheets { parts.append("skipped sheet '\(name)' (no date and amount columns)") }
        if let profile { parts.append("profile '\(profile)'") }
        if alreadyImported > 0 { parts.append("\(alreadyImported) already imported, skipped") }
        if pending > 0 { parts.append("\(pending) pending entr\(pending == 1 ? "y" : "ies") left out until booked") }
        for name in createdCategories { parts.append("\(dryRun ? "would create" : "created") category '\(name)'") }
        return parts.joined(separator: ", ")
    }

    /// `Groceries: 4` lines, by name.
    public var categoryLines: [String] { categories.keys.sorted().map { "  \($0): \(categories[$0] ?? 0)" } }

    /// `2026-11-03 expense 4.75 Dining "BLUE BOTTLE COFFEE" (added)` per row.
    public var rowLines: [String] {
        rows.map {
            "  \($0.sheet.map { "sheet '\($0)' row" } ?? "line") \($0.line): \($0.date) \($0.type) \($0.amount) \($0.category) '\($0.note)' (\($0.status.rawValue))"
        }
    }
}
