import SheetSyncCore

/// What a remote workbook held when it was read.
public struct RemoteSnapshot: Sendable {
    /// Each tab's table; a tab the workbook lacks is absent.
    public var tables: [Tab: Table]
    /// Changes whenever the workbook's content changes (a content hash or a Drive version).
    public var version: String
    /// What the reader wants the user told (a sheet it had to skip).
    public var notices: [String]
    /// Whether the remote holds accepted values in a form it writes back canonically (an amount
    /// typed as text in an `.xlsx`), so a sync writes to it even when no value changes.
    public var rewritesCanonically = false

    public init(tables: [Tab: Table], version: String, notices: [String] = []) {
        self.tables = tables
        self.version = version
        self.notices = notices
    }
}

/// A workbook sheetsync syncs with: a CSV folder, an `.xlsx` file or a Google spreadsheet.
public protocol Remote: Sendable {
    /// A short description for messages (`CSV workbook /path`).
    var displayName: String { get }
    /// Whether cells are typed (numbers, dates, booleans) rather than plain text.
    var typedCells: Bool { get }
    /// The most characters a cell holds, when the backend has a limit (rows with longer values are held back).
    var maxCellCharacters: Int? { get }
    /// Whether the workbook is there at all (a CSV folder with at least one tab file, the `.xlsx`
    /// file, the spreadsheet). A missing workbook is never taken for an empty one.
    func exists() async throws -> Bool
    /// Where a tab lives, for messages (`/path/Transactions.csv`, `sheet 'Transactions' of /path/book.xlsx`).
    func location(of tab: Tab) -> String
    /// The workbook's version without reading it whole, when the backend can tell cheaply.
    func currentVersion() async throws -> String?
    func read() async throws -> RemoteSnapshot
    /// Carries out the plans on the workbook as it was read in `snapshot`, returning its new version.
    /// Writes nothing when no plan changes the remote.
    func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> String
    /// What the last `apply` wants the user told (a formula that gave way to a value).
    func applyNotices() -> [String]
    /// Creates the workbook with the five tabs and their headers when it does not exist.
    func create(settings: Record) async throws
}

extension Remote {
    public var maxCellCharacters: Int? { nil }
    public func applyNotices() -> [String] { [] }
}
