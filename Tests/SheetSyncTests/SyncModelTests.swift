import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import TestSupport
import Testing
import Workbook

/// The randomized model test of sync: seeded random edits on both sides over several
/// rounds, crashes injected at any file-write step, and after every round: convergence, idempotence,
/// no lost update, no resurrection, frozen rejected rows. A failure prints its seed;
/// `SHEETSYNC_MODEL_SEED=<seed> SHEETSYNC_MODEL_CASES=1` replays it.
@Suite struct SyncModelTests {
    /// 1,000 cases against a `MemoryRemote` by default, in four shards that run in parallel; odd shards
    /// use typed cells (as XLSX and Google do), even ones plain text (as CSV does).
    @Test(arguments: 0..<4)
    func randomEditsOnBothSidesConvergeWithoutLostUpdates(shard: Int) async throws {
        try await Self.run(shard: shard, of: 4, defaultCases: 1000) { _ in MemoryModelSheet(typed: shard % 2 == 1) }
    }

    /// The same model on a CSV folder, crashing at any step of a file replacement: 100 cases by default.
    @Test func randomEditsOnACSVFolderConvergeThroughCrashes() async throws {
        try await Self.run(shard: 0, of: 1, defaultCases: 100, casesVariable: "SHEETSYNC_MODEL_FILE_CASES") { _ in
            CSVModelSheet(workbook: TestWorkbook(folder: try TestWorkbook.scratch("model")))
        }
    }

    static func run(
        shard: Int, of shards: Int, defaultCases: Int, casesVariable: String = "SHEETSYNC_MODEL_CASES",
        sheet: (UInt64) throws -> any ModelSheet
    ) async throws {
        let env = ProcessInfo.processInfo.environment
        let cases = Int(env[casesVariable] ?? "") ?? defaultCases
        let first = UInt64(env["SHEETSYNC_MODEL_SEED"] ?? "") ?? 20_261_121
        var failures = 0
        for i in stride(from: shard, to: cases, by: shards) {
            let seed = first &+ UInt64(i)
            // Long CPU-bound work: let other tests' tasks onto the two cooperative threads between cases.
            await Task.yield()
            var model = try ModelCase(seed: seed, sheet: try sheet(seed))
            do {
                try await model.run()
            } catch {
                failures += 1
                Issue.record("model case failed — replay with SHEETSYNC_MODEL_SEED=\(seed) \(casesVariable)=1: \(error)")
                if failures >= 3 { break }
            }
            model.sheet.remove()
        }
    }
}

struct ModelFailure: Error, CustomStringConvertible {
    var description: String
}

/// One seeded case: a small ledger, a few rounds of edits, a sync (maybe crashed) per round.
struct ModelCase {
    let seed: UInt64
    var rng: SeededRandom
    let ids: SeededIDs
    let sheet: any ModelSheet
    let store: LedgerStore
    let clock = ManualClock(Timestamp(iso: "2026-03-01T00:00:00.000Z")!)
    let categories = ["Food", "Rent", "Fun"]
    let t0 = "2026-02-01T00:00:00.000Z"
    var frozen: Set<String> = []

    init(seed: UInt64, sheet: any ModelSheet) throws {
        self.seed = seed
        rng = SeededRandom(seed: seed)
        ids = SeededIDs(seed: seed)
        self.sheet = sheet
        store = try LedgerStore.inMemory()
    }

    func engine(crashAt: Int? = nil) -> SyncEngine {
        let ids = self.ids
        return SyncEngine(store: store, remote: sheet.remote(crashAt: crashAt), clock: clock, newID: { ids.next() })
    }

    func write(_ tab: Tab, header: [String], rows: [[String]]) async throws {
        try await sheet.setTable(tab, Table(header: header, rows: rows.map { $0.map { $0.isEmpty ? Cell.empty : .text($0) } }))
    }

    /// The tab's loadable rows by key, read as sync reads them.
    func sheetRecords(_ tab: Tab) async throws -> [String: LedgerRow] {
        let (_, rows) = try TabReader.read(try await sheet.table(tab), schema: tab.schema, seenAt: clock.now())
        var out: [String: LedgerRow] = [:]
        for row in rows {
            if case .record(let r, _) = row.outcome { out[r[tab.schema.keyField]] = r }
        }
        return out
    }

