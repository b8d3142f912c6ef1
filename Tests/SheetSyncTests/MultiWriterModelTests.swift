import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import TestSupport
import Testing
import Workbook

/// The randomized multi-writer model: two or three machines, each with a store and a clock of its own,
/// and a person editing the Transactions tab by hand, all on one workbook: a CSV folder or an `.xlsx`
/// file, each a copy of `samples/clean` (the person's saves rewrite the file as a spreadsheet program does). A case runs two to four rounds of seeded random actions in random order — a
/// machine edits a note or an amount in its store, adds a row or deletes one; the person edits a note
/// or an amount cell, types a cell's value again in another form (an amount without its trailing zeros),
/// types a row without an id, deletes a row or sorts the rows; a machine syncs, or
/// its sync is killed at a random step of its file replacements (as `kill -9` would leave the disk), or
/// the person saves an edit while a machine's run is under way, between its read and its first file
/// replacement (on disk; the Google writers model covers that instant in Google mode) —
/// with all clocks moving on together by 1–120 s between actions, a third of the machines' clocks up to
/// two minutes off (so no two clocks are five minutes apart, the future tolerance). Every edit writes a
/// value no other edit writes, so a value tells which row it was written for. Rows a receipt points at
/// are never deleted (such a delete is held back, by design, until the receipt row goes too, and the
/// model does not edit receipts); at most six deletes a case keep clear of the mass-delete guard. Then
/// every machine syncs in turn, twice over (`SHEETSYNC_MULTIWRITER_PASSES` sets how many times; up to two
/// rounds more where a run held rows back as an older copy's lack, which the machines that deleted them
/// delete again), and:
///
/// 1. **Convergence.** The sheet's transactions and every store's are equal, row for row and field
///    for field; no store holds a rejected row.
/// 2. **No value on another row, no stray or lost row.** Every row's note and amount were written for
///    that row (or are its original), and its other fields are those it was created with. Every row in
///    the file has an id and loads, once; every id is one a writer made (a sample row, a store's add,
///    or the one id a typed row was given); every row nobody deleted is still there, typed rows too.
/// 3. **No update lost unseen; an edit beats a delete it did not see.** A delete sees the note and
///    amount its deleter's copy held, and every value those overwrote, however many edits back. For
///    each row and field, every edit no delete saw holds the final value, or was overwritten by a
///    writer who saw it (a store edit of the row holding it, a hand edit of the cell showing it), or
///    lost a conflict and is in some store's conflict log; the final value is not one such an edit
///    overwrote; and a row is not gone while such an edit stands (neither overwritten nor a logged
///    loser). Which of two edits made without seeing each other wins is not asserted: a hand edit
///    takes the time of the last save before the sync that reads it (or, read by a machine that missed
///    the row's last version, that version's time), so the later stamp can lose; the log keeps it.
/// 4. **Quiet.** One more sync by every machine changes no byte of the workbook and no store row.
///
/// Invariant 2 is also checked on the sheet and the syncing store after every sync. A run may end with
/// 65 (rows held back, such as a newest row an "older copy" lacked) or 75; anything else fails the
/// case. A case stops at its first violation and records its actions;
/// `SHEETSYNC_MULTIWRITER_SEED=<seed> SHEETSYNC_MULTIWRITER_CASES=1` replays it
/// (`SHEETSYNC_MULTIWRITER_CASES` alone sets the number of cases; `SHEETSYNC_MULTIWRITER_DUMP=1` adds
/// every side's rows after each sync to the actions; `SHEETSYNC_MULTIWRITER_KIND=csv` or `xlsx` runs one
/// kind of workbook only). A shard stops after three failed cases
/// (`SHEETSYNC_MULTIWRITER_MAX_FAILURES` sets how many).
///
/// The cases are CPU-bound: run on the cooperative pool, a dozen shards would hold every one of its
/// threads between their awaits, and tests waiting on a loopback answer would starve. So the shards run
/// on two threads of their own (`ThreadExecutor.modelThreads`), and the rest of the suite keeps the pool.
@Suite struct MultiWriterModelTests {
    /// The cases the suite runs of each kind of workbook, 1,000 in all (a Google case costs the most: an
    /// emulator of its own, every request through HTTP); `SHEETSYNC_MULTIWRITER_CASES` sets one number
    /// for every kind.
    static let defaultCases: [ModelWorkbook.Kind: Int] = [.csv: 500, .xlsx: 300, .google: 200]

    /// The cases of each kind of workbook, in four shards (a shard stops at its own failures).
    @Test(arguments: ModelWorkbook.Kind.allCases, 0..<4)
    func machinesAndAPersonOnOneWorkbookConverge(kind: ModelWorkbook.Kind, shard: Int) async throws {
        let env = ProcessInfo.processInfo.environment
        let cases = Int(env["SHEETSYNC_MULTIWRITER_CASES"] ?? "") ?? Self.defaultCases[kind] ?? 0
        let first = UInt64(env["SHEETSYNC_MULTIWRITER_SEED"] ?? "") ?? 20_260_601
        let maxFailures = Int(env["SHEETSYNC_MULTIWRITER_MAX_FAILURES"] ?? "") ?? 3
        if let only = env["SHEETSYNC_MULTIWRITER_KIND"], only != kind.rawValue { return }
        try await withTaskExecutorPreference(ThreadExecutor.modelThreads[shard % ThreadExecutor.modelThreads.count]) {
            try await Self.run(kind: kind, shard: shard, cases: cases, first: first, maxFailures: maxFailures)
        }
    }

