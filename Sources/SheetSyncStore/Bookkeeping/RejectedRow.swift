import SheetSyncCore

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