    static func column(_ name: String, in table: Table) -> Int? {
        table.header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() }
    }

    func fail(_ message: String) -> ModelFailure { ModelFailure(description: message) }

    /// The model's random deletes are the user's intent (emptying a small tab included): the guards
    /// that hold likely accidents back are tested on their own (`SyncPlannerTests`, `DataSafetyTests`).
    static let options = SyncOptions(mode: .sync, allowMassDelete: true)

    mutating func seedWorkbook() async throws {
        try await write(
            .settings, header: Tab.settings.schema.fields.map(\.header),
            rows: [[ids.next(), "1", "UTC", "", "", "", t0, t0]])
        try await write(
            .categories, header: Tab.categories.schema.fields.map(\.header),
            rows: categories.map { [$0, "expense", "", "", "TRUE", "", t0, t0] })
        var rows: [[String]] = []
        for i in 0..<Int.random(in: 4...8, using: &rng) {
            rows.append([
                ids.next(), "expense", "2026-02-\(10 + i)", "2026", "2", "\(i + 1).25", categories[i % 3], "", "n\(i)", "", "", "", t0, t0,
            ])
        }
        try await write(.transactions, header: Tab.transactions.schema.fields.map(\.header), rows: rows)
        for tab in [Tab.receipts, .recurringRules] {
            try await write(tab, header: tab.schema.fields.map(\.header), rows: [])
        }
    }

    mutating func run() async throws {
        try await seedWorkbook()
        _ = try await engine().run(Self.options)
        try await checkConverged(round: 0)
        for round in 1...3 {
            var log = RoundLog()
            try localEdits(round: round, log: &log)
            try await remoteEdits(round: round, log: &log)
            clock.advance(milliseconds: 60_000)
            try await syncMaybeCrashing(round: round)
            try await checkConverged(round: round)
            try await checkOracle(round: round, log: log)
            frozen.subtract(log.unfrozen)
            frozen.formUnion(log.frozen)
        }
    }

    // MARK: edits

    struct RoundLog {
        var localNote: [String: String] = [:]
        var localDeleted: Set<String> = []
        var localAdded: [String: String] = [:]
        var remoteNote: [String: String] = [:]
        var remoteAmount: [String: String] = [:]
        var remoteDeleted: Set<String> = []
        var remoteInserted: [String] = []
        var duplicated: [String: String] = [:]
        var frozen: Set<String> = []
        var unfrozen: Set<String> = []
        var touched: Set<String> {
            Set(localNote.keys).union(localDeleted).union(remoteNote.keys).union(remoteAmount.keys).union(remoteDeleted).union(
                duplicated.keys
            ).union(frozen).union(unfrozen)
        }
    }

    mutating func localEdits(round: Int, log: inout RoundLog) throws {
        try ModelLocalEdits.apply(
            store: store, rng: &rng, clock: clock, ids: ids, frozen: frozen, categories: categories,
            round: round, log: &log)
    }

    mutating func remoteEdits(round: Int, log: inout RoundLog) async throws {
        var table = try await sheet.table(.transactions)
        func col(_ name: String) -> Int { Self.column(name, in: table)! }
        func key(_ row: [Cell]) -> String {
            let c = col("transactionId")
            return c < row.count ? row[c].rawText : ""
        }
        func set(_ row: Int, _ name: String, _ value: String) {
            let c = col(name)
            if table.rows[row].count <= c { table.rows[row] += Array(repeating: .empty, count: c + 1 - table.rows[row].count) }
            table.rows[row][c] = .text(value)
        }
        // Fix the rows frozen last round.
        for i in table.rows.indices where frozen.contains(key(table.rows[i])) {
            set(i, "category", "Food")
            log.unfrozen.insert(key(table.rows[i]))
        }
        var candidates = table.rows.map(key).filter { !$0.isEmpty && !log.unfrozen.contains($0) }
        candidates.shuffle(using: &rng)
        for i in 0..<Int.random(in: 0...4, using: &rng) {
            let op = Int.random(in: 0..<7, using: &rng)
            if op >= 4 {
                switch op {
                case 4:  // a row typed by hand, without id or timestamps
                    var row = Array(repeating: Cell.empty, count: table.header.count)
                    row[col("date")] = .text("2026-02-2\(i)")
                    row[col("amount")] = .text("4.5")
                    row[col("category")] = .text(categories[i % 3])
                    row[col("note")] = .text("RI\(round)-\(i)")
                    table.rows.insert(row, at: Int.random(in: 0...table.rows.count, using: &rng))
                    log.remoteInserted.append("RI\(round)-\(i)")
                case 5:  // sort by note
                    let c = col("note")
                    table.rows.sort { ($0.count > c ? $0[c].rawText : "") < ($1.count > c ? $1[c].rawText : "") }
                default:  // move a column
                    let from = Int.random(in: 0..<table.header.count, using: &rng)
                    let to = Int.random(in: 0..<table.header.count, using: &rng)
                    let width = table.header.count
                    func move<T>(_ a: inout [T]) {
                        let v = a.remove(at: from)
                        a.insert(v, at: to)
                    }
                    move(&table.header)
                    for r in table.rows.indices {
                        if table.rows[r].count < width { table.rows[r] += Array(repeating: .empty, count: width - table.rows[r].count) }
                        move(&table.rows[r])
                    }
                }
                continue
            }
            guard let k = candidates.popLast(), let row = table.rows.firstIndex(where: { key($0) == k }) else { continue }
            guard !log.touched.subtracting(log.localNote.keys).contains(k) else { continue }
            switch op {
            case 0:
                set(row, "note", "R\(round)-\(i)")
                log.remoteNote[k] = "R\(round)-\(i)"
            case 1:
                guard log.localNote[k] == nil else { continue }
                set(row, "amount", "7.5")
                log.remoteAmount[k] = "7.50"
            case 2:
                guard log.localNote[k] == nil || Bool.random(using: &rng) else { continue }
                table.rows.remove(at: row)
                log.remoteDeleted.insert(k)
            default:
                guard log.localNote[k] == nil, log.localDeleted.contains(k) == false else { continue }
                if Bool.random(using: &rng) {
                    set(row, "category", "Nope")
                    log.frozen.insert(k)
                } else {
                    table.rows.append(table.rows[row])
                    let c = col("note")
                    log.duplicated[k] = c < table.rows[row].count ? table.rows[row][c].rawText : ""
                }
            }
        }
        try await sheet.setTable(.transactions, table)
    }

    // MARK: syncing

    mutating func syncMaybeCrashing(round: Int) async throws {
        if Int.random(in: 0..<10, using: &rng) < 4 {
            let crashAt = Int.random(in: 1...14, using: &rng)
            do {
                _ = try await engine(crashAt: crashAt).run(Self.options)
            } catch is SimulatedCrash {
                // The process died here; the next run must finish the job.
            } catch is ModelCrash {
            }
        }
        let report = try await engine().run(Self.options)
        if !report.errors.isEmpty { throw fail("round \(round): sync reported errors \(report.errors)") }
    }

    // MARK: checks

    func storeRecords() throws -> [String: LedgerRow] {
        var out: [String: LedgerRow] = [:]
        let now = clock.now()
        for raw in try store.records(in: .transactions) {
            let (outcome, _) = TabReader.parse(schema: .transactions, seenAt: now) { raw[$0].isEmpty ? .empty : .text(raw[$0]) }
            guard case .record(let r, _) = outcome else { throw fail("store row \(raw) does not parse") }
            out[r[.transactionId]] = r
        }
        return out
    }

    /// After a sync: store = sheet = base (frozen rows aside), and a second sync changes nothing.
    func checkConverged(round: Int) async throws {
        let local = try storeRecords()
        let sheet = try await sheetRecords(.transactions)
        let frozenNow = try rejectedKeys()
        for (key, r) in sheet where !frozenNow.contains(key) {
            guard local[key] == r else { throw fail("round \(round): \(key) differs: store \(String(describing: local[key])) sheet \(r)") }
        }
        for key in local.keys where sheet[key] == nil && !frozenNow.contains(key) {
            throw fail("round \(round): \(key) is in the store but not in the sheet")
        }
        let base = try store.snapshot().base[.transactions] ?? [:]
        for (key, r) in local where !frozenNow.contains(key) && base[key] != r {
            throw fail("round \(round): base of \(key) is \(String(describing: base[key])), store has \(r)")
        }
        let before = try await self.sheet.contentFingerprint()
        let storeBefore = try store.records(in: .transactions)
        let quiet = try await engine().run(Self.options)
        let bytesAfter = try await self.sheet.contentFingerprint(), storeAfter = try store.records(in: .transactions)
        if quiet.hasChanges || bytesAfter != before || storeAfter != storeBefore {
            throw fail("round \(round): a second sync was not a no-op: \(quiet.changes) \(quiet.tabs)")
        }
    }

    func rejectedKeys() throws -> Set<String> {
        Set(try store.rejectedRows().map(\.id).filter { !$0.isEmpty })
    }

    func checkOracle(round: Int, log: RoundLog) async throws {
        let local = try storeRecords()
        let sheet = try await sheetRecords(.transactions)
        let tainted = frozen.union(log.frozen).union(log.unfrozen).union(log.duplicated.keys)
        func expectNote(_ key: String, _ note: String, _ what: String) throws {
            guard local[key]?[.note] == note, sheet[key]?[.note] == note else {
                throw fail(
                    "round \(round): lost update (\(what)) on \(key): want note '\(note)', store '\(local[key]?[.note] ?? "-")', sheet '\(sheet[key]?[.note] ?? "-")'"
                )
            }
        }
        for (key, note) in log.localNote where !tainted.contains(key) {
            if let remote = log.remoteNote[key] {
                // A hand edit is stamped when sync first sees it, after the local edit: it wins, and the
                // local value is kept in the conflict log.
                try expectNote(key, remote, "same field on both sides")
                guard try store.conflicts(limit: 1000).contains(where: { $0.key == key && $0.losingValue == note }) else {
                    throw fail("round \(round): losing value '\(note)' of \(key) is not in the conflict log")
                }
            } else {
                try expectNote(key, note, "local edit")
            }
        }
        for (key, note) in log.remoteNote where !tainted.contains(key) && log.localNote[key] == nil {
            try expectNote(key, note, log.localDeleted.contains(key) ? "remote edit beats local delete" : "remote edit")
        }
        for (key, amount) in log.remoteAmount where !tainted.contains(key) {
            guard local[key]?[.amount] == amount else { throw fail("round \(round): remote amount edit lost on \(key)") }
        }
        for key in log.localDeleted where !tainted.contains(key) && log.remoteNote[key] == nil && log.remoteAmount[key] == nil {
            if local[key] != nil || sheet[key] != nil { throw fail("round \(round): \(key) deleted locally came back") }
        }
        for key in log.remoteDeleted where !tainted.contains(key) && log.localNote[key] == nil {
            if local[key] != nil || sheet[key] != nil { throw fail("round \(round): \(key) deleted in the sheet came back") }
        }
        for key in log.remoteDeleted where !tainted.contains(key) {
            if let note = log.localNote[key] { try expectNote(key, note, "local edit beats remote delete") }
        }
        for (key, note) in log.localAdded { try expectNote(key, note, "local add") }
        for note in log.remoteInserted {
            let matches = local.values.filter { $0[.note] == note }
            guard matches.count == 1, let key = matches.first?[.transactionId], sheet[key]?[.note] == note else {
                throw fail("round \(round): hand-added row '\(note)' is not in both store and sheet under one id")
            }
        }
        for (key, note) in log.duplicated where !frozen.contains(key) {
            let copies = local.values.filter { $0[.note] == note && $0[.date] == local[key]?[.date] }
            guard copies.count >= 2 else { throw fail("round \(round): a copy-pasted row of \(key) was lost") }
        }
        for key in log.frozen {
            guard try rejectedKeys().contains(key) else {
                throw fail("round \(round): row \(key) with an unknown category was not rejected")
            }
            let cells = try await self.sheet.table(.transactions)
            let c = Self.column("category", in: cells)!, k = Self.column("transactionId", in: cells)!
            guard cells.rows.contains(where: { $0.count > max(c, k) && $0[k].rawText == key && $0[c].rawText == "Nope" }) else {
                throw fail("round \(round): rejected row \(key) was overwritten in the sheet")
            }
        }
    }
}

final class StepCounter: @unchecked Sendable {
    private var count = 0
    private let lock = NSLock()
    func next() -> Int {
        lock.withLock {
            count += 1; return count
        }
    }
}
