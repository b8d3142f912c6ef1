import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing
import Workbook

/// Several writers on one CSV workbook: two machines' stores, each with its own clock, and a person
/// editing the files by hand. Each machine's writes leave the files with that machine's time, as a real
/// file system does, so that what a sync takes from a file's time is what it would take on a real pair
/// of machines.
@Suite struct SeveralWritersTests {
    /// A store that syncs the shared workbook with its own clock.
    struct Machine: StoreWithClock {
        let store: LedgerStore
        let clock: ManualClock
        let book: URL

        @discardableResult
        func sync() async throws -> SyncReport {
            let before = try SharedBook.bytes(book)
            let report = try await SyncEngine(store: store, remote: CSVWorkbookRemote(folder: book), clock: clock, defaultTimeZone: "UTC")
                .run(SyncOptions(mode: .sync))
            for (tab, bytes) in try SharedBook.bytes(book) where before[tab] != bytes {
                try SharedBook.touch(book.appendingPathComponent(tab.rawValue + ".csv"), at: clock.now())
            }
            return report
        }

    }

    /// The shared workbook folder.
    struct SharedBook {
        let folder: URL
        var book: URL { folder.appendingPathComponent("book") }
        static let key = "c09ca393-0084-5db0-a1be-912f4bec2b3d"

        static func make() throws -> SharedBook {
            let folder = try TestWorkbook.scratch("several-writers")
            try FileManager.default.copyItem(
                at: CLI.repoRoot.appendingPathComponent("samples").appendingPathComponent("clean"),
                to: folder.appendingPathComponent("book"))
            return SharedBook(folder: folder)
        }

        func machine(_ name: String, clock: ManualClock) throws -> Machine {
            Machine(store: try LedgerStore(path: folder.appendingPathComponent(name + ".sqlite").path), clock: clock, book: book)
        }

        static func bytes(_ book: URL) throws -> [Tab: Data] {
            var out: [Tab: Data] = [:]
            for tab in Tab.allCases { out[tab] = try Data(contentsOf: book.appendingPathComponent(tab.rawValue + ".csv")) }
            return out
        }

        static func touch(_ file: URL, at time: Timestamp) throws {
            try FileManager.default.setAttributes([.modificationDate: time.date], ofItemAtPath: file.path)
        }

        /// A person's edit of one cell of the row with `key`, saved at `time`.
        func handEdit(_ key: String, replacing old: String, with new: String, at time: Timestamp) throws {
            let file = book.appendingPathComponent("Transactions.csv")
            let text = try String(contentsOf: file, encoding: .utf8)
            var lines = text.components(separatedBy: "\n")
            let at = try #require(lines.firstIndex { $0.hasPrefix(key) })
            let edited = lines[at].replacingOccurrences(of: "," + old + ",", with: "," + new + ",")
            try #require(edited != lines[at], "no cell '\(old)' in \(lines[at])")
            lines[at] = edited
            try Data(lines.joined(separator: "\n").utf8).write(to: file)
            try Self.touch(file, at: time)
        }

        func sheet() throws -> [String: LedgerRow] {
            try TestWorkbook(folder: book).records(.transactions, now: Timestamp(millisecondsSinceEpoch: 0))
        }
    }

    static let start = Timestamp(iso: "2026-06-01T00:00:00.000Z")!

    /// The shared workbook with one machine's store, synced once.
    static func oneMachineSynced() async throws -> (SharedBook, ManualClock, Machine) {
        let shared = try SharedBook.make()
        let clock = ManualClock(start)
        let machine = try shared.machine("a", clock: clock)
        try await machine.sync()
        return (shared, clock, machine)
    }