    /// The shard's cases: every fourth seed from `first + shard`.
    static func run(kind: ModelWorkbook.Kind, shard: Int, cases: Int, first: UInt64, maxFailures: Int) async throws {
        var failures = 0, kills = 0, savesDuringRuns = 0, shardCases = 0
        for i in stride(from: shard, to: cases, by: 4) {
            let seed = first &+ UInt64(i)
            var model = try await MultiWriterCase(seed: seed, kind: kind)
            do {
                try await model.run()
            } catch {
                failures += 1
                let actions = model.trace.joined(separator: "\n")
                Issue.record(
                    "multi-writer case failed on \(kind.rawValue) — replay with SHEETSYNC_MULTIWRITER_SEED=\(seed) SHEETSYNC_MULTIWRITER_CASES=1: \(error)\nactions:\n\(actions)"
                )
            }
            await model.remove()
            kills += model.kills
            savesDuringRuns += model.savesDuringRuns
            shardCases += 1
            if failures >= maxFailures { break }
        }
        // The kills are part of what the model checks: a shard of some size has seen some.
        #expect(shardCases < 20 || kills > 0, "no sync of \(shardCases) cases was killed")
        #expect(shardCases < 20 || kind == .google || savesDuringRuns > 0, "no save landed during a run in \(shardCases) cases")
    }
}

struct MultiWriterViolation: Error, CustomStringConvertible {
    var description: String
}

/// One seeded case of `MultiWriterModelTests`.
struct MultiWriterCase {
    /// A value written to a field of a row: by a store edit (stamped with that machine's clock), a
    /// machine's add, a hand edit or a typed row (stamped with the person's save time).
    struct Edit {
        let field: String
        let value: String
        let stamp: Timestamp
        /// The person's clock at the edit: the order things happened in.
        let real: Timestamp
        let by: String
        /// The value the writer's copy held and this edit overwrote (nil for a new row).
        let replaced: String?
    }

    /// A row the person typed without an id, waiting for the sync that gives it one.
    struct TypedRow {
        let note: String
        let amount: String
        let fixed: [String: String]
        let at: Timestamp
    }

    static let start = Timestamp(iso: "2026-06-01T00:00:00.000Z")!
    /// Fields a row's writers change (or sync fills in); the others keep what the row was created with.
    static let changing: Set<String> = ["transactionId", "note", "amount", "createdAt", "lastModifiedAt"]
    /// At most this many deletes per case: far from the mass-delete guard (more than 10 rows and half).
    static let maxDeletes = 6

    let seed: UInt64
    var rng: SeededRandom
    let ids: SeededIDs
    let workbook: ModelWorkbook
    let person: MultiWriterPerson
    var machines: [MultiWriterMachine] = []
    var counter = 0
    var deletes = 0
    /// Syncs killed part-way (some kills come too late to stop a run that writes little).
    var kills = 0
    /// Person's saves that landed while a run was under way (a run that replaces no file has no instant for one).
    var savesDuringRuns = 0
    /// Whether a run held rows back as an older copy's lack: convergence may take two more rounds.
    var heldAsOldCopy = false
    var trace: [String] = []
    /// Per row: the fields that never change.
    var fixed: [String: [String: String]] = [:]
    /// Per row and field: every value written for it.
    var written: [String: [String: Set<String>]] = [:]
    var edits: [String: [Edit]] = [:]
    /// A delete of a row, and the note and amount the deleter's copy held.
    struct Delete {
        let at: Timestamp
        let by: String
        let saw: [String]
    }

    /// Per row: its deletes, by anyone.
    var deleted: [String: [Delete]] = [:]
    /// Rows typed without an id, by their note.
    var typed: [String: TypedRow] = [:]
    /// Rows a receipt points at: not deleted (a delete is then held back until the receipt row goes, by
    /// design, and the model does not edit receipts).
    var withReceipts: Set<String> = []

    init(seed: UInt64, kind: ModelWorkbook.Kind) async throws {
        self.seed = seed
        rng = SeededRandom(seed: seed)
        ids = SeededIDs(seed: seed)
        workbook = try await ModelWorkbook.make(kind, start: Self.start)
        person = MultiWriterPerson(clock: ManualClock(Self.start), workbook: workbook)
    }

    func remove() async { await workbook.remove() }

    /// The Transactions rows the workbook holds now, by key.
    func sheet() throws -> [String: LedgerRow] { try workbook.records(.transactions) }

    func fail(_ message: String) -> MultiWriterViolation { MultiWriterViolation(description: message) }

    // MARK: the case

