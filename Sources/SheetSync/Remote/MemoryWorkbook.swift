import Foundation
import SheetSyncCore
import SheetValues

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
    public private(set) var storageFull = false

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
            throw SheetSyncError.temporary(
                "tab \(tab.rawValue) of the memory workbook changed since it was read; nothing of it was written"
            ).coded(.changedMeanwhile)
        }
        setTable(tab, table)
    }

    func receipt(_ receiptId: String) -> UploadedReceipt? { receipts[receiptId] }

    func store(_ receipt: UploadedReceipt, receiptId: String) throws {
        if storageFull { throw ReceiptStorageRefusal(kind: "storage full", reason: "the memory workbook's storage is full") }
        receipts[receiptId] = receipt
    }
}
