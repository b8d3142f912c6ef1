import SheetSyncCore

/// Everything the sync engine reads from the store, taken in one read transaction.
public struct StoreSnapshot: Hashable, Sendable {
    /// Key → row, every tab present (possibly empty). Texts as stored (see `LedgerStore`).
    public var rows: [Tab: [String: LedgerRow]]
    /// Key → each row's field texts as of the last successful sync.
    public var base: [Tab: [String: LedgerRow]]
    /// Key → `deletedAt` of rows deleted locally since the remote last caught up.
    public var tombstones: [Tab: [String: String]]
    /// The local change counter; it moves on every write except the engine's own commits.
    public var changeCounter: Int64
    public var state: [String: String]
    /// Key → `lastModifiedAt` of the last deleted version of rows kept for `restore` (newest delete per key).
    public var deleted: [Tab: [String: String]] = [:]

    public init(
        rows: [Tab: [String: LedgerRow]], base: [Tab: [String: LedgerRow]], tombstones: [Tab: [String: String]],
        changeCounter: Int64, state: [String: String], deleted: [Tab: [String: String]] = [:]
    ) {
        self.rows = rows
        self.base = base
        self.tombstones = tombstones
        self.changeCounter = changeCounter
        self.state = state
        self.deleted = deleted
    }
}

/// The part of a `StoreSnapshot` that tells whether anything changed since the last sync.
public struct StoreGlance: Hashable, Sendable {
    public var state: [String: String]
    public var changeCounter: Int64
    /// Whether a deleted row still waits for the remote to catch up.
    public var hasTombstones: Bool

    public init(state: [String: String], changeCounter: Int64, hasTombstones: Bool) {
        self.state = state
        self.changeCounter = changeCounter
        self.hasTombstones = hasTombstones
    }
}

/// What one sync run writes to the store, all in one transaction.
public struct StoreCommit: Hashable, Sendable {
    public var upserts: [Tab: [RowWrite]]
    public var deletes: [Tab: [RowDelete]]
    /// New base snapshots, keyed by each record's key field.
    public var baseUpserts: [Tab: [LedgerRow]]
    public var baseDeletes: [Tab: [String]]
    public var clearTombstones: [Tab: [String]]
    /// nil leaves the rejected-row log as is; a value replaces the whole log.
    public var rejected: [Rejection]?
    /// Appended to the conflict log.
    public var conflicts: [Conflict]
    /// nil values delete their keys.
    public var state: [String: String?]
    /// Content fingerprints of rows an import loaded without an id → the id they were given.
    public var importFingerprints: [String: String] = [:]
    /// Per planned tab: row hashes and dirty marks to keep (`ChangeRecord`).
    public var changes: [Tab: ChangeRecord] = [:]
    /// The change counter when the engine read the store: dirty marks made after it stay.
    public var changeCounter: Int64 = 0
    /// Rows to add as read to a tab the store has nothing of (`PlainLoad`), each with its base
    /// entry and row hash; all skipped when the tab is no longer empty at commit time.
    public var loads: [Tab: PlainLoad] = [:]

    public init(
        upserts: [Tab: [RowWrite]] = [:], deletes: [Tab: [RowDelete]] = [:], baseUpserts: [Tab: [LedgerRow]] = [:],
        baseDeletes: [Tab: [String]] = [:], clearTombstones: [Tab: [String]] = [:], rejected: [Rejection]? = nil,
        conflicts: [Conflict] = [], state: [String: String?] = [:]
    ) {
        self.upserts = upserts
        self.deletes = deletes
        self.baseUpserts = baseUpserts
        self.baseDeletes = baseDeletes
        self.clearTombstones = clearTombstones
        self.rejected = rejected
        self.conflicts = conflicts
        self.state = state
    }
}

/// What a commit did not do.
public struct CommitOutcome: Hashable, Sendable {
    /// Keys whose row no longer matched `expected` (another SQLite client changed it mid-run):
    /// neither the row nor its base entry nor its tombstone was touched; the next run retries them.
    public var skipped: [Tab: [String]]
    /// The change counter after the commit (the commit itself does not move it).
    public var changeCounter: Int64

    public init(skipped: [Tab: [String]] = [:], changeCounter: Int64) {
        self.skipped = skipped
        self.changeCounter = changeCounter
    }

    public var skippedCount: Int { skipped.values.reduce(0) { $0 + $1.count } }
}