    mutating func run() async throws {
        let names = ["a", "b", "c"]
        for name in names.prefix(Int.random(in: 2...3, using: &rng)) {
            let skew = Int.random(in: 0..<3, using: &rng) == 0 ? Int64.random(in: -120_000...120_000, using: &rng) : 0
            let clock = ManualClock(Self.start.adding(milliseconds: skew))
            machines.append(MultiWriterMachine(name: name, store: try workbook.store(name), clock: clock, workbook: workbook, ids: ids))
            trace.append("machine \(name), clock \(skew >= 0 ? "+" : "")\(Double(skew) / 1000) s")
        }
        for (key, row) in try sheet().sorted(by: { $0.key < $1.key }) {
            fixed[key] = Self.fixedFields(row)
            written[key] = ["note": [row[.note]], "amount": [row[.amount]]]
        }
        withReceipts = Set(try workbook.records(.receipts).values.map { $0[.transactionId] })
        for i in machines.indices {
            tick()
            try await sync(i)
        }
        enum Action {
            case edit
            case sync(Int)
            case kill(Int)
            case saveDuring(Int)
            case heldWrite(Int)
            case retriedWrite(Int)
        }
        for round in 1...Int.random(in: 2...4, using: &rng) {
            trace.append("round \(round)")
            var actions = Array(repeating: Action.edit, count: Int.random(in: 2...7, using: &rng))
            for i in machines.indices {
                actions += Array(repeating: .sync(i), count: Int.random(in: 0...2, using: &rng))
                if Int.random(in: 0..<4, using: &rng) == 0 { actions.append(.kill(i)) }
                if workbook.kind != .google, Int.random(in: 0..<4, using: &rng) == 0 { actions.append(.saveDuring(i)) }
                if interleavesGoogleWrites, Int.random(in: 0..<4, using: &rng) == 0 { actions.append(.heldWrite(i)) }
                if interleavesGoogleWrites, Int.random(in: 0..<5, using: &rng) == 0 { actions.append(.retriedWrite(i)) }
            }
            actions.shuffle(using: &rng)
            for action in actions {
                tick()
                switch action {
                case .edit: try await randomEdit()
                case .sync(let i): try await sync(i)
                case .kill(let i): try await sync(i, killedAt: Int.random(in: 1...(workbook.kind == .csv ? 24 : 8), using: &rng))
                case .saveDuring(let i): try await syncWhileThePersonSaves(i)
                case .heldWrite(let i): try await syncWithItsWriteHeld(i)
                case .retriedWrite(let i): try await syncWhoseWriteIsRetried(i)
                }
            }
        }
        trace.append("converging")
        let passes = Int(ProcessInfo.processInfo.environment["SHEETSYNC_MULTIWRITER_PASSES"] ?? "") ?? 2
        for _ in 1...max(passes, 1) {
            for i in machines.indices {
                tick()
                try await sync(i)
            }
        }
        // Rows held back as an older copy's lack (65, said to the user) go back to the workbook, and
        // the writers who deleted them delete them again: that takes up to two more rounds.
        for extra in 1...2 where heldAsOldCopy {
            do {
                try checkConverged()
                break
            } catch {
                trace.append("round \(passes + extra) of converging: a run held rows back as an older copy's lack")
                for i in machines.indices {
                    tick()
                    try await sync(i)
                }
            }
        }
        try checkConverged()
        try checkRows()
        try checkNoLostUpdate()
        trace.append("quiet round")
        let settled = try workbook.bytes()
        let stores = try machines.map { try $0.rows() }
        for i in machines.indices {
            tick()
            try await sync(i)
            for (file, bytes) in try workbook.bytes() where settled[file] != bytes {
                throw fail(
                    "invariant 4 (quiet): \(machines[i].name)'s sync after convergence rewrote \(file):\n"
                        + "before:\n\(String(decoding: settled[file] ?? Data(), as: UTF8.self))\nafter:\n\(String(decoding: bytes, as: UTF8.self))"
                )
            }
            for (j, machine) in machines.enumerated() where try machine.rows() != stores[j] {
                throw fail("invariant 4 (quiet): \(machines[i].name)'s sync after convergence changed \(machine.name)'s store")
            }
        }
    }

    /// Whether cases also hold a run's write while another writer acts, or make it wait for a retry
    /// while the person edits: Google cases do (the emulator holds and answers 503 at exact points);
    /// `SHEETSYNC_MULTIWRITER_GOOGLE_INTERLEAVINGS=0` leaves them out, to replay a seed of a run made
    /// without them.
    var interleavesGoogleWrites: Bool {
        workbook.kind == .google && ProcessInfo.processInfo.environment["SHEETSYNC_MULTIWRITER_GOOGLE_INTERLEAVINGS"] != "0"
    }

    /// All clocks move on together.
    mutating func tick() {
        let step = Int64.random(in: 1000...120_000, using: &rng)
        person.clock.advance(milliseconds: step)
        workbook.advance(milliseconds: step)
        for machine in machines { machine.clock.advance(milliseconds: step) }
    }

    /// A time as seconds after the start on the person's clock.
    static func t(_ time: Timestamp) -> String {
        "t+\(Double(time.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 1000)s"
    }

    static func short(_ key: String) -> String { String(key.prefix(8)) }

    static func fixedFields(_ row: LedgerRow) -> [String: String] {
        row.fields.filter { !changing.contains($0.key) }
    }

