import SheetValues

/// A value that lost a last-write-wins decision, kept so nothing is silently gone.
public struct Conflict: Hashable, Sendable, Codable {
    public var tab: Tab
    public var key: String
    public var field: String
    public var losingValue: String
    public var winningValue: String
    public var losingModifiedAt: String
    public var winningModifiedAt: String
    /// When the sync that decided it ran (set when the conflict is logged; empty in a fresh plan).
    public var resolvedAt: String

    public init(
        tab: Tab, key: String, field: String, losingValue: String, winningValue: String, losingModifiedAt: String,
        winningModifiedAt: String, resolvedAt: String = ""
    ) {
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

/// A row that could not be loaded (or pushed), as reported to the user and kept in the rejected-row log.
public struct Rejection: Hashable, Sendable, Codable {
    public var tab: Tab
    /// The sheet row number (header is row 1); `storeRow` for a store row held back from the push.
    public var row: Int
    /// The row's key as read; empty when it had no readable one.
    public var id: String
    /// What is wrong, e.g. `unknown category 'groceries'`.
    public var message: String
    /// How to fix it, e.g. `did you mean 'Groceries'?`; empty when there is no hint.
    public var hint: String
    /// The row's cells exactly as read.
    public var rawCells: [String]
    /// When a run first saw this rejection (set when it is logged; empty in a fresh plan).
    public var firstSeenAt: String
    /// What kind of problem holds the row back (docs/issues.md); `rejected-row` for one logged
    /// before codes were.
    public var code: IssueCode

    public init(
        tab: Tab, row: Int, id: String, message: String, hint: String, rawCells: [String], firstSeenAt: String = "",
        code: IssueCode = .rejectedRow
    ) {
        self.tab = tab
        self.row = row
        self.id = id
        self.message = message
        self.hint = hint
        self.rawCells = rawCells
        self.firstSeenAt = firstSeenAt
        self.code = code
    }

    /// The code of a row with these problems: a damaged row is that first of all, else the first problem's.
    public static func code(of problems: [FieldProblem]) -> IssueCode {
        problems.contains { $0.code == .damagedRow } ? .damagedRow : problems.first?.code ?? .rejectedRow
    }

    /// What makes a rejection "the same" across runs: the row's content and the problem, not its
    /// position (people sort rows) nor when it was seen.
    public var identity: String {
        ([tab.rawValue, id, message] + rawCells).joined(separator: "\u{1F}")
    }

    /// The `row` of a store row held back from the push (it has no sheet row).
    public static let storeRow = 0

    /// `Transactions row 7 (id …): unknown category 'Grocery' (did you mean 'Groceries'?)`
    public var summary: String {
        Self.summary(tab: tab.rawValue, row: row, id: id, message: message, hint: hint)
    }

    /// The one-line form of a rejection, shared by every place that prints one.
    public static func summary(tab: String, row: Int, id: String, message: String, hint: String) -> String {
        let place = row == storeRow ? "\(tab) (store row)" : "\(tab) row \(row)"
        let idPart = id.isEmpty ? "" : " (\(id))"
        let hintPart = hint.isEmpty ? "" : " — \(hint)"
        return "\(place)\(idPart): \(message)\(hintPart)"
    }
}

/// A change to one existing sheet row: the new values of the named fields.
public struct SheetRowUpdate: Hashable, Sendable {
    /// The row's index in the table that was read.
    public var index: Int
    public var key: String
    public var fields: [String: String]
}

/// A sheet row to delete, identified by position and, for verification, by key.
public struct SheetRowDelete: Hashable, Sendable {
    public var index: Int
    public var key: String
}

/// Per-tab counts, as `--json` reports them.
public struct TabCounts: Hashable, Sendable, Codable {
    public var added = 0
    public var updated = 0
    public var deleted = 0
    public var rejected = 0
    public init() {}
    public var isZero: Bool { added == 0 && updated == 0 && deleted == 0 && rejected == 0 }
}

/// What a sync does to one tab, on both sides. A pure value; adapters carry it out.
public struct TabPlan: Hashable, Sendable {
    public var tab: Tab
    /// How the tab's dates and amounts typed as text were read (a writer that retypes them reads them so).
    public var forms = LocalForms.standard
    /// Local rows to write, each with the row as it was read (nil: expected absent).
    public var localUpserts: [RowWrite] = []
    public var localDeletes: [RowDelete] = []
    public var remoteUpdates: [SheetRowUpdate] = []
    public var remoteAppends: [LedgerRow] = []
    public var remoteDeletes: [SheetRowDelete] = []
    /// The base after this sync, for every key both sides now agree on.
    public var base: [String: LedgerRow] = [:]
    /// Keys whose tombstones can go (the remote has caught up).
    public var clearedTombstones: [String] = []
    /// Rows an older copy lacked, alone, written back by this plan (`StaleCopyGuard`).
    public var writtenBack: [String] = []
    /// Rows edited in the store and deleted from the workbook, appended again by this plan (an edit beats
    /// a delete): rows the workbook had before, not rows this store added to it.
    public var broughtBack: [String] = []
    public var conflicts: [Conflict] = []
    public var rejections: [Rejection] = []
    public var notices: [SyncIssue] = []
    /// Changes applied to the store.
    public var localCounts = TabCounts()
    /// Changes written to the workbook.
    public var remoteCounts = TabCounts()
    /// The dataset after the sync, by key (frozen rows as their last good version).
    public var result: [String: LedgerRow] = [:]
    /// Keys the plan left out as unchanged on both sides (`ChangeScope`): present, and as the base.
    public var unchanged = UnchangedRows()
    /// What the store keeps for the next run to leave unchanged rows out.
    public var changes = ChangeRecord()
    /// The workbook lacks the tab and the store never had it: the push creates it (its header, and
    /// whatever rows it appends).
    public var createsTab = false
    /// Rows taken exactly as read, without a record each (`PlainRows`): a check counts them, a pull
    /// into an empty store loads them (`load`). The plan's other fields are of the tab's other rows.
    public var plain: PlainRows?
    /// The plain rows as a pull into an empty store adds them (`PlainLoad`), besides `localUpserts`.
    public var load: PlainLoad?

    public init(tab: Tab) { self.tab = tab }

    public var changesRemote: Bool {
        createsTab || !remoteUpdates.isEmpty || !remoteAppends.isEmpty || !remoteDeletes.isEmpty
    }
    public var changesLocal: Bool { !localUpserts.isEmpty || !localDeletes.isEmpty || (load?.count ?? 0) > 0 }

    /// `deletes` (of `localDeletes`) not carried out: each row stays in the store and goes back to the
    /// workbook, which lost it (`local`: the store's rows, canonical).
    mutating func writeBack(_ deletes: [RowDelete], local: [String: LedgerRow]) {
        let keys = Set(deletes.map(\.key))
        for delete in deletes {
            let record = local[delete.key] ?? delete.expected
            remoteAppends.append(record)
            remoteCounts.added += 1
            base[delete.key] = record
            result[delete.key] = record
        }
        localDeletes.removeAll { keys.contains($0.key) }
        localCounts.deleted = localDeletes.count
    }

    /// Keeps every store row this plan would delete (or those of `only`), as it is and with its base:
    /// for a run that must delete nothing from the tab (a row whose key cannot be read, a file cut
    /// short), or not these rows (a transaction a receipt still points at).
    public mutating func keepLocalDeletes(base: [String: LedgerRow], only: Set<String>? = nil) {
        for delete in localDeletes where only?.contains(delete.key) ?? true {
            if let b = base[delete.key] { self.base[delete.key] = b }
            result[delete.key] = delete.expected
        }
        localDeletes.removeAll { only?.contains($0.key) ?? true }
        localCounts.deleted = localDeletes.count
    }
}

/// A store row to write, provided the row is still as the engine read it.
public struct RowWrite: Hashable, Sendable {
    public var record: LedgerRow
    /// The row as the engine read it; nil when it expected no row with this key.
    public var expected: LedgerRow?

    public init(record: LedgerRow, expected: LedgerRow?) {
        self.record = record
        self.expected = expected
    }
}

/// A store row to delete, provided the row is still as the engine read it.
public struct RowDelete: Hashable, Sendable {
    public var key: String
    public var expected: LedgerRow

    public init(key: String, expected: LedgerRow) {
        self.key = key
        self.expected = expected
    }
}