    /// A edits the note, B the amount; both sync; then B edits the note again and both sync. B's later
    /// note stands: the row A merged (A's note under B's time) is not taken by B for a hand edit made
    /// at its sync, which would beat B's later edit.
    @Test func aMergedRowDoesNotBeatALaterEditOnTheOtherMachine() async throws {
        let shared = try SharedBook.make()
        let clock = ManualClock(Self.start)
        let a = try shared.machine("a", clock: clock), b = try shared.machine("b", clock: clock)
        try await a.sync()
        try await b.sync()
        let key = SharedBook.key
        clock.advance(milliseconds: 60_000)
        try a.edit(key, [.note: "a's note"])
        clock.advance(milliseconds: 60_000)
        try b.edit(key, [.amount: "60.00"])
        clock.advance(milliseconds: 60_000)
        try await b.sync()
        clock.advance(milliseconds: 60_000)
        try await a.sync()
        #expect(try shared.sheet()[key]?[.note] == "a's note")
        clock.advance(milliseconds: 60_000)
        try b.edit(key, [.note: "b's later note"])
        clock.advance(milliseconds: 60_000)
        try await b.sync()
        clock.advance(milliseconds: 60_000)
        try await a.sync()

        let sheet = try shared.sheet()
        #expect(sheet[key]?[.note] == "b's later note")
        #expect(sheet[key]?[.amount] == "60.00")
        #expect(try a.rows() == sheet)
        #expect(try b.rows() == sheet)
    }

    /// A edits the amount, B the note; B syncs, then A merges the two. The merged row is a version of
    /// its own, dated after both edits: B takes it as it is (its content under B's own time would look
    /// like a hand edit, which B would date again and write back, and the machines would not settle).
    @Test func aMergedRowIsTakenAsItIsByTheMachineWhoseEditItMerged() async throws {
        let shared = try SharedBook.make()
        let clock = ManualClock(Self.start)
        let a = try shared.machine("a", clock: clock), b = try shared.machine("b", clock: clock)
        try await a.sync()
        try await b.sync()
        let key = SharedBook.key
        clock.advance(milliseconds: 60_000)
        try a.edit(key, [.amount: "60.00"])
        clock.advance(milliseconds: 60_000)
        try b.edit(key, [.note: "b's note"])
        let bEdit = clock.now().description
        clock.advance(milliseconds: 60_000)
        try await b.sync()
        clock.advance(milliseconds: 60_000)
        try await a.sync()
        let merged = try #require(try shared.sheet()[key])
        #expect(merged[.note] == "b's note" && merged[.amount] == "60.00")
        #expect(merged[.lastModifiedAt] > bEdit)
        let settled = try SharedBook.bytes(shared.book)
        clock.advance(milliseconds: 60_000)
        try await b.sync()

        #expect(try SharedBook.bytes(shared.book) == settled)
        #expect(try b.rows()[key] == merged)
        #expect(try a.rows()[key] == merged)
    }

    /// C edits a row's note in its store; the person changes the row's amount by hand, A syncs that, and
    /// then the person deletes the row. C's edit, which the delete did not see, brings the row back (an
    /// edit beats a delete). A, whose last version of the row is the one the person deleted, takes the
    /// row as C brought it back: it does not write the deleted version back as if the row were an old copy.
    @Test func aRowAnEditBroughtBackIsTakenByAMachineThatKnewTheDeletedVersion() async throws {
        let shared = try SharedBook.make()
        let clock = ManualClock(Self.start)
        let a = try shared.machine("a", clock: clock), c = try shared.machine("c", clock: clock)
        try await a.sync()
        try await c.sync()
        let key = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"
        clock.advance(milliseconds: 60_000)
        try c.edit(key, [.note: "c's note"])
        clock.advance(milliseconds: 60_000)
        try shared.handEdit(key, replacing: "18.75", with: "19.00", at: clock.now())
        clock.advance(milliseconds: 60_000)
        try await a.sync()
        #expect(try a.rows()[key]?[.amount] == "19.00")
        clock.advance(milliseconds: 60_000)
        try TestWorkbook(folder: shared.book).edit(.transactions) { table in
            table.rows.removeAll { $0.first?.rawText == key }
        }
        try SharedBook.touch(shared.book.appendingPathComponent("Transactions.csv"), at: clock.now())
        clock.advance(milliseconds: 60_000)
        try await c.sync()
        let back = try #require(try shared.sheet()[key])
        #expect(back[.note] == "c's note" && back[.amount] == "18.75")
        clock.advance(milliseconds: 60_000)
        try await a.sync()

        #expect(try shared.sheet()[key] == back)
        #expect(try a.rows()[key] == back)
        #expect(try c.rows()[key] == back)
    }