    /// A value no other edit writes: a note naming its row, or an amount.
    mutating func newValue(_ field: String, for key: String) -> String {
        counter += 1
        return field == "note" ? "n-\(Self.short(key))-\(counter)" : String(format: "%d.%02d", 100 + counter, counter % 100)
    }

    mutating func record(_ key: String, _ field: String, _ value: String, replacing old: String?, stamp: Timestamp, by: String) {
        written[key, default: [:]][field, default: []].insert(value)
        edits[key, default: []].append(
            Edit(field: field, value: value, stamp: stamp, real: person.clock.now(), by: by, replaced: old))
    }

    // MARK: edits

    mutating func randomEdit() async throws {
        let who = Int.random(in: 0...machines.count, using: &rng)
        let what = Int.random(in: 0..<10, using: &rng)
        if who == machines.count {
            try handAction(what)
        } else {
            switch what {
            case 0..<6: try storeEdit(machines[who])
            case 6..<8: try storeAdd(machines[who])
            case _ where deletes < Self.maxDeletes: try storeDelete(machines[who])
            default: try storeEdit(machines[who])
            }
        }
    }

    /// One of the person's edits, by a number drawn in 0..<10.
    mutating func handAction(_ what: Int) throws {
        switch what {
        case 0..<4: try handEdit()
        case 4: try handRetype()
        case 5..<7: try handTypedRow()
        case 7..<9 where deletes < Self.maxDeletes: try handDelete()
        case 9: try handSort()
        default: try handEdit()
        }
    }

    mutating func storeEdit(_ machine: MultiWriterMachine) throws {
        let rows = try machine.store.records(in: .transactions)
        guard !rows.isEmpty else { return }
        var row = rows[Int.random(in: rows.indices, using: &rng)]
        let key = row[.transactionId], field = Bool.random(using: &rng) ? "note" : "amount"
        let value = newValue(field, for: key), now = machine.clock.now(), old = row[named: field]
        row[named: field] = value
        row[.lastModifiedAt] = now.description
        try machine.store.upsert(row, in: .transactions)
        record(key, field, value, replacing: old, stamp: now, by: machine.name)
        trace.append("\(Self.t(person.clock.now())) \(machine.name) edits \(field) of \(Self.short(key)) to \(value) (stamp \(now))")
    }

    mutating func storeAdd(_ machine: MultiWriterMachine) throws {
        let rows = try machine.store.records(in: .transactions)
        guard !rows.isEmpty else { return }
        var row = rows[Int.random(in: rows.indices, using: &rng)]
        let key = ids.next(), now = machine.clock.now()
        let note = newValue("note", for: key), amount = newValue("amount", for: key)
        row[.transactionId] = key
        row[.note] = note
        row[.amount] = amount
        row[.recurringRuleId] = ""
        row[.createdAt] = now.description
        row[.lastModifiedAt] = now.description
        try machine.store.upsert(row, in: .transactions)
        fixed[key] = Self.fixedFields(row)
        record(key, "note", note, replacing: nil, stamp: now, by: machine.name)
        record(key, "amount", amount, replacing: nil, stamp: now, by: machine.name)
        trace.append("\(Self.t(person.clock.now())) \(machine.name) adds \(Self.short(key)) (\(note), \(amount)) (stamp \(now))")
    }

    mutating func storeDelete(_ machine: MultiWriterMachine) throws {
        let rows = try machine.store.records(in: .transactions).filter { !withReceipts.contains($0[.transactionId]) }
        guard !rows.isEmpty else { return }
        let row = rows[Int.random(in: rows.indices, using: &rng)], key = row[.transactionId]
        try machine.store.delete(key: key, in: .transactions)
        deletes += 1
        deleted[key, default: []].append(Delete(at: person.clock.now(), by: machine.name, saw: [row[.note], row[.amount]]))
        trace.append("\(Self.t(person.clock.now())) \(machine.name) deletes \(Self.short(key))")
    }

    mutating func handEdit() throws {
        let table = try person.table()
        let keys = table.rows.map { MultiWriterPerson.cell($0, "transactionId", in: table) }.filter { !$0.isEmpty }
        guard !keys.isEmpty else { return }
        let key = keys[Int.random(in: keys.indices, using: &rng)], field = Bool.random(using: &rng) ? "note" : "amount"
        let value = newValue(field, for: key), old = try sheet()[key]?[named: field]
        try person.make(.type(key: key, column: field, text: value))
        record(key, field, value, replacing: old, stamp: person.clock.now(), by: "person")
        trace.append("\(Self.t(person.clock.now())) person sets \(field) of \(Self.short(key)) to \(value)")
    }

    /// The person types a cell's value again, the way people type it: the same note, an amount without
    /// its trailing zeros. Not an edit: nothing may change because of it.
    mutating func handRetype() throws {
        let rows = try sheet()
        // A row typed without an id has none to find it by (the person would retype that row only).
        guard let key = rows.keys.filter({ !$0.isEmpty }).sorted().randomElement(using: &rng), let row = rows[key] else { return }
        let field = Bool.random(using: &rng) ? "note" : "amount"
        var text = row[named: field]
        if field == "amount", text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        try person.make(.type(key: key, column: field, text: text))
        trace.append("\(Self.t(person.clock.now())) person retypes \(field) of \(Self.short(key)) as \(text)")
    }

