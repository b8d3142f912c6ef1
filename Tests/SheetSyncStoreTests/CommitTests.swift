import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// The engine's commit: conditional on what it read, all-or-nothing, bookkeeping included.
@Suite struct CommitTests {
    let store: LedgerStore
    let key = Samples.transactionId
    let otherKey = "22222222-3333-4444-8555-666666666666"

    init() throws {
        store = try LedgerStore.inMemory()
        try store.upsert(Samples.record(.transactions), in: .transactions)
        try store.upsert(Samples.record(.transactions, [.transactionId: otherKey]), in: .transactions)
    }

    @Test func rowChangedSinceReadIsSkippedWithItsBase() throws {
        let read = try store.snapshot()
        let first = try #require(read.rows[.transactions]?[key])
        let second = try #require(read.rows[.transactions]?[otherKey])
        // Another client edits the first row while the engine works.
        try store.execute("UPDATE transactions SET note = 'typed meanwhile' WHERE transactionId = ?", [key])

        var newFirst = first
        newFirst[.note] = "from sheet"
        var newSecond = second
        newSecond[.note] = "from sheet too"
        let outcome = try store.commit(
            StoreCommit(
                upserts: [
                    .transactions: [
                        RowWrite(record: newFirst, expected: first),
                        RowWrite(record: newSecond, expected: second),
                    ]
                ],
                baseUpserts: [.transactions: [newFirst, newSecond]]))

        #expect(outcome.skipped == [.transactions: [key]])
        let after = try store.snapshot()
        #expect(after.rows[.transactions]?[key]?[.note] == "typed meanwhile")
        #expect(after.rows[.transactions]?[otherKey] == newSecond)
        #expect(after.base[.transactions]?[key] == nil)
        #expect(after.base[.transactions]?[otherKey] == newSecond)
    }

    @Test func insertExpectingNoRowIsSkippedWhenOneAppeared() throws {
        let record = Samples.record(.transactions)
        let outcome = try store.commit(
            StoreCommit(
                upserts: [.transactions: [RowWrite(record: record, expected: nil)]],
                clearTombstones: [.transactions: [key]]))
        #expect(outcome.skipped == [.transactions: [key]])
        #expect(outcome.skippedCount == 1)
    }

    @Test func deleteOfAChangedRowIsSkipped() throws {
        let read = try #require(store.snapshot().rows[.transactions]?[key])
        try store.execute("UPDATE transactions SET amount = '99.00' WHERE transactionId = ?", [key])
        let outcome = try store.commit(
            StoreCommit(
                deletes: [.transactions: [RowDelete(key: key, expected: read)]], baseDeletes: [.transactions: [key]]))
        #expect(outcome.skipped == [.transactions: [key]])
        #expect(try store.records(in: .transactions).count == 2)
    }

    @Test func checkViolationRollsBackTheWholeCommit() throws {
        let before = try store.snapshot()
        var good = try #require(before.rows[.transactions]?[key])
        good[.note] = "would be applied"
        let bad = Samples.record(.categories, [.type: "savings"])
        let failing = StoreCommit(
            upserts: [
                .transactions: [RowWrite(record: good, expected: before.rows[.transactions]?[key])],
                .categories: [RowWrite(record: bad, expected: nil)],
            ],
            baseUpserts: [.transactions: [good]], rejected: [],
            conflicts: [
                Conflict(
                    tab: .transactions, key: key, field: "note", losingValue: "", winningValue: "x",
                    losingModifiedAt: Samples.created, winningModifiedAt: Samples.modified, resolvedAt: Samples.modified)
            ],
            state: ["lastSyncAt": Samples.modified])

        let error = #expect(throws: StoreError.self) { try store.commit(failing) }
        guard case .rowRejected(.categories, "Food", let reason)? = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(reason == "CHECK constraint failed: type must be one of expense, income, both")
        #expect(try store.snapshot() == before)
        #expect(try store.conflicts(limit: 5).isEmpty)
        #expect(try store.int("SELECT count(*) FROM sync_applying") == 0)
    }

    @Test func bookkeepingIsWrittenAndReplaced() throws {
        try store.delete(key: otherKey, in: .transactions)
        let rejected = Rejection(
            tab: .transactions, row: 7, id: "", message: "unknown category 'groceries'",
            hint: "did you mean 'Groceries'?", rawCells: ["", "expense", "2026-01-01", "", "", "3", "groceries"],
            firstSeenAt: Samples.created)
        let conflict = Conflict(
            tab: .categories, key: "Food", field: "emoji", losingValue: "🍔",
            winningValue: "🍜", losingModifiedAt: Samples.created, winningModifiedAt: Samples.modified,
            resolvedAt: Samples.modified)
        try store.setState("obsolete", "1")
        try store.commit(
            StoreCommit(
                baseUpserts: [.transactions: [Samples.record(.transactions)]],
                clearTombstones: [.transactions: [otherKey]], rejected: [rejected], conflicts: [conflict, conflict],
                state: ["datasetId": "d3b07384-d113-4ec6-a1a6-2b5e0f0c9d11", "obsolete": nil]))

        let snapshot = try store.snapshot()
        #expect(snapshot.base[.transactions] == [key: Samples.record(.transactions)])
        #expect(snapshot.tombstones[.transactions] == [:])
        #expect(snapshot.state == ["datasetId": "d3b07384-d113-4ec6-a1a6-2b5e0f0c9d11"])
        #expect(try store.rejectedRows() == [rejected])
        #expect(try store.conflicts(limit: 10).count == 2)
        var newer = conflict
        newer.losingValue = "🌮"
        try store.commit(StoreCommit(baseDeletes: [.transactions: [key]], conflicts: [newer]))
        #expect(try store.conflicts(limit: 1).first == newer, "newest first")
        #expect(try store.rejectedRows() == [rejected], "nil leaves the log as is")
        #expect(try store.conflicts(limit: 10).count == 3, "the conflict log only grows")
        #expect(try store.snapshot().base[.transactions] == [:])

        try store.commit(StoreCommit(rejected: []))
        #expect(try store.rejectedRows().isEmpty)
    }

    @Test func baseIsStoredAsReadableJSON() throws {
        let record = Samples.record(.categories)
        try store.commit(StoreCommit(baseUpserts: [.categories: [record]]))
        let json = try #require(try store.text("SELECT fields FROM sync_base WHERE tab = 'Categories' AND key = 'Food'"))
        #expect(json.hasPrefix("{\"colorHex\":\"#FF8800\",\"createdAt\":"))
        #expect(try store.text("SELECT json_extract(fields, '$.emoji') FROM sync_base") == "🍜")
    }

    @Test func commitWithAnEmptyKeyIsRefused() throws {
        let keyless = Samples.record(.transactions, [.transactionId: ""])
        #expect(throws: StoreError.missingKey(tab: .transactions, field: "transactionId")) {
            try store.commit(StoreCommit(upserts: [.transactions: [RowWrite(record: keyless, expected: nil)]]))
        }
    }
}
