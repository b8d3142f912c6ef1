import Foundation
import GoogleAPI
import Interchange
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Synchronization
import Testing

/// One spreadsheet with several writers: two machines' stores and a person editing in the browser, each
/// acting at an exact point of another's run (a gate held in the emulator, or the wait before a retry),
/// never at a moment guessed with the clock.
@Suite struct SeveralWritersGoogleTests {
    /// Two machines (two stores) on one spreadsheet, both synced with the seeded ledger.
    struct TwoMachines {
        let a: GoogleTestBed
        let b: GoogleTestBed
        let keys: [String]

        static func start(_ name: String) async throws -> TwoMachines {
            let a = try await GoogleTestBed.start(name + "-a")
            let keys = try GoogleSeed.ledger(in: a, transactions: 4, ids: SeededIDs(seed: 31))
            let b = try await GoogleTestBed.start(name + "-b", sharing: a)
            try b.writeConfig(spreadsheetId: try a.spreadsheetId())
            let machines = TwoMachines(a: a, b: b, keys: keys)
            _ = try await machines.sync(a)
            _ = try await machines.sync(b)
            return machines
        }

        @discardableResult
        func sync(_ bed: GoogleTestBed, clock: any APIClock = ManualAPIClock(now: Date())) async throws -> SyncReport {
            try await bed.sync(try bed.remote(clock: clock))
        }

        func finish() async {
            await b.finish()
            await a.finish()
        }

        /// Edits `key`'s row in `bed`'s store as an edit made there on 2 February 2026 (older than any
        /// hand edit the tests make, which Drive dates now).
        func editInStore(_ bed: GoogleTestBed, _ key: String, _ fields: [FieldKey: String]) throws {
            let store = try bed.store()
            var row = try #require(try store.records(in: .transactions).first { $0[.transactionId] == key })
            for (field, value) in fields { row[field] = value }
            row[.lastModifiedAt] = "2026-02-02T00:00:00.000Z"
            try store.upsert(row, in: .transactions)
        }
    }