    mutating func handTypedRow() throws {
        let table = try person.table()
        let keys = table.rows.map { MultiWriterPerson.cell($0, "transactionId", in: table) }.filter { fixed[$0] != nil }
        guard !keys.isEmpty else { return }
        let template = keys[Int.random(in: keys.indices, using: &rng)]
        let at = Int.random(in: 0...table.rows.count, using: &rng)
        counter += 1
        let note = "h-\(counter)", amount = newValue("amount", for: "")
        var fields = fixed[template]!
        fields["recurringRuleId"] = ""
        typed[note] = TypedRow(note: note, amount: amount, fixed: fields, at: person.clock.now())
        var cells: [String: String] = [:]
        for field in Tab.transactions.schema.fields { cells[field.header] = fields[field.name] }
        cells["note"] = note
        cells["amount"] = amount
        try person.make(.insertRow(at: at, cells: cells))
        trace.append("\(Self.t(person.clock.now())) person types a row at \(at) (\(note), \(amount)) like \(Self.short(template))")
    }

    mutating func handDelete() throws {
        let table = try person.table()
        let rows = table.rows.indices.filter { !withReceipts.contains(MultiWriterPerson.cell(table.rows[$0], "transactionId", in: table)) }
        guard !rows.isEmpty else { return }
        let at = rows[Int.random(in: rows.indices, using: &rng)]
        let key = MultiWriterPerson.cell(table.rows[at], "transactionId", in: table)
        let note = MultiWriterPerson.cell(table.rows[at], "note", in: table)
        let saw = try sheet()[key].map { [$0[.note], $0[.amount]] } ?? []
        try person.make(.deleteRow(at: at))
        if key.isEmpty {
            typed.removeValue(forKey: note)
            trace.append("\(Self.t(person.clock.now())) person deletes the typed row \(note) (no id yet)")
        } else {
            deletes += 1
            deleted[key, default: []].append(Delete(at: person.clock.now(), by: "person", saw: saw))
            trace.append("\(Self.t(person.clock.now())) person deletes \(Self.short(key))")
        }
    }

    mutating func handSort() throws {
        let column = ["note", "amount", "date"][Int.random(in: 0..<3, using: &rng)]
        try person.make(.sort(column: column))
        trace.append("\(Self.t(person.clock.now())) person sorts by \(column)")
    }

    // MARK: syncing

    /// A machine's sync during which the person saves an edit of a cell (chosen from the workbook as the
    /// run starts), landing between the run's read and its first file replacement: as its new version is
    /// flushed, or just after the run found the file as it read it.
    mutating func syncWhileThePersonSaves(_ i: Int) async throws {
        let table = try person.table()
        let keys = table.rows.map { MultiWriterPerson.cell($0, "transactionId", in: table) }.filter { !$0.isEmpty }
        guard !keys.isEmpty else { return try await sync(i) }
        let key = keys[Int.random(in: keys.indices, using: &rng)], field = Bool.random(using: &rng) ? "note" : "amount"
        let value = newValue(field, for: key), old = try sheet()[key]?[named: field]
        let step: AtomicWriteStep = Bool.random(using: &rng) ? .tempSynced : .checked
        let person = self.person
        let save = ModelWorkbook.SaveDuringRun(at: step, in: workbook) { try person.make(.type(key: key, column: field, text: value)) }
        trace.append(
            "\(Self.t(person.clock.now())) person sets \(field) of \(Self.short(key)) to \(value) during the next run (at \(step))")
        // Known before the run's checks read the workbook; taken back if no save landed.
        record(key, field, value, replacing: old, stamp: person.clock.now(), by: "person")
        try await sync(i, saving: save)
        if save.savedBytes != nil {
            savesDuringRuns += 1
        } else {
            edits[key]?.removeLast()
            written[key]?[field]?.remove(value)
            trace.append("  (the run replaced no file: no save landed in it)")
        }
    }

    /// A machine's sync; with `killedAt`, one killed at that step of its file replacements; with
    /// `save`, one during which a person's save lands.
    mutating func sync(_ i: Int, killedAt: Int? = nil, saving save: ModelWorkbook.SaveDuringRun? = nil) async throws {
        try took(i, try await machines[i].sync(killedAt: killedAt, saving: save))
    }

    /// A machine's sync (Google mode) whose first write batch is held in the emulator while another
    /// machine syncs whole or the person makes an edit; then the write goes on.
    mutating func syncWithItsWriteHeld(_ i: Int) async throws {
        guard let emulator = workbook.emulator else { return try await sync(i) }
        counter += 1
        let gate = "held-\(counter)", others = machines.indices.filter { $0 != i }
        let other = Int.random(in: 0...others.count, using: &rng), what = Int.random(in: 0..<10, using: &rng)
        let (machine, done) = (machines[i], Flag())
        let run = Task {
            defer { done.set() }
            return try await machine.sync(interleaving: .held(gate: gate))
        }
        // A run with nothing to write never reaches the gate.
        while !emulator.isHeld(at: gate), !done.isSet { try await Task.sleep(for: .milliseconds(2)) }
        let heldAt = person.clock.now(), before = edits.mapValues(\.count)
        if !done.isSet {
            trace.append("\(Self.t(heldAt)) \(machine.name)'s write is held; meanwhile:")
            tick()
            if other < others.count { try await sync(others[other]) } else { try handAction(what) }
        }
        emulator.open(gate: gate)
        let outcome = try await run.value
        try overwrittenInFlight(by: machine.name, heldAt: heldAt, editsBefore: before)
        try took(i, outcome)
    }

