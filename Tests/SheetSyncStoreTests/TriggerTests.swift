import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// Writes from any SQLite client keep `year`/`month`, `lastModifiedAt`, keys, tombstones and the
/// change counter right.
@Suite struct TriggerTests {
    let store: LedgerStore
    let key = Samples.transactionId

    init() throws {
        store = try LedgerStore.inMemory()
        try store.upsert(Samples.record(.transactions), in: .transactions)
    }

    func transaction() throws -> LedgerRow {
        try #require(store.records(in: .transactions).first)
    }

    @Test func rawDateUpdateCorrectsYearAndMonth() throws {
        try store.execute("UPDATE transactions SET date = '2025-11-30' WHERE transactionId = ?", [key])
        let row = try transaction()
        #expect(row[.year] == "2025")
        #expect(row[.month] == "11")
    }

    @Test func rawInsertWithoutYearAndMonthDerivesThem() throws {
        try store.execute(
            """
            INSERT INTO transactions (transactionId, type, date, amount, category)
            VALUES ('11111111-2222-4333-8444-555555555555', 'income', '2024-02-29', '3.00', 'Gift')
            """)
        let row = try #require(store.records(in: .transactions).last)
        #expect(row[.year] == "2024")
        #expect(row[.month] == "2")
    }

    @Test func rawUpdateLeavingLastModifiedAtAloneBumpsIt() throws {
        try store.execute("UPDATE transactions SET note = 'edited in sqlite3'")
        let stamp = try transaction()[.lastModifiedAt]
        #expect(stamp != Samples.modified)
        #expect(Timestamp(iso: stamp)?.description == stamp, "one canonical format: \(stamp)")
    }

    @Test func rawUpdateSettingLastModifiedAtKeepsIt() throws {
        try store.execute("UPDATE transactions SET note = 'x', lastModifiedAt = '2030-01-01T00:00:00.000Z'")
        #expect(try transaction()[.lastModifiedAt] == "2030-01-01T00:00:00.000Z")
    }

    @Test func rawUpdateChangingNothingDoesNotBump() throws {
        try store.execute("UPDATE transactions SET note = note")
        #expect(try transaction()[.lastModifiedAt] == Samples.modified)
    }

    @Test func engineCommitDoesNotBumpLastModifiedAt() throws {
        let current = try transaction()
        var edited = current
        edited[.note] = "pulled from the sheet"
        try store.commit(StoreCommit(upserts: [.transactions: [RowWrite(record: edited, expected: current)]]))
        #expect(try transaction() == edited)
        // The flag is gone after the commit: ordinary writes are stamped again.
        try store.execute("UPDATE transactions SET note = 'later'")
        #expect(try transaction()[.lastModifiedAt] != Samples.modified)
    }

    @Test func rawDeleteLeavesTombstoneAndEngineDeleteDoesNot() throws {
        try store.execute("DELETE FROM transactions")
        #expect(try store.tombstoneKeys(.transactions) == [key])
        #expect(try store.snapshot().tombstones[.transactions]?[key] != nil)

        let other = try LedgerStore.inMemory()
        let row = try other.upsert(Samples.record(.transactions), in: .transactions)
        try other.commit(StoreCommit(deletes: [.transactions: [RowDelete(key: key, expected: row)]]))
        #expect(try other.records(in: .transactions).isEmpty)
        #expect(try other.tombstoneKeys(.transactions).isEmpty)
    }

    @Test func reinsertingADeletedKeyRemovesItsTombstone() throws {
        try store.delete(key: key, in: .transactions)
        #expect(try store.tombstoneKeys(.transactions) == [key])
        try store.upsert(Samples.record(.transactions), in: .transactions)
        #expect(try store.tombstoneKeys(.transactions).isEmpty)
    }

    @Test func renamingAKeyTombstonesTheOldOne() throws {
        try store.upsert(Samples.record(.categories), in: .categories)
        try store.execute("UPDATE categories SET name = 'Meals' WHERE name = 'Food'")
        #expect(try store.tombstoneKeys(.categories) == ["Food"])
        #expect(try store.records(in: .categories).map { $0[.name] } == ["Meals"])
    }

    @Test func nullKeyGetsANewLowercaseUUID() throws {
        try store.execute(
            """
            INSERT INTO receipts (receiptId, transactionId, driveFileId, fileName)
            VALUES (NULL, ?, 'drive1', 'a.jpg'), (NULL, ?, 'drive2', 'b.jpg')
            """, [key, key])
        let keys = try store.records(in: .receipts).map { $0[.receiptId] }
        #expect(keys.count == 2)
        #expect(Set(keys).count == 2)
        for id in keys {
            #expect(id.count == 36 && id == id.lowercased(), "key \(id)")
            #expect(Array(id)[14] == "4", "version 4: \(id)")
            #expect("89ab".contains(Array(id)[19]), "variant: \(id)")
        }
    }

    @Test func uppercaseUUIDsAreLowercased() throws {
        try store.execute(
            """
            INSERT INTO receipts (receiptId, transactionId, driveFileId, fileName)
            VALUES ('AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE', ?, 'd', 'f.jpg')
            """, [key.uppercased()])
        let row = try #require(store.records(in: .receipts).first)
        #expect(row[.receiptId] == "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee")
        #expect(row[.transactionId] == key)
    }

    @Test func emptyTimestampsOnInsertBecomeNow() throws {
        try store.execute(
            """
            INSERT INTO categories (name, type, isActive, createdAt, lastModifiedAt)
            VALUES ('Rent', 'expense', 1, '', NULL)
            """)
        let row = try #require(store.records(in: .categories).first)
        #expect(Timestamp(iso: row[.createdAt])?.description == row[.createdAt])
        #expect(row[.lastModifiedAt] == row[.createdAt])
    }

    @Test func changeCounterMovesOnRawWritesButNotOnEngineCommits() throws {
        var last = try store.changeCounter()
        for sql in [
            "UPDATE transactions SET note = 'a'", "DELETE FROM transactions",
            "INSERT INTO categories (name, type, isActive) VALUES ('Misc', 'both', 0)",
        ] {
            try store.execute(sql)
            let now = try store.changeCounter()
            #expect(now > last, "after \(sql)")
            last = now
        }
        let outcome = try store.commit(
            StoreCommit(
                upserts: [.transactions: [RowWrite(record: Samples.record(.transactions), expected: nil)]]))
        #expect(try store.changeCounter() == last)
        #expect(outcome.changeCounter == last)
    }
}
