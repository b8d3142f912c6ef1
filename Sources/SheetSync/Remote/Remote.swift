import SheetSyncCore

/// What a remote workbook held when it was read.
public struct RemoteSnapshot: Sendable {
    /// Each tab's table; a tab the workbook lacks is absent.
    public var tables: [Tab: Table]
    /// Changes whenever the workbook's content changes (a content hash or a Drive version).
    public var version: String
    /// Rows the workbook reader refused before any field was parsed (a NUL byte in a CSV cell), by
    /// tab and index into `tables[tab].rows`: they are rejected and stay as they are.
    public var refusedRows: [Tab: [Int: FieldProblem]]

    public init(tables: [Tab: Table], version: String, refusedRows: [Tab: [Int: FieldProblem]] = [:]) {
        self.tables = tables
        self.version = version
        self.refusedRows = refusedRows
    }
}

/// A workbook sheetsync syncs with: a CSV folder, an `.xlsx` file or a Google spreadsheet.
public protocol Remote: Sendable {
    /// A short description for messages (`CSV workbook /path`).
    var displayName: String { get }
    /// Whether cells are typed (numbers, dates, booleans) rather than plain text.
    var typedCells: Bool { get }
    /// The workbook's version without reading it whole, when the backend can tell cheaply.
    func currentVersion() async throws -> String?
    func read() async throws -> RemoteSnapshot
    /// Carries out the plans on the workbook as it was read in `snapshot`, returning its new version.
    /// Writes nothing when no plan changes the remote.
    func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> String
    /// Creates the workbook with the five tabs and their headers when it does not exist.
    func create(settings: Record) async throws
}