    /// The window Google leaves (docs/several-writers.md): a cell the person typed into a row after a
    /// machine's write was aimed and before Google applied it is overwritten by that write when the
    /// machine changed the same field (or deleted the row), and nothing can log it. Recorded as an edit
    /// of the machine's overwriting the person's (or a delete that saw it).
    mutating func overwrittenInFlight(by name: String, heldAt: Timestamp, editsBefore before: [String: Int]) throws {
        let sheet = try sheet()
        for (key, list) in edits {
            for edit in list.dropFirst(before[key] ?? 0) where edit.by == "person" {
                if sheet[key] == nil, (deleted[key] ?? []).contains(where: { $0.by == name && $0.at < heldAt }) {
                    deleted[key, default: []].append(Delete(at: person.clock.now(), by: name, saw: [edit.value]))
                    trace.append(
                        "  (\(name)'s delete, on its way, took the person's \(edit.field) of \(Self.short(key)) with the row: the window Google leaves)"
                    )
                    continue
                }
                guard let now = sheet[key]?[named: edit.field], now != edit.value,
                    let pending = list.last(where: { $0.by == name && $0.field == edit.field && $0.value == now && $0.real < heldAt })
                else { continue }
                edits[key, default: []].append(
                    Edit(field: edit.field, value: now, stamp: pending.stamp, real: person.clock.now(), by: name, replaced: edit.value))
                trace.append(
                    "  (\(name)'s write, on its way, overwrote the person's \(edit.field) of \(Self.short(key)): the window Google leaves)")
            }
        }
    }

    /// A machine's sync (Google mode) whose first write batch is answered 503 with `Retry-After`; during
    /// the wait the person sets a cell (the write is aimed again before it is re-sent).
    mutating func syncWhoseWriteIsRetried(_ i: Int) async throws {
        guard let emulator = workbook.emulator else { return try await sync(i) }
        let table = try person.table()
        let keys = table.rows.map { MultiWriterPerson.cell($0, "transactionId", in: table) }.filter { !$0.isEmpty }
        guard !keys.isEmpty else { return try await sync(i) }
        let key = keys[Int.random(in: keys.indices, using: &rng)], field = Bool.random(using: &rng) ? "note" : "amount"
        let value = newValue(field, for: key), old = try sheet()[key]?[named: field]
        let (person, typed) = (self.person, Flag())
        let waiting = WhileWaiting(seconds: 5, now: emulator.now) {
            if (try? person.make(.type(key: key, column: field, text: value))) != nil { typed.set() }
        }
        trace.append(
            "\(Self.t(person.clock.now())) person sets \(field) of \(Self.short(key)) to \(value) while \(machines[i].name)'s write waits for its retry"
        )
        record(key, field, value, replacing: old, stamp: person.clock.now(), by: "person")
        let outcome = try await machines[i].sync(interleaving: .retried(waiting))
        if !typed.isSet {
            edits[key]?.removeLast()
            written[key]?[field]?.remove(value)
            trace.append("  (no write waited for a retry: the person typed nothing)")
        }
        try took(i, outcome)
    }

    /// What a machine's finished run left: its outcome in the trace, and the checks every sync is followed by.
    mutating func took(_ i: Int, _ outcome: MultiWriterMachine.Outcome) throws {
        let machine = machines[i]
        if case .killed = outcome { kills += 1 }
        if case .heldBack(let errors) = outcome, errors.contains(where: { $0.code == .olderCopy }) {
            heldAsOldCopy = true
        }
        trace.append("\(Self.t(person.clock.now())) \(machine.name) syncs (clock \(machine.clock.now())): \(outcome.summary)")
        if case .stopped(let error) = outcome, error.exitCode != .dataError && error.exitCode != .temporaryFailure {
            throw fail("\(machine.name)'s sync failed with \(error.exitCode.rawValue): \(error.message)")
        }
        if ProcessInfo.processInfo.environment["SHEETSYNC_MULTIWRITER_DUMP"] != nil { try dump() }
        // Each side read once: nothing writes to the workbook or a store between these checks.
        let sheet = try sheet()
        try bindTypedRows(in: sheet, where: "the sheet")
        var synced: [String: LedgerRow] = [:]
        for other in machines {
            let rows = try other.rows()
            try bindTypedRows(in: rows, where: "\(other.name)'s store")
            if other.name == machine.name { synced = rows }
        }
        try checkValues(in: sheet, where: "the sheet")
        try checkValues(in: synced, where: "\(machine.name)'s store")
    }

