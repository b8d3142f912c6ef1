import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

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
        return RemoteSnapshot(tables: read.tables, version: read.version, marks: MemoryReadMarks(tabVersions: read.versions))
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite {
        let versions = try snapshot.marks(MemoryReadMarks.self, readBy: self).tabVersions
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

    public func create(settings: LedgerRow) async throws -> CreatedWorkbook {
        for tab in Tab.allCases where await workbook.table(tab) == nil {
            var table = Table(header: TablePatcher.newHeader(tab.schema))
            if tab == .settings { table.rows = [tab.schema.fields.map { FieldParser.cell(settings[$0.key], $0, typed: typedCells) }] }
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
        _ receipt: ReceiptUpload, content: [UInt8], settings: LedgerRow, keepSession: @escaping @Sendable (String) throws -> Void
    ) async throws -> String {
        let fileId = "memory-" + receipt.receiptId
        try await workbook.store(.init(fileId: fileId, name: receipt.name, content: content), receiptId: receipt.receiptId)
        return fileId
    }
}

/// What a `MemoryRemote`'s read noted: each tab's version counter.
public struct MemoryReadMarks: ReadMarks {
    public var tabVersions: [Tab: Int]
}
