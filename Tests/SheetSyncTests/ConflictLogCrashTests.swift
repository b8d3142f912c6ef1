import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing
import Workbook

/// A run stopped after it replaced a tab file and before its store commit: the next run finds both
/// sides agreeing, so a conflict's losing value must already be in the log (it was lost).
@Suite struct ConflictLogCrashTests {
    @Test func aConflictIsLoggedEvenWhenTheRunStopsBeforeItsStoreCommit() async throws {
        let ledger = try await Ledger.synced()
        let id = try #require(try ledger.storeRows(.transactions).keys.sorted().first)
        let base = try #require(try ledger.storeRows(.transactions)[id])
        // The sheet's edit is a second after the synced version; the store's (stamped by the triggers) is now.
        let later = try #require(Timestamp(iso: base[.lastModifiedAt])).adding(milliseconds: 1000).description
        try ledger.workbook.edit(.transactions) { table in
            let note = table.header.firstIndex(of: "note")!, modified = table.header.firstIndex(of: "lastModifiedAt")!
            let row = table.rows.firstIndex { $0.first?.rawText == id }!
            table.rows[row][note] = .text("the sheet's note")
            table.rows[row][modified] = .text(later)
        }
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write {
            try $0.execute(sql: "UPDATE transactions SET note = 'the store''s note' WHERE transactionId = ?", arguments: [id])
        }
        try db.close()

        // The run dies right after the new Transactions.csv is in place (as kill -9 there would).
        do {
            let store = try LedgerStore(path: ledger.store.path)
            let remote = CSVWorkbookRemote(folder: ledger.book, faults: .crash(at: .directorySynced))
            _ = try await SyncEngine(store: store, remote: remote).run(SyncOptions(mode: .sync))
            Issue.record("the run was to stop at the injected crash")
        } catch is SimulatedCrash {}
        #expect(try ledger.sheetRows(.transactions)[id]?[.note] == "the store's note", "the winner is in the workbook")

        #expect(try await ledger.run("sync").status == 0)
        let status = try await ledger.run("status", "--json")
        #expect(status.stdout.contains("the sheet's note"), "the losing value is in the conflict log: \(status.stdout)")
    }
}