    /// Gives the rows typed without an id the ids sync gave them; any other unknown id is a stray row.
    mutating func bindTypedRows(in rows: [String: LedgerRow], where place: String) throws {
        for (key, row) in rows.sorted(by: { $0.key < $1.key }) where !key.isEmpty && fixed[key] == nil {
            guard let typedRow = typed.removeValue(forKey: row[.note]) else {
                throw fail("invariant 2 (stray row): \(place) has a row \(key) no writer made: \(row.fields.sorted { $0.key < $1.key })")
            }
            fixed[key] = typedRow.fixed
            written[key] = ["note": [typedRow.note], "amount": [typedRow.amount]]
            edits[key] = ["note", "amount"].map {
                Edit(
                    field: $0, value: $0 == "note" ? typedRow.note : typedRow.amount, stamp: typedRow.at, real: typedRow.at,
                    by: "person", replaced: nil)
            }
            trace.append("  the typed row \(typedRow.note) has id \(key) (\(place))")
        }
    }

    // MARK: checks

    /// Invariant 2 for some rows: every value was written for its row, every other field is the row's own.
    func checkValues(in rows: [String: LedgerRow], where place: String) throws {
        // A typed row waits for its id until a sync gets that far (one killed before may not have).
        for (key, row) in rows.sorted(by: { $0.key < $1.key }) where !key.isEmpty {
            guard let own = fixed[key] else { throw fail("invariant 2 (stray row): \(place) has a row \(key) no writer made") }
            for field in ["note", "amount"] where written[key]?[field]?.contains(row[named: field]) != true {
                throw fail(
                    "invariant 2 (value on another row): \(place) has \(field) '\(row[named: field])' on \(key), written for it: "
                        + "\(written[key]?[field]?.sorted() ?? [])\n\(describe(key))")
            }
            let now = Self.fixedFields(row)
            guard now == own else {
                throw fail(
                    "invariant 2 (fields changed): \(place) has \(key) as \(now.sorted { $0.key < $1.key }), made as \(own.sorted { $0.key < $1.key })"
                )
            }
        }
    }

    /// Invariant 1: the sheet and every store agree, nothing is rejected, every file row loads.
    func checkConverged() throws {
        let sheet = try sheet()
        for machine in machines {
            let rows = try machine.rows()
            for key in Set(rows.keys).union(sheet.keys).sorted() where rows[key] != sheet[key] {
                throw fail(
                    "invariant 1 (convergence): \(machine.name)'s store and the sheet differ on \(key):\n"
                        + "store \(rows[key].map(Self.show) ?? "-")\nsheet \(sheet[key].map(Self.show) ?? "-")\n\(describe(key))")
            }
            let rejected = try machine.store.rejectedRows()
            if !rejected.isEmpty { throw fail("invariant 1 (convergence): \(machine.name) holds rejected rows \(rejected)") }
        }
        let table = try person.table()
        let ids = table.rows.map { MultiWriterPerson.cell($0, "transactionId", in: table) }
        if ids.contains("") || Set(ids).count != ids.count || ids.count != sheet.count {
            let blank = table.rows.filter { MultiWriterPerson.cell($0, "transactionId", in: table).isEmpty }.map { $0.map(\.rawText) }
            throw fail(
                "invariant 2 (stray row): the Transactions tab has \(ids.count) rows, ids \(ids.sorted()), \(sheet.count) load; "
                    + "rows without an id: \(blank)")
        }
    }

    /// Invariant 2 on the converged sheet (values on their rows, no stray row, no row lost), and
    /// invariant 3 on the rows gone: an edit no delete saw, still standing, keeps its row.
    func checkRows() throws {
        let sheet = try sheet()
        try checkValues(in: sheet, where: "the sheet")
        let lost = try losingValues(), winners = try winners()
        for key in fixed.keys.sorted() where sheet[key] == nil {
            guard deleted[key] != nil else {
                throw fail("invariant 2 (lost row): nobody deleted \(key), and it is gone\n\(describe(key))")
            }
            // An edit overwritten since, or logged as a conflict's loser, has had its say.
            let overwritten = Set((edits[key] ?? []).compactMap(\.replaced))
            if let edit = unseen(key, winners: winners).first(where: {
                !lost.contains(key + "\u{0}" + $0.value) && !overwritten.contains($0.value)
            }) {
                throw fail(
                    "invariant 3 (an edit beats a delete): no delete of \(key) saw \(edit.by)'s \(edit.field) '\(edit.value)', "
                        + "and the row is gone\n\(describe(key))")
            }
        }
        if let lost = typed.keys.sorted().first {
            throw fail("invariant 2 (lost row): the row typed as \(lost) was not deleted, and is not in the sheet")
        }
    }

