import SheetValues

/// One thing a run has to tell: a notice (done, and worth knowing), or a change held back (the run
/// exits 65 until it is dealt with). What, where, why and how to fix it, with a stable `code` that
/// scripts and tests match on instead of the wording.
///
/// This is the one issue type: the planner, the engine, the backends and the commands produce it;
/// `text` is its one terminal rendering and its `Codable` form the one `--json` rendering
/// (docs/issues.md lists every code).
public struct SyncIssue: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable, Codable {
        /// Done, and worth knowing (printed as `note:` unless `--quiet`).
        case notice
        /// A change not made this run; the run exits 65 (printed on stderr).
        case heldBack = "held-back"
    }

    public var code: IssueCode
    public var severity: Severity
    public var place: IssuePlace
    /// What happened, and why, e.g. `lastModifiedAt 2099-01-01T00:00:00.000Z is in the future; clamped to …`.
    public var message: String
    /// How to fix it; empty when there is nothing to do.
    public var hint: String

    public init(_ code: IssueCode, _ severity: Severity, at place: IssuePlace = IssuePlace(), _ message: String, hint: String = "") {
        self.code = code
        self.severity = severity
        self.place = place
        self.message = message
        self.hint = hint
    }

    /// A notice: done, and worth knowing.
    public static func notice(_ code: IssueCode, at place: IssuePlace = IssuePlace(), _ message: String, hint: String = "") -> SyncIssue {
        SyncIssue(code, .notice, at: place, message, hint: hint)
    }

    /// A change held back: the run exits 65.
    public static func heldBack(_ code: IssueCode, at place: IssuePlace = IssuePlace(), _ message: String, hint: String = "")
        -> SyncIssue
    {
        SyncIssue(code, .heldBack, at: place, message, hint: hint)
    }

    /// The issue as one line for a person: where, what, then the hint in parentheses.
    public var text: String {
        let prefix = place.text
        let what = prefix.isEmpty ? message : "\(prefix): \(message)"
        return hint.isEmpty ? what : "\(what) (\(hint))"
    }

    public var description: String { text }

    private enum CodingKeys: String, CodingKey { case code, severity, file, tab, row, key, column, line, store, message, hint, text }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(severity, forKey: .severity)
        try c.encodeIfPresent(place.file, forKey: .file)
        try c.encodeIfPresent(place.tab, forKey: .tab)
        try c.encodeIfPresent(place.row, forKey: .row)
        try c.encodeIfPresent(place.key, forKey: .key)
        try c.encodeIfPresent(place.column, forKey: .column)
        try c.encodeIfPresent(place.line, forKey: .line)
        if place.inStore { try c.encode(true, forKey: .store) }
        try c.encode(message, forKey: .message)
        try c.encode(hint, forKey: .hint)
        try c.encode(text, forKey: .text)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(IssueCode.self, forKey: .code)
        severity = try c.decode(Severity.self, forKey: .severity)
        place = IssuePlace(
            file: try c.decodeIfPresent(String.self, forKey: .file), tab: try c.decodeIfPresent(Tab.self, forKey: .tab),
            row: try c.decodeIfPresent(Int.self, forKey: .row), key: try c.decodeIfPresent(String.self, forKey: .key),
            column: try c.decodeIfPresent(String.self, forKey: .column), line: try c.decodeIfPresent(Int.self, forKey: .line),
            inStore: try c.decodeIfPresent(Bool.self, forKey: .store) ?? false)
        message = try c.decode(String.self, forKey: .message)
        hint = try c.decode(String.self, forKey: .hint)
    }
}

/// Where an issue is: the file, the tab, the sheet row (the header is row 1) or the row's id, the
/// column; a line of a file that is no workbook (a bank statement); or a row of the local store. Each
/// part is there only when known.
public struct IssuePlace: Hashable, Sendable {
    public var file: String?
    public var tab: Tab?
    public var row: Int?
    public var key: String?
    public var column: String?
    /// The line of `file`, 1-based, for a file read as lines (a bank statement).
    public var line: Int?
    /// The row is the store's (`key` names it), not the workbook's.
    public var inStore: Bool

    public init(
        file: String? = nil, tab: Tab? = nil, row: Int? = nil, key: String? = nil, column: String? = nil, line: Int? = nil,
        inStore: Bool = false
    ) {
        self.file = file
        self.tab = tab
        self.row = row
        self.key = key
        self.column = column
        self.line = line
        self.inStore = inStore
    }

    public static func tab(_ tab: Tab) -> IssuePlace { IssuePlace(tab: tab) }
    public static func row(_ row: Int, of tab: Tab) -> IssuePlace { IssuePlace(tab: tab, row: row) }
    public static func key(_ key: String, of tab: Tab) -> IssuePlace { IssuePlace(tab: tab, key: key) }
    public static func file(_ file: String) -> IssuePlace { IssuePlace(file: file) }
    /// A row of the local store's table for `tab`.
    public static func store(_ key: String, of tab: Tab) -> IssuePlace { IssuePlace(tab: tab, key: key, inStore: true) }

    /// `Transactions row 7`, `Transactions 4f…`, `store table transactions row '4f…'`, `book.xlsx`,
    /// `book.xlsx: Transactions`, `Transactions.csv row 2, note`, `bank.csv line 7`, or `""` when nothing is known.
    public var text: String {
        if inStore, let tab { return "store table \(tab.schema.tableName) row '\(key ?? "")'" }
        let line = row.map { "row \($0)" } ?? self.line.map { "line \($0)" } ?? key
        let inTab = [tab?.rawValue, line].compactMap { $0 }.joined(separator: " ")
        var text = inTab
        if let file { text = tab == nil ? [file, line].compactMap { $0 }.joined(separator: " ") : "\(file): \(inTab)" }
        guard let column, !text.isEmpty else { return text }
        return "\(text), \(column)"
    }
}
