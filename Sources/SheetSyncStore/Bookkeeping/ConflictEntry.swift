import SheetSyncCore

/// One value that lost a last-write-wins decision, kept so that nothing is silently gone.
public struct ConflictEntry: Hashable, Sendable {
    /// Assigned by the store when the entry is appended; ignored in a commit.
    public var id: Int64?
    public var tab: Tab
    public var key: String
    public var field: String
    /// The field text that lost (`""` = empty).
    public var losingValue: String
    public var winningValue: String
    public var losingModifiedAt: String
    public var winningModifiedAt: String
    public var resolvedAt: String

    public init(
        id: Int64? = nil, tab: Tab, key: String, field: String, losingValue: String, winningValue: String,
        losingModifiedAt: String, winningModifiedAt: String, resolvedAt: String
    ) {
        self.id = id
        self.tab = tab
        self.key = key
        self.field = field
        self.losingValue = losingValue
        self.winningValue = winningValue
        self.losingModifiedAt = losingModifiedAt
        self.winningModifiedAt = winningModifiedAt
        self.resolvedAt = resolvedAt
    }
}

/// A sheet row that could not be loaded, as the last sync left it.
public struct RejectedRow: Hashable, Sendable {
    public var tab: Tab
    /// The sheet row number (the header is row 1).
    public var row: Int
    /// The row's key as read, when it had a readable one.
    public var key: String?
    /// What is wrong, e.g. `unknown category 'groceries'`.
    public var message: String
    /// How to fix it, e.g. `did you mean 'Groceries'?`.
    public var hint: String?
    /// The row's cells exactly as read.
    public var rawCells: [String]
    public var firstSeenAt: String

    public init(
        tab: Tab, row: Int, key: String?, message: String, hint: String?, rawCells: [String], firstSeenAt: String
    ) {
        self.tab = tab
        self.row = row
        self.key = key
        self.message = message
        self.hint = hint
        self.rawCells = rawCells
        self.firstSeenAt = firstSeenAt
    }
}