    /// B's clock is two minutes behind A's. A edits the note and syncs; B takes that version, then edits
    /// the amount: B's stamp is earlier than the version B edited. The edit is still the later one (it was
    /// made on that version): B's sync dates it after the version, and A takes it instead of reading an
    /// old copy and writing its own version back.
    @Test func aStoreEditWhoseClockIsBehindTheVersionItEditedStillWins() async throws {
        let shared = try SharedBook.make()
        let clockA = ManualClock(Self.start), clockB = ManualClock(Self.start.adding(milliseconds: -120_000))
        let a = try shared.machine("a", clock: clockA), b = try shared.machine("b", clock: clockB)
        try await a.sync()
        try await b.sync()
        let key = SharedBook.key
        // Not whole seconds: a time the sheet shows to the second or minute reads as the base's own.
        func tick() {
            clockA.advance(milliseconds: 31_517)
            clockB.advance(milliseconds: 31_517)
        }
        tick()
        try a.edit(key, [.note: "a's note"])
        tick()
        try await a.sync()
        tick()
        try await b.sync()
        tick()
        try b.edit(key, [.amount: "61.00"])
        tick()
        try await b.sync()
        tick()
        try await a.sync()

        let sheet = try #require(try shared.sheet()[key])
        #expect(sheet[.note] == "a's note" && sheet[.amount] == "61.00")
        #expect(try a.rows()[key] == sheet)
        let bRow = try b.rows()[key]
        #expect(bRow == sheet, "b \(bRow.map { Array($0.namedValues) } ?? []) sheet \(Array(sheet.namedValues))")
        #expect(try a.store.conflicts(limit: 50).isEmpty)
    }

    /// A person edits a cell, then (before any sync) the store edits the same field: the store's edit is
    /// the later one and wins; the hand edit is kept in the conflict log.
    @Test func aHandEditLosesToAStoreEditMadeAfterItBeforeTheSync() async throws {
        let (shared, clock, a) = try await Self.oneMachineSynced()
        let key = SharedBook.key
        clock.advance(milliseconds: 60_000)
        try shared.handEdit(key, replacing: "Market", with: "typed by hand", at: clock.now())
        clock.advance(milliseconds: 60_000)
        try a.edit(key, [.note: "stored later"])
        clock.advance(milliseconds: 60_000)
        let report = try await a.sync()

        #expect(try shared.sheet()[key]?[.note] == "stored later")
        #expect(try a.rows()[key]?[.note] == "stored later")
        #expect(report.conflicts == 1)
        #expect(try a.store.conflicts(limit: 5).contains { $0.key == key && $0.losingValue == "typed by hand" })
    }

    /// The other order: the hand edit is the later one and wins, as before.
    @Test func aHandEditWinsOverAStoreEditMadeBeforeIt() async throws {
        let (shared, clock, a) = try await Self.oneMachineSynced()
        let key = SharedBook.key
        clock.advance(milliseconds: 60_000)
        try a.edit(key, [.note: "stored first"])
        clock.advance(milliseconds: 60_000)
        try shared.handEdit(key, replacing: "Market", with: "typed later", at: clock.now())
        clock.advance(milliseconds: 60_000)
        try await a.sync()

        #expect(try shared.sheet()[key]?[.note] == "typed later")
        #expect(try a.rows()[key]?[.note] == "typed later")
    }

