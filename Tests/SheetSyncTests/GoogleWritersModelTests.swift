import Foundation
import GoogleAPI
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Synchronization
import TestSupport
import Testing

/// The randomized model check of several writers on one spreadsheet: two machines' stores and a person
/// in the browser, with the interleavings that matter forced at exact points (a write held in the
/// emulator while the other machine syncs or the person moves rows, a retry whose wait the person uses),
/// never by timing. After every round both machines sync until quiet, then: both stores equal the sheet;
/// no row carries a value written for another row; no stray row; a further round writes nothing.
/// A failure prints its seed; `SHEETSYNC_GOOGLE_WRITERS_SEED=<seed> SHEETSYNC_GOOGLE_WRITERS_CASES=1`
/// replays it.
@Suite struct GoogleWritersModelTests {
    /// 24 cases by default, in two shards with an emulator each.
    @Test(arguments: 0..<2)
    func twoMachinesAndAPersonOnOneSpreadsheetConvergeWithEveryValueOnItsRow(shard: Int) async throws {
        let env = ProcessInfo.processInfo.environment
        let cases = Int(env["SHEETSYNC_GOOGLE_WRITERS_CASES"] ?? "") ?? 24
        let first = UInt64(env["SHEETSYNC_GOOGLE_WRITERS_SEED"] ?? "") ?? 20_261_127
        let host = try await GoogleTestBed.start("g-writers-host")
        var failures = 0
        for i in stride(from: shard, to: cases, by: 2) {
            let seed = first &+ UInt64(i)
            var model = try await GoogleWritersCase(seed: seed, host: host)
            do {
                try await model.run()
            } catch {
                failures += 1
                Issue.record(
                    "google writers case failed — replay with SHEETSYNC_GOOGLE_WRITERS_SEED=\(seed) SHEETSYNC_GOOGLE_WRITERS_CASES=1: \(error)"
                )
            }
            await model.finish()
            if failures >= 3 { break }
        }
        await host.finish()
    }
}

/// One seeded case: machines A and B synced with a small ledger, three rounds of edits on every side and
/// one interleaving each.
struct GoogleWritersCase {
    let seed: UInt64
    var rng: SeededRandom
    let a: GoogleTestBed
    let b: GoogleTestBed
    let clock = ManualClock(Timestamp(iso: "2026-03-01T00:00:00.000Z") ?? Timestamp(Date()))
    /// Every note value written, by the key it was written for: a value identifies its row.
    var written: [String: String] = [:]
    var counter = 0
    /// What the case did, for a failure's message.
    var trace: [String] = []

    init(seed: UInt64, host: GoogleTestBed) async throws {
        self.seed = seed
        rng = SeededRandom(seed: seed)
        a = try await GoogleTestBed.start("g-writers-a", sharing: host)
        let keys = try GoogleSeed.ledger(in: a, transactions: 6, ids: SeededIDs(seed: seed))
        b = try await GoogleTestBed.start("g-writers-b", sharing: host)
        try b.writeConfig(spreadsheetId: try a.spreadsheetId())
        for (i, key) in keys.enumerated() { written["n\(i)"] = key }
    }

    func fail(_ message: String) -> ModelFailure {
        ModelFailure(description: "seed \(seed): \(message); steps: \(trace.joined(separator: "; "))")
    }

    func finish() async {
        await b.finish()
        await a.finish()
    }

    /// A sync of `bed` as its machine runs it; 75 (a retry fixes it) and 65 (held, said) are outcomes a
    /// run may have here, and the rounds after it must still converge.
    @discardableResult
    func sync(_ bed: GoogleTestBed, clock apiClock: any APIClock = ManualAPIClock(now: Date())) async throws -> Int32 {
        try await Self.sync(bed, clock: clock, apiClock: apiClock)
    }

    static func sync(_ bed: GoogleTestBed, clock: ManualClock, apiClock: any APIClock = ManualAPIClock(now: Date())) async throws -> Int32 {
        do {
            // Random deletes are intent here; the guards are tested on their own.
            _ = try await bed.sync(try bed.remote(clock: apiClock), clock: clock, allowMassDelete: true)
            return 0
        } catch let error as SheetSyncError where [65, 75].contains(error.exitCode.rawValue) {
            return error.exitCode.rawValue
        }
    }

    mutating func run() async throws {
        try await sync(a)
        try await sync(b)
        for round in 1...3 {
            for bed in [a, b] { try localEdit(bed) }
            clock.advance(milliseconds: 60_000)
            try await interleave(round: round)
            try await settle(round: round)
        }
    }

    /// A unique note for `key`.
    mutating func note(for key: String) -> String {
        counter += 1
        let value = "v\(counter)-\(key.prefix(8))"
        written[value] = key
        return value
    }

    // MARK: edits

