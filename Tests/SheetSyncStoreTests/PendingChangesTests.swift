import Foundation
import GRDB
import SheetSyncCore
import TestSupport
import Testing

@testable import SheetSyncStore

/// `pendingLocalChanges()` (what `status` shows, counted in SQL) gives what comparing a full snapshot
/// row by row gives, whatever the texts, SQL types and base entries are.
@Suite struct PendingChangesTests {
    let store: LedgerStore

    init() throws {
        store = try LedgerStore.inMemory()
    }

    /// The count as `status` made it before: every row of a full snapshot against its base entry.
    func snapshotCount() throws -> [Tab: Int] {
        let snapshot = try store.snapshot()
        var pending: [Tab: Int] = [:]
        for tab in Tab.allCases {
            let rows = snapshot.rows[tab] ?? [:], base = snapshot.base[tab] ?? [:]
            pending[tab] = rows.filter { base[$0.key] != $0.value }.count + base.keys.filter { rows[$0] == nil }.count
        }
        return pending
    }

    /// Rows written and their base entries set, as a sync leaves them.
    func synced(_ records: [Tab: [LedgerRow]]) throws {
        try store.commit(
            StoreCommit(
                upserts: records.mapValues { $0.map { RowWrite(record: $0, expected: nil) } },
                baseUpserts: records))
    }

    func expectCounts(_ expected: [Tab: Int], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var all = Dictionary(uniqueKeysWithValues: Tab.allCases.map { ($0, 0) })
        all.merge(expected) { _, new in new }
        #expect(try store.pendingLocalChanges() == all, sourceLocation: sourceLocation)
        #expect(try snapshotCount() == all, sourceLocation: sourceLocation)
    }

    /// The rows SQL could not settle by comparing texts (so were read as records).
    func unsettled(_ tab: Tab) throws -> Int {
        try store.writer.read { db in
            try Row.fetchAll(db, sql: PendingSQL.byTab[tab].differing, arguments: [tab.rawValue]).count
        }
    }