    /// Two machines whose clocks are a day apart (either way round) agree within two rounds, and then
    /// no run writes the workbook: no file, no backup.
    @Test(arguments: [Int64(86_400_000), -86_400_000])
    func clocksADayApartConvergeAndThenWriteNothing(skew: Int64) async throws {
        let shared = try SharedBook.make()
        let clockA = ManualClock(Self.start.adding(milliseconds: skew)), clockB = ManualClock(Self.start)
        let a = try shared.machine("a", clock: clockA), b = try shared.machine("b", clock: clockB)
        try await a.sync()
        try await b.sync()
        let key = SharedBook.key
        func tick() {
            clockA.advance(milliseconds: 60_000)
            clockB.advance(milliseconds: 60_000)
        }
        tick()
        try a.edit(key, [.note: "from a"])
        tick()
        try b.edit("1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9", [.note: "from b"])
        for _ in 1...2 {
            tick()
            try await a.sync()
            tick()
            try await b.sync()
        }
        let settled = try SharedBook.bytes(shared.book)
        let backups = try Self.files(under: shared.book)
        for round in 1...3 {
            tick()
            let ra = try await a.sync()
            tick()
            let rb = try await b.sync()
            #expect(try SharedBook.bytes(shared.book) == settled, "round \(round) rewrote the workbook")
            #expect(ra.notices.isEmpty && rb.notices.isEmpty, "round \(round): \(ra.notices) \(rb.notices)")
        }
        #expect(try Self.files(under: shared.book) == backups, "backups made by runs that changed nothing")
        let sheet = try shared.sheet()
        #expect(sheet[key]?[.note] == "from a")
        #expect(sheet["1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"]?[.note] == "from b")
        #expect(try a.rows() == sheet)
        #expect(try b.rows() == sheet)
    }

    static let cronKey = "5f0d3c1e-9a7b-4c2d-8e6f-0a1b2c3d4e5f"

    /// One machine synced; the person opens the Transactions file; cron adds a row (`cronKey`) and syncs;
    /// the person saves `edit` of the copy they opened over the file; the machine syncs (`caught`).
    static func oldCopySavedOverACronRow(
        _ edit: (String) -> String
    ) async throws -> (SharedBook, ManualClock, Machine, file: URL, caught: SyncReport) {
        let (shared, clock, a) = try await Self.oneMachineSynced()
        let file = shared.book.appendingPathComponent("Transactions.csv")
        let opened = try String(contentsOf: file, encoding: .utf8)
        clock.advance(milliseconds: 60_000)
        try a.addCopy(of: SharedBook.key, as: cronKey, [.note: "rent, added by cron"])
        try await a.sync()
        #expect(try shared.sheet()[cronKey] != nil)
        clock.advance(milliseconds: 60_000)
        let saved = edit(opened)
        try #require(saved != opened)
        try Data(saved.utf8).write(to: file)
        try SharedBook.touch(file, at: clock.now())
        clock.advance(milliseconds: 60_000)
        return (shared, clock, a, file, try await a.sync())
    }

    /// The workbook is open in a spreadsheet program; cron adds a row (`sheetsync add`, then a sync);
    /// the person changes one amount and saves their copy, which lacks that row. The next sync keeps the
    /// row in the store and writes it back, says so once (held back, 65), and takes the person's amount.
    /// Deleted again by hand, the row goes: a second delete is meant.
    @Test func anOldCopySavedOverTheWorkbookDoesNotDeleteARowAddedAfterItWasOpened() async throws {
        // The person's save: the copy they opened, with one amount changed.
        let (shared, clock, a, file, caught) = try await Self.oldCopySavedOverACronRow {
            $0.replacingOccurrences(of: ",54.20,", with: ",55.20,")
        }
        let addedKey = Self.cronKey
        #expect(caught.errors.contains { $0.code == .olderCopy && $0.text.contains(addedKey) }, "\(caught.errors)")
        let sheet = try shared.sheet()
        #expect(sheet[addedKey]?[.note] == "rent, added by cron")
        #expect(sheet[SharedBook.key]?[.amount] == "55.20")
        #expect(try a.rows() == sheet)
        clock.advance(milliseconds: 60_000)
        let next = try await a.sync()
        #expect(next.errors.isEmpty && next.notices.isEmpty, "said once: \(next.errors) \(next.notices)")
        #expect(try shared.sheet() == sheet)

        // Deleted again by hand: meant, and done.
        clock.advance(milliseconds: 60_000)
        let now = try String(contentsOf: file, encoding: .utf8)
        let without = now.components(separatedBy: "\n").filter { !$0.hasPrefix(addedKey) }.joined(separator: "\n")
        try Data(without.utf8).write(to: file)
        try SharedBook.touch(file, at: clock.now())
        clock.advance(milliseconds: 60_000)
        let deleted = try await a.sync()
        #expect(deleted.errors.isEmpty, "\(deleted.errors)")
        #expect(try a.rows()[addedKey] == nil)
        #expect(try shared.sheet()[addedKey] == nil)
    }

