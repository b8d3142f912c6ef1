import Foundation
import SheetSyncCore
import SheetValues
import Workbook

/// What a remote workbook held when it was read, with what `apply` needs to write back to exactly that.
public struct RemoteSnapshot: Sendable {
    /// Each tab's table; a tab the workbook lacks is absent.
    public var tables: [Tab: Table]
    /// Changes whenever the workbook's content changes (a content hash or a Drive version).
    public var version: String
    /// What the reader wants the user told (a sheet it had to skip).
    public var notices: [SyncIssue]
    /// Whether the remote holds accepted values in a form it writes back canonically (an amount
    /// typed as text in an `.xlsx`), so a sync writes to it even when no value changes.
    public var rewritesCanonically = false
    /// What the backend noted while reading, so `apply` can refuse to write over a save made since.
    public var marks: any ReadMarks
    /// When each tab was last saved, as its file or Drive says: the best evidence of when a hand edit
    /// found in it was made (a tab absent here: unknown, and the time of the read stands in).
    public var savedAt: [Tab: Timestamp] = [:]

    public init(tables: [Tab: Table], version: String, notices: [SyncIssue] = [], marks: any ReadMarks = NoReadMarks()) {
        self.tables = tables
        self.version = version
        self.notices = notices
        self.marks = marks
    }
}

/// A backend's record of what it read, carried by the snapshot instead of kept in the remote (so a
/// remote holds no state between `read` and `apply`, and two reads never mix). Each backend has a type
/// of its own, declared beside it (`CSVReadMarks`, `XLSXReadMarks`, `GoogleReadMarks`,
/// `MemoryReadMarks`), and takes its own back in `apply` (`RemoteSnapshot.marks(_:readBy:)`): a new
/// backend changes no file but its own.
public protocol ReadMarks: Sendable {}

/// Nothing to check (a remote that compares content itself).
public struct NoReadMarks: ReadMarks {
    public init() {}
}

extension RemoteSnapshot {
    /// The marks `remote` left when it read this snapshot; a snapshot another remote read is refused.
    public func marks<Marks: ReadMarks>(_ type: Marks.Type, readBy remote: some Remote) throws -> Marks {
        guard let marks = marks as? Marks else {
            throw SheetSyncError(.internalError, "\(remote.displayName) was given a snapshot it did not read")
        }
        return marks
    }
}

/// What `apply` did: the workbook's new version and what the user should be told.
public struct RemoteWrite: Sendable, Equatable {
    /// The version after the write; `""` when it cannot count as synced (someone else wrote meanwhile).
    public var version: String
    /// A formula that gave way to a value, and the like.
    public var notices: [SyncIssue]

    public init(version: String, notices: [SyncIssue] = []) {
        self.version = version
        self.notices = notices
    }
}

/// What `create` made: the remote bound to the new workbook, and what the config must remember.
public struct CreatedWorkbook: Sendable {
    /// The remote to sync with from now on (a new spreadsheet's id is in it).
    public var remote: any Remote
    /// Keys of the config's `remote` object to set so later runs find the workbook (`spreadsheetId`).
    public var configEntries: [String: String]

    public init(remote: any Remote, configEntries: [String: String] = [:]) {
        self.remote = remote
        self.configEntries = configEntries
    }
}

/// A workbook sheetsync syncs with: a CSV folder, an `.xlsx` file, a Google spreadsheet or a `MemoryRemote`.
/// Remotes hold no state between calls: everything `apply` needs comes in the snapshot.
public protocol Remote: Sendable {
    /// A short description for messages (`CSV workbook /path`).
    var displayName: String { get }
    /// Whether cells are typed (numbers, dates, booleans) rather than plain text.
    var typedCells: Bool { get }
    /// The most characters a cell holds, when the backend has a limit (rows with longer values are held back).
    var maxCellCharacters: Int? { get }
    /// Where receipt files go: a folder beside the workbook, or an upload target.
    var receiptStorage: ReceiptStorage { get }
    /// The lock file runs that write a local workbook hold (`RunLock.init(workbook:)`), whichever
    /// store they sync; nil for a workbook no two runs on this machine share by path (Google Sheets).
    var lockFile: URL? { get }
    /// Whether the workbook is there at all (a CSV folder with at least one tab file, the `.xlsx`
    /// file, the spreadsheet). A missing workbook is never taken for an empty one.
    func exists() async throws -> Bool
    /// Where a tab lives, for messages (`/path/Transactions.csv`, `sheet 'Transactions' of /path/book.xlsx`).
    func location(of tab: Tab) -> String
    /// The workbook's version without reading it whole, when the backend can tell cheaply.
    func currentVersion() async throws -> String?
    func read() async throws -> RemoteSnapshot
    /// `read()`, with every row's hash and key worked out while it is read where the backend keeps
    /// rows as bytes (`Table.takeKeyedRows`; CSV): what a sync's change scope would visit the rows again for.
    func read(keyingRows: Bool) async throws -> RemoteSnapshot
    /// Carries out the plans on the workbook as it was read in `snapshot`. Writes nothing when no plan
    /// changes the remote.
    func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite
    /// Creates the workbook with the five tabs and their headers when it does not exist.
    func create(settings: LedgerRow) async throws -> CreatedWorkbook
}

extension Remote {
    public func read(keyingRows: Bool) async throws -> RemoteSnapshot { try await read() }

    public var maxCellCharacters: Int? { nil }
    public var lockFile: URL? { nil }
}