    /// A waits for its write to be answered while a person types into the sheet and B syncs: the version
    /// A saw after its write already held both, unread, and A said "up to date" for ever after. Now
    /// A's next run reads them. (B's write, made after A verified its rows, also moved the write token:
    /// A's write is refused whole, 75, and its next run writes it.)
    @Test func changesOthersMakeWhileAWriteWaitsAreReadByTheNextRun() async throws {
        let machines = try await TwoMachines.start("g-writers-wait")
        let (a, b) = (machines.a, machines.b)
        try GoogleSeed.storeTransactions(a, count: 1, ids: SeededIDs(seed: 41), note: { _ in "from a" })
        try GoogleSeed.storeTransactions(b, count: 1, ids: SeededIDs(seed: 42), note: { _ in "from b" })
        let id = try a.spreadsheetId(), note = try a.column("note", in: .transactions)
        let typed = try #require(try a.rowIndex(of: machines.keys[1], in: .transactions))
        for withMachine in [false, true] {
            // Something of A's own to write in each round.
            if withMachine { try GoogleSeed.storeTransactions(a, count: 1, ids: SeededIDs(seed: 43), note: { _ in "from a again" }) }
            a.emulator.resetCounters()
            a.emulator.injectFault(.hold(gate: "a-write-\(withMachine)"), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
            let first = Task { try await machines.sync(a) }
            while !a.emulator.isHeld(at: "a-write-\(withMachine)") { try await Task.sleep(for: .milliseconds(10)) }
            if withMachine {
                try await machines.sync(b)
            } else {
                try a.emulator.typeCell(
                    spreadsheetId: id, tab: Tab.transactions.rawValue, at: GoogleTestBed.a1(row: typed, column: note),
                    text: "typed meanwhile")
            }
            a.emulator.open(gate: "a-write-\(withMachine)")
            var outcome: Int32 = 0
            do { _ = try await first.value } catch let error as SheetSyncError { outcome = error.exitCode.rawValue }
            #expect(outcome == (withMachine ? 75 : 0))
            let second = try await machines.sync(a)
            #expect(!second.upToDate, "the version A recorded held a change A never read")
            if withMachine { try await machines.sync(a) }
            let sheet = try a.sheetRecords(.transactions), store = try a.storeRecords(.transactions)
            #expect(store == sheet, "A's store lacks what others wrote: \(Set(sheet.keys).subtracting(store.keys))")
            #expect(store[machines.keys[1]]?[.note] == "typed meanwhile")
            if withMachine { #expect(Set(sheet.values.map { $0[.note] }).isSuperset(of: ["from a", "from b"])) }
        }
        await machines.finish()
    }

    /// A person deletes a row while sheetsync's write waits for its retry (429/503 with Retry-After):
    /// the retry is never sent to positions read before the delete, so the edit lands on its own row
    /// and the row below keeps its values, in the sheet and in both stores.
    @Test(arguments: [503, 429])
    func aRowDeletedWhileAWriteWaitsForItsRetryPutsNoValueOnAnotherRow(status: Int) async throws {
        let machines = try await TwoMachines.start("g-writers-retry-\(status)")
        let a = machines.a
        let (edited, below) = (machines.keys[2], machines.keys[3])
        try machines.editInStore(a, edited, [.note: "edited in the store", .amount: "999.99"])
        let belowBefore = try #require(try a.sheetRecords(.transactions)[below])

        a.emulator.resetCounters()
        a.emulator.injectFault(.status(status, retryAfter: 6), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let id = try a.spreadsheetId()
        // The person deletes data row 1 while the write waits the 6 s Google asked for.
        let person = WhileWaiting(seconds: 5) {
            try? a.emulator.deleteRow(spreadsheetId: id, tab: Tab.transactions.rawValue, at: 1)
        }
        var outcome: Int32 = 0
        do {
            try await machines.sync(a, clock: person)
        } catch let error as SheetSyncError {
            outcome = error.exitCode.rawValue
        }
        #expect(person.acted, "the write was never retried")
        #expect(outcome == 0 || outcome == 75)

        let sheet = try a.sheetRecords(.transactions)
        #expect(sheet[below] == belowBefore, "the row below took the edit: \(sheet[below].map { "\($0)" } ?? "gone")")
        #expect(sheet[machines.keys[0]] == nil, "the person's delete stands")
        // The next runs converge on both machines with nothing misplaced.
        for bed in [a, machines.b, a] { try await machines.sync(bed) }
        let final = try a.sheetRecords(.transactions)
        #expect(final[edited]?[.note] == "edited in the store" && final[edited]?[.amount] == "999.99")
        #expect(final[below] == belowBefore)
        #expect(try a.storeRecords(.transactions) == final)
        #expect(try machines.b.storeRecords(.transactions) == final)
        await machines.finish()
    }
}

extension SeveralWritersGoogleTests {
    /// A person types into the very row sheetsync is writing while the write waits for its retry (503
    /// with Retry-After): the retry would overwrite what they typed, with nothing logged. It is not sent
    /// (75, nothing recorded); the person's cell stays in the sheet, the store keeps its own edit, and the
    /// next runs merge them by time, the loser kept in the conflict log.
    @Test func aCellTypedIntoTheWrittenRowWhileTheWriteWaitsForItsRetryIsNeverOverwritten() async throws {
        let machines = try await TwoMachines.start("g-writers-retry-typed")
        let a = machines.a
        let edited = machines.keys[2]
        let store = try a.store()
        try machines.editInStore(a, edited, [.note: "edited in the store"])
        let sheetBefore = try a.sheetRecords(.transactions)
        let id = try a.spreadsheetId(), note = try a.column("note", in: .transactions)
        let typedRow = try #require(try a.rowIndex(of: edited, in: .transactions))

        a.emulator.resetCounters()
        a.emulator.injectFault(.status(503, retryAfter: 6), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let person = WhileWaiting(seconds: 5) {
            try? a.emulator.typeCell(
                spreadsheetId: id, tab: Tab.transactions.rawValue, at: GoogleTestBed.a1(row: typedRow, column: note),
                text: "typed during the wait")
        }
        var outcome: Int32 = 0
        do { try await machines.sync(a, clock: person) } catch let error as SheetSyncError { outcome = error.exitCode.rawValue }
        #expect(person.acted, "the write was never retried")
        #expect(outcome == 75, "the retry went out over the typed cell")
        var expected = sheetBefore
        expected[edited]?[.note] = "typed during the wait"
        #expect(try a.sheetRecords(.transactions) == expected, "the re-sent write overwrote what the person typed")
        #expect(try a.storeRecords(.transactions)[edited]?[.note] == "edited in the store")

        // The typed cell is newer than the store's edit (2026-02-02): it wins, the store's note is logged.
        for bed in [a, machines.b, a] { try await machines.sync(bed) }
        let final = try a.sheetRecords(.transactions)
        #expect(final[edited]?[.note] == "typed during the wait")
        #expect(try a.storeRecords(.transactions) == final)
        #expect(try machines.b.storeRecords(.transactions) == final)
        #expect(try store.conflicts(limit: 10).contains { $0.key == edited && $0.losingValue == "edited in the store" })
        await machines.finish()
    }
}

extension SeveralWritersGoogleTests {
    /// A person types into a row sheetsync is about to write, after the run read the sheet and before
    /// it checks where its rows are (held here at that check): the write would overwrite what they
    /// typed, unread. Nothing is written (75); the typed cell stays, the store keeps its edit, and the
    /// next runs merge them by time, the loser kept in the conflict log. So what is left of Google's
    /// window is the moment between that check and Google applying the write.
    @Test(arguments: ["note", "amount"])
    func aCellTypedIntoARowAfterTheReadAndBeforeTheWriteIsNeverOverwritten(typedField: String) async throws {
        let machines = try await TwoMachines.start("g-writers-before-write-\(typedField)")
        let a = machines.a
        let edited = machines.keys[2]
        try machines.editInStore(a, edited, [.note: "edited in the store"])
        let sheetBefore = try a.sheetRecords(.transactions)
        let id = try a.spreadsheetId(), column = try a.column(typedField, in: .transactions)
        let typedRow = try #require(try a.rowIndex(of: edited, in: .transactions))
        let typed = typedField == "note" ? "typed before the write" : "77.7"

        a.emulator.resetCounters()
        a.emulator.injectFault(.hold(gate: "check"), at: .endpoint("sheets.spreadsheets.get", occurrence: 1))
        let run = Task { try await machines.sync(a) }
        while !a.emulator.isHeld(at: "check") { try await Task.sleep(for: .milliseconds(10)) }
        try a.emulator.typeCell(
            spreadsheetId: id, tab: Tab.transactions.rawValue, at: GoogleTestBed.a1(row: typedRow, column: column), text: typed)
        a.emulator.open(gate: "check")
        var outcome: Int32 = 0
        do { _ = try await run.value } catch let error as SheetSyncError { outcome = error.exitCode.rawValue }
        #expect(outcome == 75, "the write went out over the typed cell")
        var expected = sheetBefore
        expected[edited]?[named: typedField] = typedField == "note" ? typed : "77.70"
        #expect(try a.sheetRecords(.transactions) == expected, "the write overwrote what the person typed")
        #expect(try a.storeRecords(.transactions)[edited]?[.note] == "edited in the store")

        for bed in [a, machines.b, a] { try await machines.sync(bed) }
        let final = try a.sheetRecords(.transactions)
        #expect(final[edited]?[named: typedField] == expected[edited]?[named: typedField])
        #expect(try a.storeRecords(.transactions) == final)
        #expect(try machines.b.storeRecords(.transactions) == final)
        if typedField == "note" {
            #expect(try a.store().conflicts(limit: 10).contains { $0.key == edited && $0.losingValue == "edited in the store" })
        } else {
            #expect(final[edited]?[.note] == "edited in the store", "fields edited apart merge")
        }
        await machines.finish()
    }

    /// A's write is on its way (its row positions verified) when B's sync deletes a row above A's edit:
    /// A's write must not land on the row below. It is refused whole (the sheetsync write token B moved),
    /// the run says so (75), and the next runs converge with every value on its own row.
    @Test func anotherMachinesWriteBetweenAVerifyAndAWriteIsNeverOverwrittenByPosition() async throws {
        let machines = try await TwoMachines.start("g-writers-race")
        let (a, b) = (machines.a, machines.b)
        let (first, edited, below) = (machines.keys[0], machines.keys[2], machines.keys[3])
        let storeA = try a.store()
        var row = try #require(try storeA.records(in: .transactions).first { $0[.transactionId] == edited })
        row[.note] = "edited on a"
        row[.lastModifiedAt] = "2026-02-02T00:00:00.000Z"
        try storeA.upsert(row, in: .transactions)
        try b.store().delete(key: first, in: .transactions)
        let belowBefore = try #require(try a.sheetRecords(.transactions)[below])

        a.emulator.resetCounters()
        a.emulator.injectFault(.hold(gate: "a-write"), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let run = Task { try await machines.sync(a) }
        while !a.emulator.isHeld(at: "a-write") { try await Task.sleep(for: .milliseconds(10)) }
        try await machines.sync(b)
        #expect(try a.sheetRecords(.transactions)[first] == nil, "B's delete is in the sheet")
        a.emulator.open(gate: "a-write")
        var outcome: Int32 = 0
        do { _ = try await run.value } catch let error as SheetSyncError { outcome = error.exitCode.rawValue }
        #expect(outcome == 0 || outcome == 75)
        #expect(try a.sheetRecords(.transactions)[below] == belowBefore, "A's edit landed on the row below")

        for bed in [a, b, a] { try await machines.sync(bed) }
        let sheet = try a.sheetRecords(.transactions)
        #expect(sheet[edited]?[.note] == "edited on a")
        #expect(sheet[below] == belowBefore)
        #expect(sheet[first] == nil)
        #expect(try a.storeRecords(.transactions) == sheet)
        #expect(try b.storeRecords(.transactions) == sheet)
        await machines.finish()
    }
}

extension SeveralWritersGoogleTests {
    /// A person inserts or deletes a row after sheetsync verified where its rows are and before Google
    /// applies the write (held here at that exact point). Every row of the tab moved below it, so the
    /// write is refused whole by Google (the tab's row anchor moved with the rows): nothing lands on
    /// another row, the typed row keeps every cell, the run says so (75), and the next runs put the edit
    /// on its own row.
    @Test(arguments: ["insert", "delete"])
    func aRowInsertedOrDeletedByHandJustBeforeAWriteAppliesRefusesTheWriteWhole(move: String) async throws {
        let machines = try await TwoMachines.start("g-writers-window-\(move)")
        let a = machines.a
        let edited = machines.keys[2]
        // An earlier write leaves the tab's row anchor (the first write of all has none to check).
        try machines.editInStore(a, machines.keys[1], [.note: "an earlier write"])
        try await machines.sync(a)
        try machines.editInStore(a, edited, [.note: "edited in the store"])
        let id = try a.spreadsheetId(), tab = Tab.transactions.rawValue

        a.emulator.resetCounters()
        a.emulator.injectFault(.hold(gate: "window"), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let run = Task { try await machines.sync(a) }
        while !a.emulator.isHeld(at: "window") { try await Task.sleep(for: .milliseconds(10)) }
        if move == "insert" {
            try a.emulator.insertRow(spreadsheetId: id, tab: tab, at: 1, typed: ["", "expense", "2026-02-21", "", "", "4.5", "Fun"])
        } else {
            try a.emulator.deleteRow(spreadsheetId: id, tab: tab, at: 1)
        }
        let moved = try a.values(.transactions)
        a.emulator.open(gate: "window")
        var outcome: Int32 = 0
        var message = ""
        do { _ = try await run.value } catch let error as SheetSyncError { (outcome, message) = (error.exitCode.rawValue, "\(error)") }
        #expect(outcome == 75, "the write went out on rows that had moved: \(message)")
        #expect(try a.values(.transactions) == moved, "the write changed the sheet after its rows moved")
        #expect(try a.storeRecords(.transactions)[edited]?[.note] == "edited in the store")

        for bed in [a, machines.b, a] { try await machines.sync(bed) }
        let sheet = try a.sheetRecords(.transactions)
        #expect(sheet[edited]?[.note] == "edited in the store")
        #expect(!sheet.values.contains { $0[.transactionId] != edited && $0[.note] == "edited in the store" })
        #expect(try a.storeRecords(.transactions) == sheet)
        #expect(try machines.b.storeRecords(.transactions) == sheet)
        await machines.finish()
    }

    /// Rows added at the grid's end (Sheets' "Add rows" at the bottom) leave the row anchor off the last
    /// grid row: the next write cannot tell that from rows moved, stops once (75) with nothing written,
    /// and sets the anchor afresh; the write after it goes through.
    @Test func rowsAddedAtTheGridsEndStopOneWriteThenTheNextGoesThrough() async throws {
        let machines = try await TwoMachines.start("g-writers-grid-end")
        let a = machines.a
        try machines.editInStore(a, machines.keys[1], [.note: "an earlier write"])
        try await machines.sync(a)
        let id = try a.spreadsheetId(), remote = try a.remote()
        let sheetId = try #require(try await remote.sheets.info(spreadsheetId: id).sheet(titled: Tab.transactions.rawValue)?.sheetId)
        _ = try await remote.sheets.batchUpdate(
            spreadsheetId: id, requests: [["appendDimension": ["sheetId": .integer(sheetId), "dimension": "ROWS", "length": 100]]])
        try machines.editInStore(a, machines.keys[2], [.note: "edited in the store"])
        let before = try a.values(.transactions)

        var outcome: Int32 = 0
        do { try await machines.sync(a) } catch let error as SheetSyncError { outcome = error.exitCode.rawValue }
        #expect(outcome == 75)
        #expect(try a.values(.transactions) == before)
        try await machines.sync(a)
        #expect(try a.sheetRecords(.transactions)[machines.keys[2]]?[.note] == "edited in the store")
        #expect(try a.storeRecords(.transactions) == a.sheetRecords(.transactions))
        await machines.finish()
    }

    /// A row typed without an id is given one by sheetsync's write; a person sorts the rows in the
    /// moment before Google applies it, and the id (with the times written beside it) lands on another
    /// row, replacing that row's id (and the row delete in the same write takes another row). The
    /// read-back puts that row's id and times back, gives the typed row, found where the sort put it,
    /// what was meant for it, and the delete its own row: no row changes identity or is doubled.
    @Test func anIdGivenToATypedRowIsPutRightWhenASortMovesItJustBeforeTheWrite() async throws {
        let machines = try await TwoMachines.start("g-writers-typed-sort")
        let a = machines.a
        let id = try a.spreadsheetId(), tab = Tab.transactions.rawValue
        try a.emulator.insertRow(spreadsheetId: id, tab: tab, at: 1, typed: ["", "expense", "2026-02-21", "", "", "4.5", "Fun"])
        try a.store().delete(key: machines.keys[3], in: .transactions)
        var before = try a.sheetRecords(.transactions).filter { !$0.key.isEmpty }
        before[machines.keys[3]] = nil

        a.emulator.resetCounters()
        a.emulator.injectFault(.hold(gate: "window"), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let run = Task { try await machines.sync(a) }
        while !a.emulator.isHeld(at: "window") { try await Task.sleep(for: .milliseconds(10)) }
        try a.emulator.sortTab(spreadsheetId: id, tab: tab, byColumn: try a.column("amount", in: .transactions), ascending: true)
        a.emulator.open(gate: "window")
        let report = try await run.value

        let sheet = try a.sheetRecords(.transactions)
        let values = try a.values(.transactions).map { $0.prefix(7) }
        #expect(!report.notices.isEmpty, "nothing was put right: \(values)")
        for (key, was) in before { #expect(sheet[key] == was, "\(key) changed: \(sheet[key].map { "\($0)" } ?? "gone")") }
        let typed = sheet.filter { before[$0.key] == nil }
        #expect(
            typed.count == 1 && typed.first?.value[.amount] == "4.50",
            "the typed row: \(typed.mapValues { $0[.amount] }) \(values.map { $0.prefix(6) })")
        #expect(try a.table(.transactions).rows.count == before.count + 1, "a row without an id is left, or one is doubled")
        for bed in [a, machines.b, a] { try await machines.sync(bed) }
        #expect(try a.sheetRecords(.transactions) == sheet)
        #expect(try a.storeRecords(.transactions) == sheet)
        #expect(try machines.b.storeRecords(.transactions) == sheet)
        await machines.finish()
    }

    /// The window Google leaves: a person sorts the rows after sheetsync verified where its rows are and
    /// before Google applies the write (held here at that exact point); a sort moves no row anchor. The
    /// write is read back: what landed on another row goes back to what that row held, and the edit
    /// goes to its own row, in the same run, which says so.
    @Test func aSortByHandJustBeforeAWriteAppliesIsPutRightInTheSameRun() async throws {
        let machines = try await TwoMachines.start("g-writers-window-sort")
        let a = machines.a
        let edited = machines.keys[2]
        try machines.editInStore(a, edited, [.note: "edited in the store"])
        let before = try a.sheetRecords(.transactions)
        let id = try a.spreadsheetId(), tab = Tab.transactions.rawValue

        a.emulator.resetCounters()
        a.emulator.injectFault(.hold(gate: "window"), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let run = Task { try await machines.sync(a) }
        while !a.emulator.isHeld(at: "window") { try await Task.sleep(for: .milliseconds(10)) }
        try a.emulator.sortTab(spreadsheetId: id, tab: tab, byColumn: try a.column("amount", in: .transactions), ascending: false)
        a.emulator.open(gate: "window")
        let report = try await run.value
        #expect(report.notices.contains { $0.code == .writeRepaired }, "\(report.notices)")

        let sheet = try a.sheetRecords(.transactions)
        #expect(sheet[edited]?[.note] == "edited in the store")
        for (key, was) in before where key != edited { #expect(sheet[key] == was, "\(key) took values meant for another row") }
        for bed in [a, machines.b] { try await machines.sync(bed) }
        #expect(try a.storeRecords(.transactions) == a.sheetRecords(.transactions))
        #expect(try machines.b.storeRecords(.transactions) == a.sheetRecords(.transactions))
        await machines.finish()
    }
}

/// A test clock whose first sleep of at least `seconds` (a wait Google asked for) lets another writer act
/// first; time moves on at once, as with `ManualAPIClock`.
final class WhileWaiting: APIClock, Sendable {
    private let threshold: Double
    private let action: @Sendable () -> Void
    private let clock: ManualAPIClock
    private let done = Mutex(false)

    init(seconds: Double, now: Date = Date(), _ action: @escaping @Sendable () -> Void) {
        threshold = seconds
        clock = ManualAPIClock(now: now)
        self.action = action
    }

    var acted: Bool { done.withLock { $0 } }

    func now() -> Date { clock.now() }

    func sleep(seconds: Double) async throws {
        if seconds >= threshold,
            done.withLock({ was in
                defer { was = true }; return !was
            })
        {
            action()
        }
        try await clock.sleep(seconds: seconds)
    }
}