    /// As above, but the person also deleted an older row in their copy: the copy lacks older rows too,
    /// which a file cut at a line end also does, so nothing is deleted: both rows go back (65, said
    /// once), and the message says how to delete them on purpose.
    @Test func anOldCopyLackingTheCronRowAndAnOlderRowDeletesNothing() async throws {
        var goneKey = ""
        let (shared, clock, a, _, caught) = try await Self.oldCopySavedOverACronRow { opened in
            let lines = opened.components(separatedBy: "\n")
            let gone = lines.dropFirst().first { !$0.isEmpty && !$0.hasPrefix(SharedBook.key) } ?? ""
            goneKey = String(gone.prefix { $0 != "," })
            return lines.filter { $0 != gone }.joined(separator: "\n")
        }
        #expect(
            caught.errors.contains { $0.code == .olderCopy && $0.text.contains(Self.cronKey) && $0.text.contains("1 older row(s), kept") },
            "\(caught.errors)")
        let sheet = try shared.sheet()
        #expect(sheet[Self.cronKey]?[.note] == "rent, added by cron")
        #expect(sheet[goneKey] != nil)
        #expect(try a.rows()[goneKey] != nil)
        #expect(try a.rows() == sheet)
        clock.advance(milliseconds: 60_000)
        let settled = try SharedBook.bytes(shared.book)
        let next = try await a.sync()
        #expect(next.errors.isEmpty && next.notices.isEmpty, "said once: \(next.errors) \(next.notices)")
        #expect(try SharedBook.bytes(shared.book) == settled)
    }

    /// The person adds two expenses with `sheetsync add`, syncs, and deletes both rows in the sheet. The
    /// copy lacks only rows this store added, newer than everything in it, as a copy saved over the
    /// file after cron added them would: they are written back once (65, saying so); deleted again,
    /// they go, with no `--allow-mass-delete`.
    @Test func yourOwnLastRowsDeletedTwiceAreDeleted() async throws {
        let (shared, clock, a) = try await Self.oneMachineSynced()
        let keys = ["6a0e4d2f-0b8c-4d3e-9f70-1b2c3d4e5f60", "6a0e4d2f-0b8c-4d3e-9f70-1b2c3d4e5f61"]
        clock.advance(milliseconds: 60_000)
        for key in keys { try a.addCopy(of: SharedBook.key, as: key, [.note: "added " + key.suffix(2)]) }
        try await a.sync()
        let file = shared.book.appendingPathComponent("Transactions.csv")
        func deleteBoth() throws {
            clock.advance(milliseconds: 60_000)
            let text = try String(contentsOf: file, encoding: .utf8)
            let kept = text.components(separatedBy: "\n").filter { line in !keys.contains { line.hasPrefix($0) } }
            try Data(kept.joined(separator: "\n").utf8).write(to: file)
            try SharedBook.touch(file, at: clock.now())
            clock.advance(milliseconds: 60_000)
        }
        try deleteBoth()
        let first = try await a.sync()
        #expect(
            first.errors.contains { $0.code == .olderCopy && $0.text.contains("delete them again: the next sync deletes them") },
            "\(first.errors)")
        #expect(try keys.allSatisfy { try shared.sheet()[$0] != nil && a.rows()[$0] != nil })
        try deleteBoth()
        let second = try await a.sync()
        #expect(second.errors.isEmpty, "\(second.errors)")
        #expect(try keys.allSatisfy { try shared.sheet()[$0] == nil && a.rows()[$0] == nil })
        #expect(try a.rows() == shared.sheet())
    }

    /// A row this store deleted comes back in an older copy of the workbook that a person edited (a hand
    /// edit keeps the row's time): deleted again as a version of a row deleted here, what it held is kept
    /// in the conflict log, never gone unlogged.
    @Test func aRowDeletedAgainKeepsWhatItHeldInTheConflictLog() async throws {
        let (shared, clock, x) = try await Self.oneMachineSynced()
        let key = SharedBook.key
        let file = shared.book.appendingPathComponent("Transactions.csv")
        let copy = try String(contentsOf: file, encoding: .utf8)
        clock.advance(milliseconds: 60_000)
        _ = try x.store.delete(key: key, in: .transactions)
        try await x.sync()
        try #require(try shared.sheet()[key] == nil)
        clock.advance(milliseconds: 60_000)
        try Data(copy.replacingOccurrences(of: ",Market,", with: ",typed into the old copy,").utf8).write(to: file)
        try SharedBook.touch(file, at: clock.now())
        clock.advance(milliseconds: 60_000)
        try await x.sync()

        #expect(try shared.sheet()[key] == nil)
        #expect(try x.store.conflicts(limit: 50).contains { $0.key == key && $0.losingValue == "typed into the old copy" })
    }

    /// A transaction one store deletes while a receipt row in the workbook points at it stays in the
    /// workbook, held back with the receipt named (65), as the other store keeps it: no store holds a row
    /// the others have let go for ever. Once the receipt row goes too, the transaction goes everywhere.
    @Test func aTransactionAReceiptPointsAtIsHeldAlikeOnTheMachineThatDeletedIt() async throws {
        let shared = try SharedBook.make()
        let clock = ManualClock(Self.start)
        let x = try shared.machine("x", clock: clock), y = try shared.machine("y", clock: clock)
        try await x.sync()
        try await y.sync()
        let receipts = try TestWorkbook(folder: shared.book).records(.receipts, now: Self.start)
        let receipt = try #require(receipts.values.sorted { $0[.receiptId] < $1[.receiptId] }.first)
        let key = receipt[.transactionId]
        clock.advance(milliseconds: 60_000)
        _ = try x.store.delete(key: key, in: .transactions)
        let held = try await x.sync()
        #expect(
            held.errors.contains {
                $0.code == .receiptLinksDeletedTransaction && $0.place.key == key && $0.text.contains(receipt[.receiptId])
            }, "\(held.errors)")
        #expect(try shared.sheet()[key] != nil, "the workbook keeps the transaction while the receipt points at it")
        clock.advance(milliseconds: 60_000)
        let other = try await y.sync()
        #expect(other.errors.isEmpty, "\(other.errors)")
        #expect(try y.rows()[key] != nil)

        // The receipt pointed at another transaction by hand: the transaction goes from the workbook and
        // from both stores.
        clock.advance(milliseconds: 60_000)
        let file = shared.book.appendingPathComponent("Receipts.csv")
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n").map { line in
            guard line.hasPrefix(receipt[.receiptId]) else { return line }
            var fields = line.components(separatedBy: ",")
            fields[1] = SharedBook.key
            return fields.joined(separator: ",")
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        for machine in [x, y, x, y] {
            clock.advance(milliseconds: 60_000)
            try await machine.sync()
        }
        #expect(try shared.sheet()[key] == nil)
        #expect(try x.rows()[key] == nil && y.rows()[key] == nil)
    }

    /// One machine adds a row and later deletes it: the other machine takes the delete (its store never
    /// added that row to the workbook, so its absence is no older copy's), exit 0, nothing written back.
    @Test func aRowAnotherMachineAddedAndDeletedIsDeletedHereWithoutAHold() async throws {
        let shared = try SharedBook.make()
        let clock = ManualClock(Self.start)
        let x = try shared.machine("x", clock: clock), y = try shared.machine("y", clock: clock)
        try await x.sync()
        try await y.sync()
        clock.advance(milliseconds: 60_000)
        let addedKey = "6a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b"
        try x.addCopy(of: SharedBook.key, as: addedKey)
        for machine in [x, y] {
            clock.advance(milliseconds: 60_000)
            try await machine.sync()
        }
        #expect(try y.rows()[addedKey] != nil)
        clock.advance(milliseconds: 60_000)
        _ = try x.store.delete(key: addedKey, in: .transactions)
        try await x.sync()
        clock.advance(milliseconds: 60_000)
        let report = try await y.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(try y.rows()[addedKey] == nil)
        #expect(try shared.sheet()[addedKey] == nil)
    }

    /// X adds a row and syncs; Y edits another row ten minutes later; X then edits its row (the newest in
    /// the workbook) and syncs; Y takes that and deletes the row. X takes the delete: the workbook carries
    /// Y's edit, made well after X's row reached it, so it is no copy older than that row (whose lack of
    /// it would be written back, 65), exit 0, nothing written back.
    @Test func aRowThisMachineAddedThatAnotherDeletedAfterSeeingItIsDeletedHere() async throws {
        let shared = try SharedBook.make()
        let clock = ManualClock(Self.start)
        let x = try shared.machine("x", clock: clock), y = try shared.machine("y", clock: clock)
        try await x.sync()
        try await y.sync()
        clock.advance(milliseconds: 61_517)
        let addedKey = "8c3a4d5e-6f70-4b81-8c9d-1e2f3a4b5c6d"
        try x.addCopy(of: SharedBook.key, as: addedKey, [.note: "added by x"])
        for machine in [x, y] {
            clock.advance(milliseconds: 61_517)
            try await machine.sync()
        }
        clock.advance(milliseconds: 10 * 60_000 + 1_517)
        try y.edit(SharedBook.key, [.note: "edited by y"])
        try await y.sync()
        clock.advance(milliseconds: 61_517)
        try x.edit(addedKey, [.amount: "70.00"])
        for machine in [x, y] {
            clock.advance(milliseconds: 61_517)
            try await machine.sync()
        }
        _ = try y.store.delete(key: addedKey, in: .transactions)
        try await y.sync()
        #expect(try shared.sheet()[addedKey] == nil)
        clock.advance(milliseconds: 61_517)
        let settled = try SharedBook.bytes(shared.book)
        let report = try await x.sync()

        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(try SharedBook.bytes(shared.book) == settled)
        #expect(try x.rows()[addedKey] == nil)
        #expect(try x.rows() == shared.sheet())
    }

    /// A machine's run writes its new row (or its edit of a row) into the workbook and is killed before
    /// its store records the sync. A person then edits that row. The next run finds the row under the very
    /// time this store gave its version, holding other values: a hand edit of this store's version, which
    /// wins (dated as a hand edit), not a rival version to break a tie with.
    @Test(arguments: [true, false])
    func aHandEditOfARowAKilledRunWroteWins(newRow: Bool) async throws {
        let (shared, clock, a) = try await Self.oneMachineSynced()
        clock.advance(milliseconds: 61_517)
        let key = newRow ? "7b2f3c4d-5e6f-4a70-9b8c-0d1e2f3a4b5c" : SharedBook.key
        if newRow {
            try a.addCopy(of: SharedBook.key, as: key, [.note: "zz from the store"])
        } else {
            try a.edit(key, [.note: "zz from the store"])
        }
        let written = try #require(try a.rows()[key])
        clock.advance(milliseconds: 61_517)
        let killed = SyncEngine(
            store: a.store, remote: CSVWorkbookRemote(folder: shared.book, faults: .crash(at: .backedUp)), clock: clock,
            defaultTimeZone: "UTC")
        await #expect(throws: SimulatedCrash.self) { try await killed.run(SyncOptions(mode: .sync)) }
        #expect(try shared.sheet()[key]?[.note] == "zz from the store")
        clock.advance(milliseconds: 61_517)
        try shared.handEdit(key, replacing: "zz from the store", with: "aa typed by hand", at: clock.now())
        clock.advance(milliseconds: 61_517)
        let report = try await a.sync()

        #expect(report.errors.isEmpty, "\(report.errors)")
        let sheet = try #require(try shared.sheet()[key])
        #expect(sheet[.note] == "aa typed by hand")
        #expect(sheet[.lastModifiedAt] > written[.lastModifiedAt])
        #expect(try a.rows()[key] == sheet)
        #expect(try a.store.conflicts(limit: 50).isEmpty)
    }

    static func files(under folder: URL) throws -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }
}

