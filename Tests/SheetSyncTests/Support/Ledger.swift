import Foundation
import SheetSyncCore
import SheetSyncStore
import Testing
import Workbook

/// A ledger folder as a user has it (a store and a CSV workbook in `book/`, or the sample's layout),
/// with what a test needs to assert both sides' contents before and after a command.
struct Ledger {
    let folder: URL
    /// The CSV workbook folder.
    let book: URL
    let store: URL

    /// The clean sample, synced once: 10 transactions in the store and the workbook.
    static func synced(_ name: String = "clean") async throws -> Ledger {
        let ledger = try unsynced(name)
        let first = try await ledger.run("sync")
        #expect(first.status == 0, "\(first.stderr)")
        return ledger
    }

    /// The sample copied into `book/`, with a config naming it, not yet synced.
    static func unsynced(_ name: String = "clean") throws -> Ledger {
        let folder = try TestWorkbook.scratch("ledger")
        let book = folder.appendingPathComponent("book")
        try FileManager.default.copyItem(at: CLI.repoRoot.appendingPathComponent("samples").appendingPathComponent(name), to: book)
        let config = #"{"store": "ledger.sqlite", "remote": {"type": "csv", "path": "book"}}"#
        try Data(config.utf8).write(to: folder.appendingPathComponent("sheetsync.json"))
        return Ledger(folder: folder, book: book, store: folder.appendingPathComponent("ledger.sqlite"))
    }

    var workbook: TestWorkbook { TestWorkbook(folder: book) }

    @discardableResult
    func run(_ arguments: String...) async throws -> CLI.Result {
        try await CLI.run(arguments, in: folder)
    }

    /// The store's rows of a tab by key, read from a read-only copy (the file is not touched).
    func storeRows(_ tab: Tab) throws -> [String: LedgerRow] {
        let store = try LedgerStore.inMemoryCopy(of: store.path)
        return Dictionary(uniqueKeysWithValues: try store.records(in: tab).map { ($0[tab.schema.keyField], $0) })
    }

    /// The workbook's loadable rows of a tab by key.
    func sheetRows(_ tab: Tab) throws -> [String: LedgerRow] {
        try workbook.records(tab, now: Timestamp(millisecondsSinceEpoch: 0))
    }

    /// Every file under the ledger folder with its bytes and mode: a dry run must leave this equal.
    func everyByte() throws -> [String: Data] {
        var out: [String: Data] = [:]
        let root = folder.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return out }
        for case let relative as String in walker {
            let path = root + "/" + relative
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
            out[relative + " mode"] = Data(String(mode, radix: 8).utf8)
            if !isDirectory.boolValue { out[relative] = try Data(contentsOf: URL(fileURLWithPath: path)) }
        }
        return out
    }
}
