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