    @Test func syncedRowsOfEveryTabArePendingNowhereAndSettledInSQL() throws {
        try synced(Dictionary(uniqueKeysWithValues: Tab.allCases.map { ($0, [Samples.record($0)]) }))
        try expectCounts([:])
        for tab in Tab.allCases { #expect(try unsettled(tab) == 0, "\(tab)") }
    }

    @Test(arguments: BookkeepingJSONTests.awkwardTexts)
    func awkwardTextsAreNotPendingOnceSynced(_ text: String) throws {
        try synced([.transactions: [Samples.record(.transactions, [.note: text, .tagsCSV: text])]])
        try expectCounts([:])
    }

    @Test func editedAddedAndDeletedRowsAreEachCountedOnce() throws {
        let other = "22222222-3333-4444-8555-666666666666"
        let gone = "33333333-3333-4444-8555-666666666666"
        try synced([
            .transactions: [
                Samples.record(.transactions), Samples.record(.transactions, [.transactionId: other]),
                Samples.record(.transactions, [.transactionId: gone]),
            ],
            .categories: [Samples.record(.categories)],
        ])
        try store.execute("UPDATE transactions SET note = 'typed by hand' WHERE transactionId = ?", [other])
        try store.execute("DELETE FROM transactions WHERE transactionId = ?", [gone])
        try store.upsert(Samples.record(.categories, [.name: "Pets"]), in: .categories)
        try store.upsert(Samples.record(.settings), in: .settings)
        try expectCounts([.transactions: 2, .categories: 1, .settings: 1])
    }

    @Test func realAndTextValuesInIntegerColumnsCompareAsTheirSwiftTexts() throws {
        try synced([.categories: [Samples.record(.categories)]])
        // As another client could leave them (the engine writes integers); quiet, like a sync.
        try store.execute(
            """
            INSERT INTO sync_applying (id) VALUES (1);
            UPDATE categories SET sortOrder = 2.5;
            UPDATE sync_base SET fields = json_set(fields, '$.sortOrder', '2.5') WHERE tab = 'Categories';
            DELETE FROM sync_applying;
            """)
        #expect(try store.text("SELECT typeof(sortOrder) FROM categories") == "real")
        try expectCounts([:])
        try store.execute("UPDATE categories SET sortOrder = 'soon'")
        try expectCounts([.categories: 1])
    }

    @Test func blobsInTextColumnsAreComparedAsTheirTexts() throws {
        try synced([.categories: [Samples.record(.categories), Samples.record(.categories, [.name: "Pets"])]])
        // Quiet, like a sync, so only the values change; json_object cannot render a BLOB.
        try store.execute(
            """
            INSERT INTO sync_applying (id) VALUES (1);
            UPDATE categories SET emoji = CAST(emoji AS BLOB) WHERE name = 'Food';
            UPDATE categories SET colorHex = CAST('#000000' AS BLOB) WHERE name = 'Pets';
            DELETE FROM sync_applying;
            """)
        #expect(try store.text("SELECT group_concat(typeof(emoji) || typeof(colorHex)) FROM categories") == "blobtext,textblob")
        try expectCounts([.categories: 1])
    }

    @Test func baseEntryWithAnExtraFieldDiffersFromItsRow() throws {
        try synced([.categories: [Samples.record(.categories)]])
        try store.execute(
            "UPDATE sync_base SET fields = json_set(fields, '$.extra', 'x') WHERE tab = 'Categories'")
        try expectCounts([.categories: 1])
    }

    @Test func keysDifferingOnlyInUnicodeFormMatchAsTheEngineMatchesThem() throws {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        try synced([.categories: [Samples.record(.categories, [.name: composed])]])
        try store.execute("UPDATE sync_base SET key = ?, fields = json_set(fields, '$.name', ?)", [decomposed, decomposed])
        try expectCounts([:])
    }

    /// Transactions and Receipts are counted through the keys the triggers marked: after any mix of
    /// edits by other clients (updates, deletes, inserts, new keys, edits undone, rows deleted and
    /// put back) the count is still what comparing every row gives.
    @Test(arguments: [1, 2, 3, 4])
    func markedKeysCountAsEveryRowComparedAfterRandomEdits(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let ids = (0..<60).map { String(format: "%08x-3333-4444-8555-%012x", $0, $0) }
        try synced([
            .transactions: ids.map { Samples.record(.transactions, [.transactionId: $0, .note: "n\($0)"]) },
            .receipts: ids.prefix(20).map {
                Samples.record(.receipts, [.receiptId: $0, .transactionId: $0, .fileName: "r\($0).jpg"])
            },
        ])
        try expectCounts([:])
        for step in 0..<80 {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            switch random.next() % 7 {
            case 0: try store.execute("UPDATE transactions SET note = ? WHERE transactionId = ?", ["edit \(step)", id])
            case 1: try store.execute("UPDATE transactions SET note = ? WHERE transactionId = ?", ["n\(id)", id])
            case 2: try store.execute("DELETE FROM transactions WHERE transactionId = ?", [id])
            case 3:
                try store.upsert(Samples.record(.transactions, [.transactionId: id, .note: "n\(id)"]), in: .transactions)
            case 4:
                let fresh = String(format: "%08x-aaaa-4444-8555-%012x", step, step)
                try store.execute("UPDATE transactions SET transactionId = ? WHERE transactionId = ?", [fresh, id])
            case 5: try store.execute("UPDATE receipts SET fileName = ? WHERE receiptId = ?", ["x\(step).jpg", id])
            default: try store.execute("DELETE FROM receipts WHERE receiptId = ?", [id])
            }
            #expect(try store.pendingLocalChanges() == (try snapshotCount()), "seed \(seed) step \(step)")
        }
    }

    /// What the count of a marked tab reads: only rows under marked keys. A row changed without a
    /// mark (only the engine writes so, and then it also writes the base) is not read at all.
    @Test func aMarkedTabReadsOnlyTheMarkedRows() throws {
        let other = "22222222-3333-4444-8555-666666666666"
        try synced([.transactions: [Samples.record(.transactions), Samples.record(.transactions, [.transactionId: other])]])
        try store.execute(
            """
            INSERT INTO sync_applying (id) VALUES (1);
            UPDATE transactions SET note = 'quiet' WHERE transactionId = '\(other)';
            DELETE FROM sync_applying;
            """)
        #expect(try store.pendingLocalChanges()[.transactions] == 0)
        try store.execute("UPDATE transactions SET note = 'typed by hand' WHERE transactionId = ?", [Samples.transactionId])
        #expect(try store.pendingLocalChanges()[.transactions] == 1)
        #expect(try unsettled(.transactions) == 1)
    }

    @Test func unreadableBaseEntryOfADeletedRowIsAnErrorAsBefore() throws {
        try synced([.categories: [Samples.record(.categories)]])
        try store.execute("DELETE FROM categories")
        try store.execute("UPDATE sync_base SET fields = '[1]'")
        #expect(throws: StoreError.self) { try store.pendingLocalChanges() }
        #expect(throws: StoreError.self) { try store.snapshot() }
    }
}
