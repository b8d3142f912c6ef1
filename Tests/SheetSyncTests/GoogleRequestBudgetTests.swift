import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetsEmulator
import Testing

/// What a push costs in requests and bytes: fixed in requests, proportional to the changed rows in bytes.
@Suite struct GoogleRequestBudgetTests {
    static let sheetsReads = ["sheets.spreadsheets.values.batchGet", "sheets.spreadsheets.values.get", "sheets.spreadsheets.get"]
    static let writes = [
        "sheets.spreadsheets.batchUpdate", "sheets.spreadsheets.values.update", "sheets.spreadsheets.values.batchUpdate",
        "sheets.spreadsheets.values.append", "sheets.spreadsheets.values.clear", "drive.files.create", "drive.files.update",
    ]

    struct Push {
        var sheetsReads: Int
        var writes: Int
        var batchUpdateBytes: Int
        /// What the reads after the write (the check that every write landed on its row) received.
        var readBackBytes: Int
        var log: [String]
    }

    /// Seeds `rows` rows, pulls them, changes the notes of `changed` of them with SQL, then measures the sync.
    static func push(rows: Int, changed: Int) async throws -> Push {
        let bed = try await GoogleTestBed.start("g-budget")
        let keys = try GoogleSeed.ledger(in: bed, transactions: rows, ids: SeededIDs(seed: UInt64(rows)))
        #expect(try await bed.cli("sync").status == 0)
        for key in keys.prefix(changed) {
            try GoogleSeed.sql(bed, "UPDATE transactions SET note = ? WHERE transactionId = ?", ["changed " + key.prefix(8), key])
        }
        bed.emulator.resetCounters()
        let run = try await bed.cli("sync")
        #expect(run.status == 0, "\(run.stderr)")
        let sheet = try bed.sheetRecords(.transactions)
        for key in keys.prefix(changed) { #expect(sheet[key]?[.note] == "changed " + key.prefix(8)) }
        #expect(try bed.storeRecords(.transactions) == sheet)
        let counters = bed.emulator.counters
        let log = bed.emulator.requestLog
        let push = Push(
            sheetsReads: sheetsReads.map(counters.requests).reduce(0, +), writes: writes.map(counters.requests).reduce(0, +),
            batchUpdateBytes: log.filter { $0.endpoint == "sheets.spreadsheets.batchUpdate" }.map(\.body.count).reduce(0, +),
            readBackBytes: log.drop { $0.endpoint != "sheets.spreadsheets.batchUpdate" }.filter { sheetsReads.contains($0.endpoint ?? "") }
                .map(\.responseBytes).reduce(0, +),
            log: log.map { "\($0.method) \($0.endpoint ?? $0.path)" })
        await bed.finish()
        return push
    }

    /// The reads: the tabs, their key columns just before the write, and the changed tabs after it
    /// (the check that every write landed on its row).
    @Test(arguments: [1, 50])
    func changedRowsCostAtMostThreeSheetsReadsAndTwoWrites(changed: Int) async throws {
        let push = try await Self.push(rows: 60, changed: changed)
        #expect(push.sheetsReads <= 3, "\(push.log)")
        #expect(push.writes >= 1 && push.writes <= 2, "\(push.log)")
    }

    @Test func theWritePayloadGrowsWithTheChangedRowsNotWithTheSheet() async throws {
        let small1 = try await Self.push(rows: 50, changed: 1), small50 = try await Self.push(rows: 50, changed: 50)
        let large1 = try await Self.push(rows: 2000, changed: 1), large50 = try await Self.push(rows: 2000, changed: 50)
        // Each changed row's cells are sent (a row of this ledger's cells is a few hundred bytes).
        #expect(small50.batchUpdateBytes - small1.batchUpdateBytes >= 49 * 200, "\(small1.batchUpdateBytes) → \(small50.batchUpdateBytes)")
        // Row numbers get a digit or two longer in the larger sheet; nothing else may grow.
        #expect(large1.batchUpdateBytes <= small1.batchUpdateBytes + 16)
        #expect(large50.batchUpdateBytes <= small50.batchUpdateBytes + 50 * 2 * 4)
        #expect(large50.sheetsReads <= 3 && large50.writes <= 2)
    }

    /// A push of edited rows reads back only the rows it wrote: a guard against other writers must
    /// not make a single writer's small push cost a read of the whole sheet.
    @Test func theReadBackAfterAWriteGrowsWithTheChangedRowsNotWithTheSheet() async throws {
        let small = try await Self.push(rows: 50, changed: 3), large = try await Self.push(rows: 2000, changed: 3)
        #expect(small.readBackBytes > 0, "\(small.log)")
        #expect(large.readBackBytes <= small.readBackBytes + 64, "\(small.readBackBytes) → \(large.readBackBytes)")
    }
}
