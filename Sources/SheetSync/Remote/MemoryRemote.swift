import Foundation
import SheetSyncCore
import SheetSyncStore

/// A workbook held in memory: the five tabs as tables (each present or not, with its own version),
/// the receipts uploaded to it, and whether its storage is full. A `MemoryRemote` syncs with it.
/// For tests and for library users who want sync without files or network.
public actor MemoryWorkbook {
    private var tables: [Tab: Table]
    /// Each present tab's version; any change to a tab gives it a new one, never used before.
    private var versions: [Tab: Int] = [:]
    private var generation = 0
    private var receipts: [String: UploadedReceipt] = [:]
    /// While true, receipt uploads are refused as a full Drive refuses them.
    public var storageFull = false

    /// A receipt file the workbook holds.
    public struct UploadedReceipt: Sendable, Equatable {
        public var fileId: String
        public var name: String
        public var content: [UInt8]
    }

    /// A workbook with these tabs (none: a workbook that does not exist yet).
    public init(tables: [Tab: Table] = [:]) {
        self.tables = tables
        for (number, tab) in Tab.allCases.filter({ tables[$0] != nil }).enumerated() { versions[tab] = number + 1 }
        generation = versions.count
    }

    private func bump() -> Int {
        generation += 1
        return generation
    }

    /// A tab's table, nil when the workbook lacks the tab.
    public func table(_ tab: Tab) -> Table? { tables[tab] }

    /// Replaces a tab as a person editing the workbook would (nil removes the tab).
    public func setTable(_ tab: Tab, _ table: Table?) {
        tables[tab] = table
        versions[tab] = table == nil ? nil : bump()
    }

    public func setStorageFull(_ full: Bool) { storageFull = full }

    /// The receipts uploaded so far, by receipt id.
    public func uploadedReceipts() -> [String: UploadedReceipt] { receipts }

    var isEmpty: Bool { tables.isEmpty }

    var version: String { "memory:" + Tab.allCases.map { versions[$0].map(String.init) ?? "-" }.joined(separator: ",") }

    func read() -> (tables: [Tab: Table], versions: [Tab: Int], version: String) { (tables, versions, version) }

    /// Replaces a tab when it is still at the version read (nil: the tab was missing then).
    func replace(_ tab: Tab, with table: Table, expecting: Int?) throws {
        guard versions[tab] == expecting else {
            throw SheetSyncError.temporary("tab \(tab.rawValue) of the memory workbook changed since it was read; nothing of it was written")
        }
        setTable(tab, table)
    }

    func receipt(_ receiptId: String) -> UploadedReceipt? { receipts[receiptId] }

    func store(_ receipt: UploadedReceipt, receiptId: String) throws {
        if storageFull { throw ReceiptStorageRefusal(kind: "storage full", reason: "the memory workbook's storage is full") }
        receipts[receiptId] = receipt
    }
}

/// A step of `MemoryRemote.apply` at which its fault hook is consulted (to simulate a crash between tab writes).
public enum MemoryWriteStep: Sendable, Equatable {
    case beforeWriting(Tab)
    case afterWriting(Tab)
}

/// A `Remote` over a `MemoryWorkbook`: typed or plain-text cells, per-tab presence and versions,
/// receipts kept in the workbook (or in a folder), and a fault hook. Holds no state of its own: every
/// write goes to the workbook, checked against the tab versions the snapshot carries.
public struct MemoryRemote: Remote {
    public let workbook: MemoryWorkbook
    public let typedCells: Bool
    public let maxCellCharacters: Int?
    public let displayName: String
    public let receiptStorage: ReceiptStorage
    /// Called at each write step; what it throws ends `apply` there, with the tabs before it written.
    private(set) var faults: (@Sendable (MemoryWriteStep) throws -> Void)?

    /// - Parameter receiptFolder: keep receipts in this folder (as file workbooks do) instead of uploading them to the workbook.
    public init(
        workbook: MemoryWorkbook = MemoryWorkbook(), typedCells: Bool = false, maxCellCharacters: Int? = nil,
        displayName: String = "memory workbook", receiptFolder: URL? = nil,
        faults: (@Sendable (MemoryWriteStep) throws -> Void)? = nil
    ) {
        self.workbook = workbook
        self.typedCells = typedCells
        self.maxCellCharacters = maxCellCharacters
        self.displayName = displayName
        receiptStorage = receiptFolder.map { .folder($0) } ?? .upload(MemoryReceiptTarget(workbook: workbook))
        self.faults = faults
    }

    /// The same workbook with another fault hook (nil: none).
    public func with(faults: (@Sendable (MemoryWriteStep) throws -> Void)?) -> MemoryRemote {
        var copy = self
        copy.faults = faults
        return copy
    }

    public func exists() async throws -> Bool { await !workbook.isEmpty }

    public func location(of tab: Tab) -> String { "tab '\(tab.rawValue)' of \(displayName)" }

    public func currentVersion() async throws -> String? { await workbook.version }

    public func read() async throws -> RemoteSnapshot {
        let read = await workbook.read()
        return RemoteSnapshot(tables: read.tables, version: read.version, marks: .memory(tabVersions: read.versions))
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite {
        guard case .memory(let versions) = snapshot.marks else {
            throw SheetSyncError(.internalError, "\(displayName) was given a snapshot it did not read")
        }
        var wrote = false
        for plan in plans where plan.changesRemote {
            let tab = plan.tab
            let old = snapshot.tables[tab] ?? Table(header: TablePatcher.newHeader(tab.schema))
            let new = TablePatcher.apply(plan, to: old, schema: tab.schema, typed: typedCells)
            guard new != old || snapshot.tables[tab] == nil else { continue }
            try faults?(.beforeWriting(tab))
            try await workbook.replace(tab, with: new, expecting: versions[tab])
            wrote = true
            try faults?(.afterWriting(tab))
        }
        return RemoteWrite(version: wrote ? await workbook.version : snapshot.version)
    }

    public func create(settings: Record) async throws -> CreatedWorkbook {
        for tab in Tab.allCases where await workbook.table(tab) == nil {
            var table = Table(header: TablePatcher.newHeader(tab.schema))
            if tab == .settings { table.rows = [tab.schema.fields.map { FieldParser.cell(settings[$0.name], $0, typed: typedCells) }] }
            await workbook.setTable(tab, table)
        }
        return CreatedWorkbook(remote: self)
    }
}

/// Receipts uploaded into a `MemoryWorkbook`; refused while its storage is full.
struct MemoryReceiptTarget: ReceiptUploadTarget {
    let workbook: MemoryWorkbook

    func uploadedFile(receiptId: String) async throws -> String? { await workbook.receipt(receiptId)?.fileId }

    func upload(
        _ receipt: ReceiptUpload, content: [UInt8], settings: Record, keepSession: @escaping @Sendable (String) throws -> Void
    ) async throws -> String {
        let fileId = "memory-" + receipt.receiptId
        try await workbook.store(.init(fileId: fileId, name: receipt.name, content: content), receiptId: receipt.receiptId)
        return fileId
    }
}
