import Foundation
import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// The change index a sync narrows with: every base key with its row hash, read from the
/// store straight into compact keys, each exactly the text the store holds.
@Suite struct ChangeIndexTests {
    static let lower = "0e9b2c1a-3f4d-4e5f-8a6b-7c8d9e0f1a2b"

    /// The index the store hands to a sync's scope.
    static func index(_ store: LedgerStore) throws -> ChangeIndex {
        var seen: ChangeIndex?
        _ = try store.snapshot { index in
            seen = index
            return ChangeScope()
        }
        return try #require(seen)
    }

    @Test func everyBaseKeyComesWithItsHashWhateverItsSpelling() throws {
        let store = try LedgerStore.inMemory()
        let entries: [(Tab, String, Int64)] = [
            (.transactions, Self.lower, 11), (.transactions, Self.lower.uppercased(), 12), (.transactions, "{\(Self.lower)}", 13),
            (.transactions, "not-a-uuid", 0), (.categories, "Food", 21), (.categories, Self.lower, 22),
            (.categories, Self.lower.uppercased(), 23), (.categories, "Café ☕️", -24), (.receipts, Self.lower, 31),
        ]
        for (tab, key, hash) in entries {
            try store.execute(
                "INSERT INTO sync_base (tab, key, fields, raw_hash) VALUES (?, ?, '{}', ?)", [tab.rawValue, key, hash])
        }
        let index = try Self.index(store)
        for (tab, key, hash) in entries {
            #expect(index.baseHashes[tab]?[key] == hash, "\(tab) \(key)")
        }
        #expect(index.baseHashes[.transactions]?.count == 4 && index.baseHashes[.categories]?.count == 4)
        #expect(index.baseHashes[.receipts]?.count == 1 && index.baseHashes[.recurringRules]?.count == 0)
        // Only the canonical spelling is held as bits; the texts come back as stored.
        let transactionKeys = try #require(index.baseHashes[.transactions]?.keys)
        #expect(Set(transactionKeys.map(\.text)) == [Self.lower, Self.lower.uppercased(), "{\(Self.lower)}", "not-a-uuid"])
        #expect(transactionKeys.filter { if case .uuid = $0 { true } else { false } } == [RowKey(Self.lower)])
        #expect(index.baseHashes[.categories]?.keys.contains(.text("Café ☕️")) == true)
    }

    /// The index with base hashes read ahead (`readBaseHashes`, while the workbook is read).
    static func index(_ store: LedgerStore, ahead: LedgerStore.BaseHashesRead) throws -> ChangeIndex {
        var seen: ChangeIndex?
        _ = try store.snapshot(
            scope: { index in
                seen = index
                return ChangeScope()
            }, ahead: ahead)
        return try #require(seen)
    }

    /// Base hashes read ahead are used only while nothing was written to the store since, by this
    /// connection or another: otherwise the snapshot reads them again.
    @Test func baseHashesReadAheadAreUsedOnlyWhileTheStoreIsUnchanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        let store = try LedgerStore(path: path)
        try store.execute("INSERT INTO sync_base (tab, key, fields, raw_hash) VALUES ('Transactions', ?, '{}', 11)", [Self.lower])
        // Unchanged: what was read ahead is what the snapshot hands on (a made-up hash shows it).
        let ahead = try store.readBaseHashes()
        #expect(ahead.hashes[.transactions]?[Self.lower] == 11)
        let madeUp = LedgerStore.BaseHashesRead(hashes: [.transactions: BaseHashes([Self.lower: 99])], stamp: ahead.stamp)
        #expect(try Self.index(store, ahead: madeUp).baseHashes[.transactions]?[Self.lower] == 99)
        // Written through this connection since: read again.
        try store.execute("UPDATE sync_base SET raw_hash = 12")
        #expect(try Self.index(store, ahead: madeUp).baseHashes[.transactions]?[Self.lower] == 12)
        // Written by another connection (another process's sync) since: read again.
        let now = try store.readBaseHashes()
        let other = try LedgerStore(path: path)
        try other.execute("UPDATE sync_base SET raw_hash = 13")
        let stale = LedgerStore.BaseHashesRead(hashes: now.hashes, stamp: now.stamp)
        #expect(try Self.index(store, ahead: stale).baseHashes[.transactions]?[Self.lower] == 13)
    }
}
