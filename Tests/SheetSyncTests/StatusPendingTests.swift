import Foundation
import GRDB
import Testing

/// `status` counts pending local changes in SQL on the store file itself: the counts are
/// the ones a full comparison gives, and the store is still never written.
@Suite struct StatusPendingTests {
    static let lunch = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"

    @Test func pendingChangesAreCountedPerTabAndNothingIsWritten() async throws {
        let ledger = try await Ledger.synced()
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write { db in
            try db.execute(sql: "UPDATE transactions SET note = 'typed in the shell' WHERE transactionId = ?", arguments: [Self.lunch])
            try db.execute(
                sql: "DELETE FROM transactions WHERE transactionId <> ? AND rowid = (SELECT max(rowid) FROM transactions)",
                arguments: [Self.lunch])
            try db.execute(sql: "UPDATE app_settings SET timezone = 'Europe/Paris'")
        }
        try db.close()
        let before = try ledger.everyByte()

        let json = try #require(try await ledger.run("status", "--json").json)
        let pending = try #require(json["pendingLocalChanges"] as? [String: Int])
        #expect(pending == ["Transactions": 2, "Receipts": 0, "Categories": 0, "RecurringRules": 0, "Settings": 1])
        let text = try await ledger.run("status")
        #expect(text.stdout.contains("pending local changes: Transactions 2, Settings 1"), "\(text.stdout)")
        #expect(try ledger.everyByte() == before)

        // Once synced, nothing is pending.
        #expect(try await ledger.run("sync").status == 0)
        let after = try #require(try await ledger.run("status", "--json").json)
        #expect((after["pendingLocalChanges"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
    }

    @Test func statusWithoutAStoreShowsNothingPendingAndCreatesNone() async throws {
        let ledger = try Ledger.unsynced()
        let json = try #require(try await ledger.run("status", "--json").json)
        #expect((json["pendingLocalChanges"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
        #expect(!FileManager.default.fileExists(atPath: ledger.store.path))
    }
}