    /// One store edit on a machine: a note changed, a row added or a row deleted.
    mutating func localEdit(_ bed: GoogleTestBed) throws {
        let store = try bed.store()
        let rows = try store.records(in: .transactions)
        guard var row = rows.randomElement(using: &rng) else { return }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0 where rows.count > 3:
            trace.append("store delete \(row[.transactionId].prefix(8))")
            _ = try store.delete(key: row[.transactionId], in: .transactions)
        case 1:
            let key = UUID().uuidString.lowercased()
            row[.transactionId] = key
            row[.note] = note(for: key)
            trace.append("store add \(key.prefix(8)) \(row[.note])")
            row[.createdAt] = clock.now().description
            row[.lastModifiedAt] = clock.now().description
            try store.upsert(row, in: .transactions)
        default:
            row[.note] = note(for: row[.transactionId])
            trace.append("store edit \(row[.transactionId].prefix(8)) \(row[.note])")
            row[.lastModifiedAt] = clock.now().description
            try store.upsert(row, in: .transactions)
        }
    }

    /// One edit a person makes in the browser: a note typed, a row deleted, a row inserted above, or a sort.
    mutating func personEdit() throws { try planPersonEdit()() }

    /// The edit, chosen now against the sheet as it is, to be made now or at a later point of a run.
    mutating func planPersonEdit() throws -> @Sendable () throws -> Void {
        let id = try a.spreadsheetId(), tab = Tab.transactions.rawValue, emulator = a.emulator
        let values = try a.values(.transactions)
        let keyColumn = try a.column("transactionId", in: .transactions)
        let noteColumn = try a.column("note", in: .transactions), amountColumn = try a.column("amount", in: .transactions)
        let rows = values.indices.dropFirst().filter { keyColumn < values[$0].count && values[$0][keyColumn] != .empty }
        guard let row = rows.randomElement(using: &rng), case .string(let key) = values[row][keyColumn] else { return {} }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            let value = note(for: key)
            trace.append("person types \(value) at row \(row)")
            return { try emulator.typeCell(spreadsheetId: id, tab: tab, at: GoogleTestBed.a1(row: row, column: noteColumn), text: value) }
        case 1 where rows.count > 3:
            trace.append("person deletes row \(row) (\(key.prefix(8)))")
            return { try emulator.deleteRow(spreadsheetId: id, tab: tab, at: row) }
        case 2:
            // A row typed without an id (sync gives it one); its note belongs to no key.
            trace.append("person inserts a row at 1")
            return {
                try emulator.insertRow(
                    spreadsheetId: id, tab: tab, at: 1, typed: ["", "expense", "2026-02-21", "", "", "4.5", "Fun", "", "typed"])
            }
        default:
            let ascending = rng.next() % 2 == 0
            trace.append("person sorts")
            return { try emulator.sortTab(spreadsheetId: id, tab: tab, byColumn: amountColumn, ascending: ascending) }
        }
    }

    // MARK: interleavings

    /// The round's runs: in turn; or A's write held while B syncs or the person edits; or A's write
    /// answered 503 with Retry-After while the person edits during the wait.
    mutating func interleave(round: Int) async throws {
        let gate = "g\(seed)-\(round)"
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            trace.append("in turn:")
            try personEdit()
            try await sync(a)
            try await sync(b)
        case 1, 2:
            let withMachine = Int.random(in: 0..<2, using: &rng) == 0
            trace.append(withMachine ? "A's write held while B syncs" : "A's write held while:")
            let edit = try planPersonEdit()
            a.emulator.resetCounters()
            a.emulator.injectFault(.hold(gate: gate), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
            let (bed, clock, done) = (a, clock, Flag())
            let run = Task {
                defer { done.set() }
                return try await Self.sync(bed, clock: clock)
            }
            // A run that ends without writing (held back) never reaches the gate.
            while !a.emulator.isHeld(at: gate), !done.isSet { try await Task.sleep(for: .milliseconds(5)) }
            if withMachine { try await sync(b) } else { try edit() }
            a.emulator.open(gate: gate)
            _ = try await run.value
            a.emulator.clearFaults()
        default:
            trace.append("A's write 503, during the retry wait:")
            let edit = try planPersonEdit()
            a.emulator.resetCounters()
            a.emulator.injectFault(.status(503, retryAfter: 6), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
            try await sync(a, clock: WhileWaiting(seconds: 5) { try? edit() })
            a.emulator.clearFaults()
        }
    }

    // MARK: checks

    /// Both machines sync until a round writes nothing; then the invariants.
    func settle(round: Int) async throws {
        var quiet = false
        for _ in 1...5 {
            let before = a.emulator.version(of: try a.spreadsheetId())
            clock.advance(milliseconds: 1_000)
            try await sync(a)
            try await sync(b)
            if a.emulator.version(of: try a.spreadsheetId()) == before {
                quiet = true
                break
            }
        }
        guard quiet else { throw fail("round \(round): still writing after five rounds") }
        let sheet = try a.sheetRecords(.transactions, now: clock.now())
        // A blank row (rows appended while a person deleted one above can leave a gap) holds nothing.
        let values = try a.values(.transactions).filter { !$0.allSatisfy { $0 == .empty } }
        guard values.count - 1 == sheet.count else {
            let keyColumn = try a.column("transactionId", in: .transactions)
            let stray = values.dropFirst().filter { row in
                keyColumn >= row.count || sheet[GoogleTestBed.cell(row[keyColumn]).rawText] == nil
            }
            throw fail("round \(round): \(values.count - 1) sheet rows but \(sheet.count) load; not loading: \(stray)")
        }
        for (key, row) in sheet {
            let value = row[.note]
            if let owner = written[value], owner != key { throw fail("round \(round): row \(key) carries \(value), written for \(owner)") }
        }
        for (name, bed) in [("A", a), ("B", b)] {
            let store = try bed.storeRecords(.transactions)
            guard store == sheet else {
                let differing = Set(store.keys).symmetricDifference(sheet.keys).union(
                    sheet.keys.filter { store[$0] != nil && store[$0] != sheet[$0] })
                throw fail("round \(round): store \(name) differs from the sheet at \(differing.sorted())")
            }
        }
    }
}

/// A flag one task sets and another reads.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
