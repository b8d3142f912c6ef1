import Foundation
import GoogleAPI
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetsEmulator
import Testing

/// A fault at every request of a sync, before or after the request took effect: the run ends done (0) or
/// temporarily failed (75), nothing is lost, and the next run ends where an uninterrupted run ends.
@Suite struct GoogleFaultTests {
    /// One sync with edits on both sides, set up identically every time (seeded ids, a manual clock).
    struct Scenario {
        let bed: GoogleTestBed
        let clock = ManualClock(Timestamp(iso: "2026-03-01T00:00:00.000Z") ?? Timestamp(Date()))
        let ids = SeededIDs(seed: 77)

        static func prepare(_ name: String, sharing host: GoogleTestBed? = nil) async throws -> Scenario {
            let scenario = Scenario(bed: try await GoogleTestBed.start(name, sharing: host))
            try await scenario.prepare()
            return scenario
        }

        func sync() async throws -> SyncReport {
            let ids = self.ids
            return try await bed.sync(try bed.remote(), clock: clock, newID: { ids.next() })
        }

        private func prepare() async throws {
            let keys = try GoogleSeed.ledger(in: bed, transactions: 6, ids: SeededIDs(seed: 5))
            _ = try await sync()
            let id = try bed.spreadsheetId(), tab = Tab.transactions.rawValue
            let note = try bed.column("note", in: .transactions)
            guard let first = try bed.rowIndex(of: keys[0], in: .transactions) else { throw CLI.CLIError(message: "seed row missing") }
            try bed.emulator.typeCell(spreadsheetId: id, tab: tab, at: GoogleTestBed.a1(row: first, column: note), text: "typed")
            try bed.emulator.insertRow(
                spreadsheetId: id, tab: tab, at: 2, typed: ["", "expense", "2026-02-21", "", "", "4.5", "Fun", "", "hand"])
            if let gone = try bed.rowIndex(of: keys[1], in: .transactions) {
                try bed.emulator.deleteRow(spreadsheetId: id, tab: tab, at: gone)
            }
            clock.advance(milliseconds: 1000)
            let store = try bed.store()
            var records = try store.records(in: .transactions)
            guard var edited = records.first(where: { $0[.transactionId] == keys[2] }) else {
                throw CLI.CLIError(message: "store row missing")
            }
            edited[.note] = "local"
            edited[.lastModifiedAt] = clock.now().description
            try store.upsert(edited, in: .transactions)
            try store.delete(key: keys[3], in: .transactions)
            edited[.transactionId] = "0c0ffee0-0000-4000-8000-000000000002"
            edited[.note] = "added"
            try store.upsert(edited, in: .transactions)
            records = try store.records(in: .transactions)
            clock.advance(milliseconds: 60_000)
        }

        /// Store and sheet, by note (the hand-added row's id is minted anew by a rerun, so it is left out).
        func state() throws -> [String: LedgerRow] {
            let store = try bed.storeRecords(.transactions), sheet = try bed.sheetRecords(.transactions)
            #expect(store == sheet)
            #expect(try bed.values(.transactions).count == sheet.count + 1, "a row was written twice or a blank row left")
            var out: [String: LedgerRow] = [:]
            for var record in store.values {
                if record[.note] == "hand" { record[.transactionId] = "" }
                out[record[.note]] = record
            }
            return out
        }
    }

    static let faults: [EmulatorFault] = [.status(500), .resetConnection, .truncateBody(keepingBytes: 10)]

    @Test(arguments: faults)
    func aFaultAtAnyRequestOfASyncLosesNothingAndTheNextRunConverges(fault: EmulatorFault) async throws {
        let host = try await GoogleTestBed.start("g-fault-host")
        let reference = try await Scenario.prepare("g-fault-ref", sharing: host)
        reference.bed.emulator.resetCounters()
        _ = try await reference.sync()
        let expected = try reference.state()
        let requests = reference.bed.emulator.counters.totalRequests
        #expect(expected.count == 6 && expected["typed"] != nil && expected["hand"] != nil && expected["added"] != nil)
        await reference.bed.finish()

        for phase in [FaultPhase.beforeEffect, .afterEffect] {
            for n in 1...requests {
                let scenario = try await Scenario.prepare("g-fault", sharing: host)
                let emulator = scenario.bed.emulator
                emulator.resetCounters()
                emulator.injectFault(fault, atRequest: n, phase: phase)
                let what = "\(fault) \(phase) at request \(n) of \(requests)"
                do {
                    let report = try await scenario.sync()
                    #expect(report.errors.isEmpty, "\(what): \(report.errors)")
                } catch let error as SheetSyncError {
                    #expect(error.exitCode == .temporaryFailure, "\(what): \(error)")
                }
                let faulted = emulator.requestLog.first { $0.number == n }
                emulator.clearFaults()
                let report = try await scenario.sync()
                #expect(report.errors.isEmpty, "\(what): the next run reported \(report.errors)")
                let state = try scenario.state()
                #expect(state == expected, "\(what) (\(faulted?.endpoint ?? "?")): \(state.keys.sorted()) vs \(expected.keys.sorted())")
                await scenario.bed.finish()
            }
        }
        await host.finish()
    }

    @Test func aRateLimitWithRetryAfterIsWaitedOutAndRetried() async throws {
        let scenario = try await Scenario.prepare("g-429")
        let emulator = scenario.bed.emulator
        emulator.resetCounters()
        emulator.injectFault(.status(429, retryAfter: 7), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let clock = ManualAPIClock(now: Date())
        let ids = scenario.ids
        let report = try await scenario.bed.sync(try scenario.bed.remote(clock: clock), clock: scenario.clock, newID: { ids.next() })
        #expect(report.errors.isEmpty)
        #expect(clock.sleeps == [7])
        #expect(emulator.counters.requests("sheets.spreadsheets.batchUpdate") == 2)
        #expect(try scenario.state()["added"] != nil)
        await scenario.bed.finish()
    }

    @Test func aRetryAfterBeyondTheBudgetExitsSeventyFiveAtOnceAndTheNextRunConverges() async throws {
        let bed = try await GoogleTestBed.start("g-429-cli", retryBudget: 2)
        try GoogleSeed.ledger(in: bed, transactions: 3, ids: SeededIDs(seed: 6))
        #expect(try await bed.cli("sync").status == 0)
        #expect(try await bed.cli("add", "expense", "--amount", "3.00", "--category", "Fun", "--note", "later").status == 0)
        bed.emulator.resetCounters()
        bed.emulator.injectFault(.status(429, retryAfter: 3600), at: .endpoint("sheets.spreadsheets.values.batchGet", occurrence: 1))
        let limited = try await bed.cli("sync")
        #expect(limited.status == 75)
        #expect(limited.stderr.contains("retry budget"), "\(limited.stderr)")
        // Said once: what it means for the data and that a later run helps.
        #expect(limited.stderr.components(separatedBy: "nothing was lost").count == 2, "\(limited.stderr)")
        #expect(!limited.stderr.contains("try again later"), "\(limited.stderr)")
        // It gave up at once rather than waiting out the hour: the refused read was never sent again.
        #expect(bed.emulator.counters.requests("sheets.spreadsheets.values.batchGet") == 1)
        #expect(try await bed.cli("sync").status == 0)
        #expect(try bed.sheetRecords(.transactions).values.contains { $0[.note] == "later" })
        await bed.finish()
    }
}
