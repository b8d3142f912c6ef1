import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// What every run reads and writes goes through the connection's statement cache, compiled once per
/// connection (see BookkeepingRecords.swift): a statement compiled before the schema
/// changed, or one whose run failed, must still do what the store's SQL says now.
@Suite struct StatementCacheTests {
    static func key(_ n: Int) -> String { "6f1c2b0e-8a4d-4c3e-9f00-00000000000\(n)" }

    /// Commits a new transaction with key `key(n)`, as a sync's store side does.
    static func insert(_ n: Int, into store: LedgerStore) throws {
        let row = Samples.record(.transactions, [.transactionId: key(n)])
        try store.commit(StoreCommit(upserts: [.transactions: [RowWrite(record: row, expected: nil)]], baseUpserts: [.transactions: [row]]))
    }

    @Test func aTriggerAnotherClientAddsRunsOnTheStoresNextCommit() throws {
        let folder = try TemporaryDirectory()
        let store = try LedgerStore(path: folder.path("store.sqlite"))
        try Self.insert(1, into: store)
        try Self.insert(2, into: store)
        // The sqlite3 shell, say, on the same file while the store stays open.
        let other = try DatabaseQueue(path: folder.path("store.sqlite"))
        try other.write {
            try $0.execute(
                sql: """
                    CREATE TRIGGER someone_elses AFTER INSERT ON transactions
                    BEGIN INSERT INTO sync_state (key, value) VALUES ('seen ' || NEW.transactionId, 'x'); END
                    """)
        }
        try other.close()
        try Self.insert(3, into: store)
        #expect(try store.state("seen \(Self.key(3))") == "x")
        #expect(try store.state("seen \(Self.key(2))") == nil)
        #expect(try store.records(in: .transactions).map { $0[.transactionId] } == [1, 2, 3].map(Self.key))
        #expect(try store.writer.read { try !DataTable.hasOnlyOwnTriggers($0) })
    }

    /// A local write leaves its cached insert as it ran it; the commit's insert of the same SQL runs next.
    @Test func aCommitAfterALocalInsertWritesItsRows() throws {
        let store = try LedgerStore.inMemory()
        try store.execute("CREATE TRIGGER someone_elses AFTER INSERT ON sync_state BEGIN SELECT 1; END")
        try store.upsert(Samples.record(.transactions, [.transactionId: Self.key(1)]), in: .transactions)
        try Self.insert(2, into: store)
        #expect(try store.records(in: .transactions).map { $0[.transactionId] } == [1, 2].map(Self.key))
    }

    @Test func aCommitAfterARefusedOneWritesItsRows() throws {
        let store = try LedgerStore.inMemory()
        try Self.insert(1, into: store)
        let bad = Samples.record(.transactions, [.transactionId: Self.key(2), .type: "savings"])
        #expect(throws: StoreError.self) {
            try store.commit(
                StoreCommit(upserts: [.transactions: [RowWrite(record: bad, expected: nil)]], baseUpserts: [.transactions: [bad]]))
        }
        try Self.insert(3, into: store)
        #expect(try store.records(in: .transactions).map { $0[.transactionId] } == [1, 3].map(Self.key))
        #expect(try store.snapshot().base[.transactions]?.keys.sorted() == [1, 3].map(Self.key))
    }
}
