import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// Ordinary local writes (`add`, `materialize`, a category rename) behave like any SQLite client's.
@Suite struct LocalWriterTests {
    @Test func upsertWithoutKeyAssignsALowercaseUUID() throws {
        let store = try LedgerStore.inMemory()
        let stored = try store.upsert(Samples.record(.transactions, [.transactionId: ""]), in: .transactions)
        let key = stored[.transactionId]
        #expect(key.count == 36 && key == key.lowercased())
        #expect(try store.records(in: .transactions) == [stored])
    }

    @Test func categoryWithoutNameIsRefused() throws {
        let store = try LedgerStore.inMemory()
        #expect(throws: StoreError.missingKey(tab: .categories, field: "name")) {
            try store.upsert(Samples.record(.categories, [.name: ""]), in: .categories)
        }
    }

    @Test func upsertOfAnEditWithEmptyStampsKeepsCreatedAtAndBumpsLastModifiedAt() throws {
        let store = try LedgerStore.inMemory()
        try store.upsert(Samples.record(.categories), in: .categories)
        let edited = try store.upsert(
            Samples.record(.categories, [.emoji: "🥟", .createdAt: "", .lastModifiedAt: ""]), in: .categories)
        #expect(edited[.createdAt] == Samples.created)
        #expect(edited[.lastModifiedAt] != Samples.modified)
        #expect(!edited[.lastModifiedAt].isEmpty)
    }

    @Test func newRowWithEmptyStampsIsStampedNow() throws {
        let store = try LedgerStore.inMemory()
        let stored = try store.upsert(
            Samples.record(.categories, [.createdAt: "", .lastModifiedAt: ""]), in: .categories)
        #expect(Timestamp(iso: stored[.createdAt])?.description == stored[.createdAt])
        #expect(stored[.lastModifiedAt] == stored[.createdAt])
    }

    @Test func severalWritesAreAllOrNothing() throws {
        let store = try LedgerStore.inMemory()
        #expect(throws: StoreError.self) {
            try store.write { writer in
                try writer.upsert(Samples.record(.categories), in: .categories)
                try writer.upsert(Samples.record(.categories, [.name: "Bad", .type: "savings"]), in: .categories)
            }
        }
        #expect(try store.records(in: .categories).isEmpty)
        #expect(try store.changeCounter() == 0)
    }

    @Test func renameInOneTransactionTombstonesTheOldName() throws {
        let store = try LedgerStore.inMemory()
        try store.upsert(Samples.record(.categories), in: .categories)
        try store.upsert(Samples.record(.transactions), in: .transactions)
        try store.write { writer in
            let old = try #require(try writer.record(key: "Food", in: .categories))
            var renamed = old
            renamed[.name] = "Meals"
            try writer.upsert(renamed, in: .categories)
            try writer.delete(key: "Food", in: .categories)
            for var row in try writer.records(in: .transactions) where row[.category] == "Food" {
                row[.category] = "Meals"
                try writer.upsert(row, in: .transactions)
            }
        }
        #expect(try store.records(in: .categories).map { $0[.name] } == ["Meals"])
        #expect(try store.records(in: .transactions).map { $0[.category] } == ["Meals"])
        #expect(try store.snapshot().tombstones[.categories]?.keys.sorted() == ["Food"])
    }

    @Test func deleteReportsWhetherARowExisted() throws {
        let store = try LedgerStore.inMemory()
        try store.upsert(Samples.record(.receipts), in: .receipts)
        let key = Samples.record(.receipts)[.receiptId]
        #expect(try store.delete(key: key.uppercased(), in: .receipts))
        #expect(try !store.delete(key: key, in: .receipts))
    }
}
