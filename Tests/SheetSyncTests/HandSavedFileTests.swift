import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// What spreadsheet programs and people do to a synced CSV file that the engine must not take for
/// something else: times saved more coarsely, an emptied `createdAt`, a file cut off mid-row, a row
/// short of cells. The store's and the workbook's contents before and after, through the binary.
@Suite struct HandSavedFileTests {
    static let groceries = DataSafetyTests.groceries

    /// The groceries row with times that carry milliseconds, as sheetsync stamps them, synced to both sides.
    static func ledgerWithMillisecondTimes() async throws -> Ledger {
        let ledger = try await Ledger.synced()
        let db = try DatabaseQueue(path: ledger.store.path)
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE transactions SET createdAt = '2026-01-02T10:20:30.943Z', lastModifiedAt = '2026-01-05T08:09:10.321Z'
                    WHERE transactionId = ?
                    """, arguments: [groceries])
        }
        try db.close()
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.sheetRows(.transactions)[groceries]?[.createdAt] == "2026-01-02T10:20:30.943Z")
        return ledger
    }

    static func conflictCount(_ ledger: Ledger) throws -> Int {
        let db = try DatabaseQueue(path: ledger.store.path)
        defer { try? db.close() }
        return try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_conflicts") ?? -1 }
    }

    @Test func handEditSavedWithTimesToTheSecondIsKept() async throws {
        let ledger = try await Self.ledgerWithMillisecondTimes()
        let created = ledger.workbook.column("createdAt", in: try ledger.workbook.table(.transactions))!
        try ledger.workbook.edit(.transactions) { table in
            // What a spreadsheet that keeps times to the second saves: every row's times, and one edit.
            for i in table.rows.indices {
                for column in [created, created + 1] {
                    let text = table.rows[i][column].rawText
                    table.rows[i][column] = .text(String(text.prefix(19)).replacingOccurrences(of: "T", with: " "))
                }
                if table.rows[i][0].rawText == Self.groceries { table.rows[i][8] = .text("Market, edited") }
            }
        }
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        let stored = try ledger.storeRows(.transactions)[Self.groceries]
        #expect(stored?[.note] == "Market, edited")
        #expect(stored?[.createdAt] == "2026-01-02T10:20:30.943Z", "no millisecond lost in the store")
        #expect((stored?[.lastModifiedAt] ?? "") > "2026-01-05T08:09:10.321Z", "a hand edit, stamped when seen")
        #expect(try Self.conflictCount(ledger) == 0)
        // The sheet: the edit stays, the new stamp is written, the other times stay as the user's program wrote them.
        let table = try ledger.workbook.table(.transactions)
        let row = table.rows.first { $0[0].rawText == Self.groceries }
        #expect(row?[8].rawText == "Market, edited")
        #expect(row?[created].rawText == "2026-01-02 10:20:30")
        #expect(row?[created + 1].rawText == stored?[.lastModifiedAt])
        #expect(try ledger.storeRows(.transactions).count == 10)
        // And the next run changes nothing.
        let before = try ledger.workbook.allBytes()
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.workbook.allBytes() == before)
    }

    @Test func emptiedCreatedAtOfASyncedRowGetsItsOwnTimeBack() async throws {
        let ledger = try await Self.ledgerWithMillisecondTimes()
        let created = ledger.workbook.column("createdAt", in: try ledger.workbook.table(.transactions))!
        try ledger.workbook.edit(.transactions) { table in
            for i in table.rows.indices where table.rows[i][0].rawText == Self.groceries { table.rows[i][created] = .empty }
        }
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions)[Self.groceries]?[.createdAt] == "2026-01-02T10:20:30.943Z")
        #expect(try ledger.sheetRows(.transactions)[Self.groceries]?[.createdAt] == "2026-01-02T10:20:30.943Z")
        #expect(try ledger.storeRows(.transactions)[Self.groceries]?[.lastModifiedAt] == "2026-01-05T08:09:10.321Z")
    }

    /// Transactions.csv as a save or copy that stopped part-way leaves it: up to the end of `text`, no line end after.
    static func cut(_ ledger: Ledger, after text: String) throws -> Data {
        let url = ledger.workbook.url(.transactions)
        let data = try Data(contentsOf: url)
        let end = try #require(data.range(of: Data(text.utf8)))
        let cut = data.prefix(upTo: end.upperBound)
        try cut.write(to: url)
        return cut
    }

    /// Cut in the middle of sheet row 7 (its note; the row lacks its last cells) or inside the last cell
    /// of row 8: the rows after the cut are missing. Nothing is deleted or blanked, the file is not
    /// written, and both `check` and `sync` say where.
    @Test(arguments: [("Book for ", 7), ("Coffee,paid,,,2026-01-01T09:0", 8)])
    func fileCutOffMidRowDeletesNothingAndSaysWhere(_ cutAfter: String, row: Int) async throws {
        let ledger = try await Ledger.synced()
        let storeBefore = try ledger.storeRows(.transactions)
        let cut = try Self.cut(ledger, after: cutAfter)
        for command in ["check", "sync"] {
            let run = try await ledger.run(command, "--json")
            #expect(run.status == 65, "\(command): \(run.stderr)")
            #expect(
                run.report?.rejected.contains { $0.code == .damagedRow && $0.tab == .transactions && $0.row == row } == true,
                "\(command): \(run.stdout)")
        }
        #expect(try ledger.storeRows(.transactions) == storeBefore)
        #expect(try Data(contentsOf: ledger.workbook.url(.transactions)) == cut)
        #expect(try ledger.storeRows(.transactions).count == 10)
    }

    /// A file saved without a line end after its last row is no cut when that row is whole.
    @Test func completeFileWithoutAFinalLineEndSyncsAsUsual() async throws {
        let ledger = try await Ledger.synced()
        let url = ledger.workbook.url(.transactions)
        var text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        text.removeLast()
        text = text.replacingOccurrences(of: ",Paycheck,", with: ",Paycheck (Nov),")
        try Data(text.utf8).write(to: url)
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions)["4c3d50bf-12db-5603-981a-c55f21c77bb3"]?[.note] == "Paycheck (Nov)")
        #expect(try ledger.storeRows(.transactions).count == 10)
    }

    /// A copy-pasted row gets a new id, written back, and the run says so (reported)
    /// unless `--quiet` asks for silence.
    @Test func copiedRowGetsANewIdAndTheRunSaysSo() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.transactions) { table in table.rows.append(table.rows[0]) }
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let said = run.issues.filter { $0.code == .duplicateId && $0.severity == .notice && $0.place.row == 12 }
        #expect(said.count == 1 && said[0].place.key == Self.groceries && said[0].message.contains("the copy now has id"), "\(run.stdout)")

        #expect(try ledger.storeRows(.transactions).count == 11)
        #expect(try ledger.sheetRows(.transactions).count == 11)
        try ledger.workbook.edit(.transactions) { table in table.rows.append(table.rows[0]) }
        let quiet = try await ledger.run("sync", "--quiet")
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)")
        #expect(try ledger.storeRows(.transactions).count == 12)
    }
}
