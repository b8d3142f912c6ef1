import Foundation
import GRDB
import SheetSyncCore
import SheetValues
import Testing

/// A delete, once both sides agree on it, must leave nothing behind that keeps later quiet
/// runs off the fast path (a tombstone the reconciler never clears would cost a full read forever).
@Suite struct QuietRunAfterDeleteTests {
    static let lunch = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"

    func tombstoneCount(_ ledger: Ledger) throws -> Int {
        let db = try DatabaseQueue(path: ledger.store.path, configuration: readOnly)
        defer { try? db.close() }
        return try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_tombstones") ?? -1 }
    }

    func changeCounter(_ ledger: Ledger) throws -> Int64 {
        let db = try DatabaseQueue(path: ledger.store.path, configuration: readOnly)
        defer { try? db.close() }
        return try db.read { try Int64.fetchOne($0, sql: "SELECT value FROM sync_change_counter") ?? -1 }
    }

    var readOnly: Configuration {
        var config = Configuration()
        config.readonly = true
        return config
    }

    /// The second sync after the delete: up to date (the glance), both sides byte-for-byte as they were.
    func expectQuietSecondSync(_ ledger: Ledger) async throws {
        let sheetBefore = try ledger.workbook.allBytes()
        let rowsBefore = try Tab.allCases.map { try ledger.storeRows($0) }
        let counterBefore = try changeCounter(ledger)
        let quiet = try await ledger.run("sync", "--json")
        #expect(quiet.status == 0, "\(quiet.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(quiet.stdout.utf8)) as? [String: Any])
        #expect(json["upToDate"] as? Bool == true, "\(quiet.stdout)")
        #expect(try ledger.workbook.allBytes() == sheetBefore)
        #expect(try Tab.allCases.map { try ledger.storeRows($0) } == rowsBefore)
        #expect(try changeCounter(ledger) == counterBefore)
        #expect(try tombstoneCount(ledger) == 0)
    }

    @Test func storeDeleteIsPushedThenTheNextSyncIsUpToDateWithNoTombstoneLeft() async throws {
        let ledger = try await Ledger.synced()
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write { try $0.execute(sql: "DELETE FROM transactions WHERE transactionId = ?", arguments: [Self.lunch]) }
        try db.close()
        #expect(try tombstoneCount(ledger) == 1)

        let push = try await ledger.run("sync")
        #expect(push.status == 0, "\(push.stderr)")
        #expect(try ledger.sheetRows(.transactions)[Self.lunch] == nil)
        #expect(try ledger.sheetRows(.transactions).count == 9)
        #expect(try ledger.storeRows(.transactions)[Self.lunch] == nil)
        #expect(try ledger.storeRows(.transactions).count == 9)
        #expect(try tombstoneCount(ledger) == 0)

        try await expectQuietSecondSync(ledger)
    }

    @Test func sheetDeleteIsPulledThenTheNextSyncIsUpToDateWithNoTombstoneLeft() async throws {
        let ledger = try await Ledger.synced()
        let id = try await ledger.run("add", "expense", "--amount", "1.00", "--category", "Dining").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.transactions)[id] != nil)
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0.first?.rawText == id } }
        // The newest row, deleted: written back once (an older copy's save looks the same), then deleted.
        #expect(try await ledger.run("sync").status == 65)
        try ledger.workbook.edit(.transactions) { table in table.rows.removeAll { $0.first?.rawText == id } }

        let pull = try await ledger.run("sync")
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try ledger.storeRows(.transactions)[id] == nil)
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(try ledger.sheetRows(.transactions)[id] == nil)
        #expect(try ledger.sheetRows(.transactions).count == 10)
        #expect(try tombstoneCount(ledger) == 0)

        try await expectQuietSecondSync(ledger)
    }
}