/// A category renamed on one machine travels with the sync: the other machine's rows that still name
/// the old name (added there before it synced) take the new one, instead of being held (65) until the
/// rename is made there too.
@Suite struct RenameTravelsTests {
    @Test(arguments: [false, true])
    func aCategoryRenamedOnOneMachineRenamesTheOtherMachinesNewRows(intoAnExistingOne: Bool) async throws {
        let folder = try await CLI.storesSharingASample()
        let added = try await CLI.run(
            ["add", "expense", "--amount", "9.00", "--category", "Dining", "--note", "b's dinner", "--config", "b.json"], in: folder)
        #expect(added.status == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let new = intoAnExistingOne ? "Groceries" : "Eating out"
        let rename = try await CLI.run(["category", "rename", "Dining", new, "--config", "a.json"], in: folder)
        #expect(rename.status == 0, "\(rename.stderr)")
        #expect(try await CLI.run(["sync", "--config", "a.json"], in: folder).status == 0)

        let b = try await CLI.run(["sync", "--config", "b.json", "--json"], in: folder)
        #expect(b.status == 0, "\(b.stderr)")
        #expect(
            b.issues.contains { $0.code == .renameFollowed && $0.message.contains("'Dining'") && $0.message.contains(new) },
            "\(b.stdout)")

