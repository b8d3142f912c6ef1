/// The stable name of each kind of issue: scripts and tests match on it, never on the wording.
/// A code is never renamed or reused; docs/issues.md says what each means and what to do.
public enum IssueCode: String, CaseIterable, Hashable, Sendable, Codable {
    // Rows as read from the workbook.
    /// Two rows share an id; the copy gets one of its own.
    case duplicateId = "duplicate-id"
    /// A row whose key cannot be read: no row is deleted this run.
    case unreadableKeySuspendsDeletes = "unreadable-key-suspends-deletes"
    /// A `lastModifiedAt` later than now (a clock ahead) is clamped to now.
    case futureTimestamp = "future-timestamp"
    /// The workbook has a version of a row deleted since; it is deleted there again.
    case deletedRowCameBack = "deleted-row-came-back"
    /// A row of the store fails its checks (edited in SQLite by hand); the base is kept.
    case invalidStoreRow = "invalid-store-row"
    /// Rows without an id wait for a run that writes the workbook (a pull writes nothing).
    case rowsWaitForIds = "rows-wait-for-ids"
    /// The workbook lacks a tab the store never had; it is created with its header.
    case tabCreated = "tab-created"
    /// A category renamed on another machine: this store's rows follow the rename.
    case renameFollowed = "rename-followed"
    /// A recurring instance deleted in the workbook stays deleted (the rule skips its date).
    case instanceDeleted = "instance-deleted"
    /// A value a spreadsheet program would change when it opens and saves the CSV.
    case valueAtRisk = "value-at-risk"
    /// Two categories whose names differ only in case.
    case categoryCaseVariant = "category-case-variant"

    // Rows rejected
    // (`Rejection.code`: a workbook row left as typed, or a store row not pushed, until it is fixed).
    /// A cell that is no UUID where the column holds ids.
    case invalidId = "invalid-id"
    /// A cell that is none of its column's choices (`type`, `paidFlag`, `cadence`, …).
    case invalidChoice = "invalid-choice"
    /// A cell that is not TRUE or FALSE.
    case invalidBoolean = "invalid-boolean"
    /// A cell that is not a whole number in its column's range.
    case invalidNumber = "invalid-number"
    /// A cell that is not an amount (or is negative, or its decimal comma or point cannot be told).
    case invalidAmount = "invalid-amount"
    /// A cell that is not a date, a day that does not exist, or a day and month the `dateOrder` cannot tell apart.
    case invalidDate = "invalid-date"
    /// A cell that is not an ISO 8601 timestamp.
    case invalidTimestamp = "invalid-timestamp"
    /// A required cell that is empty.
    case missingValue = "missing-value"
    /// A cell holding a spreadsheet error (`#REF!`) or a formula saved without its result.
    case formulaError = "formula-error"
    /// A row the file holds damaged (broken quoting, a NUL byte, cut short).
    case damagedRow = "damaged-row"
    /// A row naming a category the ledger does not have.
    case unknownCategory = "unknown-category"
    /// A receipt row pointing at a transaction that does not exist (or is gone).
    case unknownTransaction = "unknown-transaction"
    /// Two rows of a tab with the same id and different content.
    case duplicateKey = "duplicate-key"
    /// A value that came back exactly as a spreadsheet program coerces what sheetsync wrote (`00123` → `123`).
    case coercedValue = "coerced-value"
    /// A Settings row that is not the dataset's one valid row (a second row, an unknown time zone).
    case invalidSettings = "invalid-settings"
    /// A value longer than the workbook holds in a cell (Google Sheets: 50,000 characters).
    case overlongValue = "overlong-value"
    /// A rejected row whose code was not recorded (logged by an earlier version).
    case rejectedRow = "rejected-row"

    // Bank statements (`sheetsync import STATEMENT`: any refused entry holds the whole file back).
    /// The file is no bank statement sheetsync reads (empty, binary, none of the formats).
    case notAStatement = "not-a-statement"
    /// A bank CSV export without a column sheetsync needs (date, amount).
    case missingColumn = "missing-column"
    /// A date column whose day and month order cannot be told (or is mixed); set `dateFormat`.
    case ambiguousDateOrder = "ambiguous-date-order"
    /// A statement that breaks its own format (XML not well formed, a field of the wrong shape).
    case malformedStatement = "malformed-statement"

    // Changes held back (exit 65).
    /// The workbook looks like an older copy saved over the file: rows are written back, none deleted.
    case olderCopy = "older-copy"
    /// More rows would be deleted than the mass-delete guard allows.
    case massDelete = "mass-delete"
    /// A category still named by rows is not deleted or renamed.
    case categoryInUse = "category-in-use"
    /// A tab with damaged rows (broken quoting, cut short) only feeds the store this run.
    case damagedTab = "damaged-tab"
    /// A receipt row still points at a transaction being deleted, or the reverse.
    case receiptLinksDeletedTransaction = "receipt-links-deleted-transaction"
    /// A tab cannot be read (missing, its header damaged).
    case unreadableTab = "unreadable-tab"
    /// The workbook belongs to another dataset than this store.
    case datasetMismatch = "dataset-mismatch"
    /// The folder or file is not a ledger.
    case notALedger = "not-a-ledger"
    /// A receipt file cannot be uploaded or found.
    case receiptProblem = "receipt-problem"
    /// An imported row is refused (its category unknown, its id taken by other content).
    case importRefused = "import-refused"

    // The backends and the run.
    /// What the workbook backend has to say about a read or a write (formula cells replaced, cells retyped).
    case workbookNote = "workbook-note"
    /// A Google write found rows moved or typed into while it ran, and put them right.
    case writeRepaired = "write-repaired"
    /// Rows deleted in the workbook were deleted from the store (restorable for a while).
    case rowsDeleted = "rows-deleted"
    /// Rows changed in the store during the run; they sync next run.
    case changedDuringRun = "changed-during-run"
    /// A cell that reads as a formula or command in a spreadsheet program (listed by `check`).
    case formulaLikeCell = "formula-like-cell"
    /// An imported row the store already has with the same content: skipped.
    case duplicateSkipped = "duplicate-skipped"
    /// A recurring rule's problem (not loaded yet, over the per-run limit, invalid).
    case ruleProblem = "rule-problem"
    /// What a run did on its own that has no more specific code.
    case note
}
