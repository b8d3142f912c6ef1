import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import Testing
import Workbook

/// The several-writers rules on an `.xlsx` workbook: two machines' stores, each with its own clock, on
/// one file (each machine's write leaves the file with that machine's time, as a file system does).
@Suite struct SeveralWritersXLSXTests {
    struct Machine: StoreWithClock {
        let store: LedgerStore
        let clock: ManualClock
        let file: URL

        @discardableResult
        func sync() async throws -> SyncReport {
            let before = try Data(contentsOf: file)
            let report = try await SyncEngine(store: store, remote: XLSXWorkbookRemote(file: file), clock: clock, defaultTimeZone: "UTC")
                .run(SyncOptions(mode: .sync))
            if try Data(contentsOf: file) != before { try SeveralWritersTests.SharedBook.touch(file, at: clock.now()) }
            return report
        }

    }

    /// The clean sample as one `.xlsx` file, beside which the stores live.
    static func workbook() throws -> URL {
        let csv = try SeveralWritersTests.SharedBook.make()
        let book = TestWorkbook(folder: csv.book)
        let file = csv.folder.appendingPathComponent("ledger.xlsx")
        try XLSXWriter.write(try Tab.allCases.map { XLSXSheet(name: $0.rawValue, table: try book.table($0)) }, to: file)
        return file
    }

    static func machine(_ name: String, _ file: URL, clock: ManualClock) throws -> Machine {
        let path = file.deletingLastPathComponent().appendingPathComponent(name + ".sqlite").path
        return Machine(store: try LedgerStore(path: path), clock: clock, file: file)
    }

    static func sheet(_ file: URL) async throws -> [String: LedgerRow] {
        let table = try #require(try await XLSXWorkbookRemote(file: file).read().tables[.transactions])
        let (_, rows) = try TabReader.read(table, schema: Tab.transactions.schema, seenAt: Timestamp(millisecondsSinceEpoch: 0))
        var out: [String: LedgerRow] = [:]
        for row in rows {
            if case .record(let r, _) = row.outcome { out[r[.transactionId]] = r }
        }
        return out
    }

    /// As on a CSV folder: B's later note stands over the row A merged.
    @Test func aMergedRowDoesNotBeatALaterEditOnTheOtherMachine() async throws {
        let file = try Self.workbook()
        let clock = ManualClock(SeveralWritersTests.start)
        let a = try Self.machine("a", file, clock: clock), b = try Self.machine("b", file, clock: clock)
        try await a.sync()
        try await b.sync()
        let key = SeveralWritersTests.SharedBook.key
        for step in 0..<7 {
            clock.advance(milliseconds: 60_000)
            switch step {
            case 0: try a.edit(key, [.note: "a's note"])
            case 1: try b.edit(key, [.amount: "60.00"])
            case 2, 5: try await b.sync()
            case 3, 6: try await a.sync()
            default: try b.edit(key, [.note: "b's later note"])
            }
        }
        let sheet = try await Self.sheet(file)
        #expect(sheet[key]?[.note] == "b's later note")
        #expect(sheet[key]?[.amount] == "60.00")
        #expect(try a.rows() == sheet)
        #expect(try b.rows() == sheet)
    }

    /// As on a CSV folder: clocks a day apart agree within two rounds, then nothing is written.
    @Test(arguments: [Int64(86_400_000), -86_400_000])
    func clocksADayApartConvergeAndThenWriteNothing(skew: Int64) async throws {
        let file = try Self.workbook()
        let clockA = ManualClock(SeveralWritersTests.start.adding(milliseconds: skew)), clockB = ManualClock(SeveralWritersTests.start)
        let a = try Self.machine("a", file, clock: clockA), b = try Self.machine("b", file, clock: clockB)
        try await a.sync()
        try await b.sync()
        func tick() {
            clockA.advance(milliseconds: 60_000)
            clockB.advance(milliseconds: 60_000)
        }
        tick()
        try a.edit(SeveralWritersTests.SharedBook.key, [.note: "from a"])
        for _ in 1...2 {
            tick()
            try await a.sync()
            tick()
            try await b.sync()
        }
        let settled = try Data(contentsOf: file)
        for round in 1...3 {
            tick()
            try await a.sync()
            tick()
            try await b.sync()
            #expect(try Data(contentsOf: file) == settled, "round \(round) rewrote the workbook")
        }
        let sheet = try await Self.sheet(file)
        #expect(sheet[SeveralWritersTests.SharedBook.key]?[.note] == "from a")
        #expect(try a.rows() == sheet)
        #expect(try b.rows() == sheet)
    }
}