    /// Invariant 3 on the rows still there: of the edits no delete saw (`unseen`), each value is the
    /// final one, or was overwritten by a writer who saw it, or lost a conflict and is in a store's
    /// conflict log; and the final value is not one of them overwrote (unless that edit, or a later edit
    /// overwriting it, lost a conflict: the value comes back with the version it lost to).
    func checkNoLostUpdate() throws {
        let sheet = try sheet()
        let lost = try losingValues(), winners = try winners()
        for (key, row) in sheet.sorted(by: { $0.key < $1.key }) {
            let unseen = unseen(key, winners: winners)
            for field in ["note", "amount"] {
                let made = unseen.filter { $0.field == field }
                let overwritten = Set(made.compactMap(\.replaced))
                // What an edit overwrote may come back with the version that edit lost to (logged), or
                // that a later edit overwriting it lost to: a whole row taken from the later side (a
                // store without the row's base) carries the value that line of edits began from.
                var lostLine = Set(made.map(\.value).filter { lost.contains(key + "\u{0}" + $0) })
                while true {
                    let more = Set(made.filter { lostLine.contains($0.value) }.compactMap(\.replaced)).subtracting(lostLine)
                    if more.isEmpty { break }
                    lostLine.formUnion(more)
                }
                let overwrittenForGood = Set(made.filter { !lostLine.contains($0.value) }.compactMap(\.replaced))
                if overwrittenForGood.contains(row[named: field]) {
                    throw fail(
                        "invariant 3 (overwritten value back): \(key) has \(field) '\(row[named: field])', which a later edit overwrote\n\(describe(key))"
                    )
                }
                for edit in made
                where edit.value != row[named: field] && !overwritten.contains(edit.value) && !lost.contains(key + "\u{0}" + edit.value) {
                    throw fail(
                        "invariant 3 (lost update): \(key) has \(field) '\(row[named: field])'; the edit by \(edit.by) at \(Self.t(edit.real)) "
                            + "(stamp \(edit.stamp)) wrote '\(edit.value)', which nobody overwrote, and no conflict log has it\n\(describe(key))"
                    )
                }
            }
        }
    }

    /// Every side's rows, one line a row (the trace shows them after each sync with
    /// `SHEETSYNC_MULTIWRITER_DUMP=1`).
    mutating func dump() throws {
        var sides = [("sheet", try sheet())]
        for machine in machines { sides.append((machine.name, try machine.rows())) }
        for (name, rows) in sides {
            for (key, row) in rows.sorted(by: { $0.key < $1.key }) {
                trace.append("    \(name) \(Self.short(key)): \(Self.show(row))")
            }
        }
    }

    /// The row's edits no delete of it saw (all of them when nobody deleted it): neither values a
    /// deleter's copy held nor values those overwrote, nor values that lost a conflict to one of them
    /// (`winners`: a row's losing value → the values it lost to), however many edits back.
    func unseen(_ key: String, winners: [String: [String: Set<String>]]) -> [Edit] {
        let all = edits[key] ?? []
        let lostTo = winners[key] ?? [:]
        var seen = Set((deleted[key] ?? []).flatMap(\.saw))
        while true {
            var more = Set(all.filter { seen.contains($0.value) }.compactMap(\.replaced))
            more.formUnion(all.map(\.value).filter { !(lostTo[$0] ?? []).isDisjoint(with: seen) })
            more.subtract(seen)
            if more.isEmpty { break }
            seen.formUnion(more)
        }
        return all.filter { !seen.contains($0.value) }
    }

    /// Every store's conflict log: key and losing value.
    func losingValues() throws -> Set<String> {
        Set(try conflicts().map { $0.key + "\u{0}" + $0.losingValue })
    }

    /// Every store's conflict log by key: each losing value and the values it lost to.
    func winners() throws -> [String: [String: Set<String>]] {
        var out: [String: [String: Set<String>]] = [:]
        for conflict in try conflicts() { out[conflict.key, default: [:]][conflict.losingValue, default: []].insert(conflict.winningValue) }
        return out
    }

    func conflicts() throws -> [Conflict] {
        try machines.flatMap { try $0.store.conflicts(limit: 10_000) }
    }

    static func show(_ row: LedgerRow) -> String {
        "note '\(row[.note].replacingOccurrences(of: "\n", with: "\\n"))' amount \(row[.amount]) lastModifiedAt \(row[.lastModifiedAt])"
    }

    /// What every side holds of a row, its edits and its conflicts.
    func describe(_ key: String) -> String {
        var lines: [String] = []
        let sheet = try? sheet()
        lines.append("  sheet: \(sheet?[key].map(Self.show) ?? "-")")
        for machine in machines {
            let row = (try? machine.rows())?[key]
            lines.append("  \(machine.name): \(row.map(Self.show) ?? "-")")
            for c in (try? machine.store.conflicts(limit: 10_000)) ?? [] where c.key == key {
                lines.append(
                    "    \(machine.name) logged: \(c.field) '\(c.losingValue)' (\(c.losingModifiedAt)) lost to '\(c.winningValue)' (\(c.winningModifiedAt))"
                )
            }
        }
        for edit in edits[key] ?? [] {
            lines.append(
                "  edit at \(Self.t(edit.real)) by \(edit.by): \(edit.field) '\(edit.replaced ?? "-")' -> '\(edit.value)' stamp \(edit.stamp)"
            )
        }
        for delete in deleted[key] ?? [] {
            lines.append("  deleted at \(Self.t(delete.at)) by \(delete.by), whose copy held \(delete.saw)")
        }
        return lines.joined(separator: "\n")
    }
}