        let a = try await CLI.run(["sync", "--config", "a.json"], in: folder)
        #expect(a.status == 0, "\(a.stderr)")
        let workbook = TestWorkbook(folder: folder)
        let sheet = try workbook.records(.transactions, now: Timestamp(millisecondsSinceEpoch: 0))
        #expect(sheet[id]?[.category] == new)
        #expect(!sheet.values.contains { $0[.category] == "Dining" })
        #expect(try workbook.records(.categories, now: Timestamp(millisecondsSinceEpoch: 0))["Dining"] == nil)
        for name in ["a", "b"] {
            let store = try LedgerStore(path: folder.appendingPathComponent("\(name).sqlite").path)
            #expect(try store.records(in: .transactions).first { $0[.transactionId] == id }?[.category] == new, "store \(name)")
            #expect(try store.records(in: .categories).contains { $0[.name] == "Dining" } == false, "store \(name)")
        }
    }
}

/// A machine's store and clock, as the several-writers tests drive them.
protocol StoreWithClock {
    var store: LedgerStore { get }
    var clock: ManualClock { get }
}

extension StoreWithClock {
    /// A store edit (as `sheetsync` commands make them), stamped with this machine's now.
    func edit(_ key: String, _ fields: [FieldKey: String]) throws {
        var row = try #require(try store.records(in: .transactions).first { $0[.transactionId] == key })
        for (key, value) in fields { row[key] = value }
        row[.lastModifiedAt] = clock.now().description
        try store.upsert(row, in: .transactions)
    }

    /// A store add (as `sheetsync add` makes them): a copy of the row with `key` under `newKey`, with
    /// `fields` changed, created and stamped with this machine's now.
    @discardableResult
    func addCopy(of key: String, as newKey: String, _ fields: [FieldKey: String] = [:]) throws -> LedgerRow {
        var row = try #require(try rows()[key])
        row[.transactionId] = newKey
        for (key, value) in fields { row[key] = value }
        row[.createdAt] = clock.now().description
        row[.lastModifiedAt] = clock.now().description
        try store.upsert(row, in: .transactions)
        return row
    }

    /// The store's transactions by id.
    func rows() throws -> [String: LedgerRow] {
        Dictionary(uniqueKeysWithValues: try store.records(in: .transactions).map { ($0[.transactionId], $0) })
    }
}
