import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing
import Workbook

@testable import SheetSync

/// File safety, end to end: the last-instant save, a NUL byte in a cell, a private (0600)
/// ledger, a read-only tab. Each test looks at the files' bytes and modes before and
/// after, and at the store.
@Suite struct FileSafetyTests {
    private func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    private func setMode(_ url: URL, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    private func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    private static let start = Timestamp(iso: "2026-03-01T00:00:00.000Z")!

    /// A sync of `workbook` into `store`, its file writes passing `faults`.
    private static func engine(_ store: LedgerStore, _ workbook: TestWorkbook, _ clock: ManualClock, _ faults: FaultInjector?) -> SyncEngine
    {
        SyncEngine(
            store: store, remote: CSVWorkbookRemote(folder: workbook.folder, faults: faults), clock: clock,
            newID: { UUID().uuidString.lowercased() })
    }

    private func backups(_ folder: URL, of name: String) throws -> [[UInt8]] {
        let backupFolder = folder.appendingPathComponent(AtomicFile.backupFolderName)
        return try AtomicFile.backups(of: name, in: folder).map { try bytes(backupFolder.appendingPathComponent($0)) }
    }

    private func notes(_ store: URL) throws -> [String: String] {
        let ledger = try LedgerStore(path: store.path)
        var out: [String: String] = [:]
        for record in try ledger.records(in: .transactions) { out[record[.transactionId]] = record[.note] }
        return out
    }

    // MARK: the user saved the file in the instant between sheetsync's last re-check and its rename

    @Test func aSaveInTheLastInstantIsLiveAfterTheRunKeptAsBackupAndMergedNextRun() async throws {
        let workbook = TestWorkbook(folder: try CLI.copyOfSample("clean"))
        let (store, clock) = (try LedgerStore.inMemory(), ManualClock(Self.start))
        func engine(_ faults: FaultInjector? = nil) -> SyncEngine { Self.engine(store, workbook, clock, faults) }
        _ = try await engine().run(SyncOptions(mode: .sync))
        // A row added in the store, to be pushed; the user adds one by hand while that push is written.
        var fromStore = try #require(try store.records(in: .transactions).first)
        fromStore[.transactionId] = "7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"
        fromStore[.note] = "added in the store"
        try store.upsert(fromStore, in: .transactions)
        var theirs = try workbook.file(.transactions)
        var handRow = theirs.table.rows[0]
        let noteColumn = try #require(workbook.column("note", in: theirs.table))
        let idColumn = try #require(workbook.column("transactionId", in: theirs.table))
        handRow[idColumn] = .text("3b8d2f40-1c9e-4a57-8e21-6f0b9d4c7a32")
        handRow[noteColumn] = .text("typed by hand in the last instant")
        theirs.table.rows.append(handRow)
        let theirBytes = CSVWriter.encode(theirs)
        let url = workbook.url(.transactions)
        let save = FaultInjector { step in
            if step == .checked, (try? Data(contentsOf: url)) != Data(theirBytes) { try Data(theirBytes).write(to: url) }
        }

        await #expect {
            _ = try await engine(save).run(SyncOptions(mode: .sync))
        } throws: { error in
            (error as? SheetSyncError)?.exitCode == .temporaryFailure
        }
        #expect(try workbook.bytes(.transactions) == theirBytes)
        #expect(try backups(workbook.folder, of: "Transactions.csv").contains(theirBytes))

        // The next run merges: both the store's row and the hand-typed row, on both sides.
        _ = try await engine().run(SyncOptions(mode: .sync))
        let sheet = try workbook.records(.transactions, now: clock.now())
        #expect(sheet["7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"]?[.note] == "added in the store")
        #expect(sheet["3b8d2f40-1c9e-4a57-8e21-6f0b9d4c7a32"]?[.note] == "typed by hand in the last instant")
        let local = Set(try store.records(in: .transactions).map { $0[.transactionId] })
        #expect(local.isSuperset(of: ["7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10", "3b8d2f40-1c9e-4a57-8e21-6f0b9d4c7a32"]))
    }

    /// The version a sync records is the workbook as it read and wrote it, not as it finds the folder
    /// afterwards: a save to another tab while the sync writes one must make the next run read it.
    /// (It recorded the folder as found after the write, so the next run saw "nothing changed" and
    /// left the saved category out of the store until some other change came.)
    @Test func aSaveToAnotherTabWhileOneIsWrittenIsReadByTheNextRun() async throws {
        let workbook = TestWorkbook(folder: try CLI.copyOfSample("clean"))
        let (store, clock) = (try LedgerStore.inMemory(), ManualClock(Self.start))
        func engine(_ faults: FaultInjector? = nil) -> SyncEngine { Self.engine(store, workbook, clock, faults) }
        _ = try await engine().run(SyncOptions(mode: .sync))
        var edited = try #require(try store.records(in: .transactions).first)
        edited[.note] = "changed in the store"
        try store.upsert(edited, in: .transactions)
        // While Transactions.csv is written, the user saves Categories.csv with a new category.
        var categories = try workbook.file(.categories)
        var newRow = categories.table.rows[0]
        let nameColumn = try #require(workbook.column("name", in: categories.table))
        newRow[nameColumn] = .text("Saved Meanwhile")
        for column in newRow.indices where workbook.column("lastModifiedAt", in: categories.table) == column {
            newRow[column] = .text("2026-03-01T00:00:00Z")
        }
        categories.table.rows.append(newRow)
        let saved = CSVWriter.encode(categories)
        let categoriesURL = workbook.url(.categories)
        let save = FaultInjector { step in
            if step == .tempCreated, (try? Data(contentsOf: categoriesURL)) != Data(saved) { try Data(saved).write(to: categoriesURL) }
        }
        _ = try await engine(save).run(SyncOptions(mode: .sync))
        #expect(try workbook.bytes(.categories) == saved)
        #expect(try !store.records(in: .categories).contains { $0[.name] == "Saved Meanwhile" })

        _ = try await engine().run(SyncOptions(mode: .sync))
        #expect(try store.records(in: .categories).contains { $0[.name] == "Saved Meanwhile" })
        #expect(try workbook.bytes(.categories) == saved)
        #expect(try workbook.records(.transactions, now: clock.now())[edited[.transactionId]]?[.note] == "changed in the store")
    }

    // MARK: a NUL byte inside a cell

    @Test func aNULByteRejectsItsRowNamingFileRowColumnAndOffsetAndNothingIsCut() async throws {
        let folder = try CLI.copyOfSample("clean")
        let url = folder.appendingPathComponent("Transactions.csv")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let id = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"
        let before = try notes(folder.appendingPathComponent("sheetsync.sqlite"))[id]
        #expect(before == "Lunch with Sam")
        var text = try bytes(url)
        let lunch = Array("Lunch with Sam".utf8)
        let at = try #require((0...(text.count - lunch.count)).first { Array(text[$0..<$0 + lunch.count]) == lunch })
        text.insert(0, at: at + 5)  // "Lunch\0 with Sam"
        try Data(text).write(to: url)

        let run = try await CLI.run(["sync"], in: folder)
        #expect(run.status == 65)
        #expect(run.stderr.contains("Transactions.csv row 3, column 'note' (9): NUL byte at byte offset \(at + 5)"), "\(run.stderr)")
        // Kept exactly in the file, not cut in the store, and not a change pending forever.
        #expect(try bytes(url) == text)
        #expect(try notes(folder.appendingPathComponent("sheetsync.sqlite"))[id] == before)
        let status = try await CLI.run(["status", "--json"], in: folder)
        #expect(status.statusReport?.nothingPending == true, "\(status.stdout)")
        let again = try await CLI.run(["sync"], in: folder)
        #expect(again.status == 0)
        #expect(try bytes(url) == text)
    }

    /// A carriage return on its own inside an unquoted cell of a file whose lines end with LF (or
    /// CRLF) ended the row there: the part before it read as a short row, which the store took (the
    /// note cut, later fields emptied) and the next push wrote back cut, and the rest read as a row of
    /// its own. Both parts are now held back, naming the row and line, and nothing changes.
    @Test func aStrayCarriageReturnInACellHoldsItsRowBackAndCutsNothing() async throws {
        let folder = try CLI.copyOfSample("clean")
        let url = folder.appendingPathComponent("Transactions.csv")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let id = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"
        let store = folder.appendingPathComponent("sheetsync.sqlite")
        #expect(try notes(store)[id] == "Lunch with Sam")
        var text = try bytes(url)
        let lunch = Array("Lunch with Sam".utf8)
        let at = try #require((0...(text.count - lunch.count)).first { Array(text[$0..<$0 + lunch.count]) == lunch })
        text.insert(0x0D, at: at + 5)  // "Lunch\r with Sam"
        try Data(text).write(to: url)

        for _ in 0..<2 {
            let run = try await CLI.run(["sync", "--json"], in: folder)
            #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
            #expect(run.has(.damagedTab, .heldBack, tab: .transactions), "\(run.stdout)")
            #expect(run.report?.rejected.map { "\($0.code.rawValue) \($0.row)" } == ["damaged-row 3", "damaged-row 4"], "\(run.stdout)")

            #expect(try bytes(url) == text)
            #expect(try notes(store)[id] == "Lunch with Sam")
        }
        // A dry run says the same and changes not one byte of the workbook or the store.
        let storeBytes = try bytes(store)
        let dry = try await CLI.run(["sync", "--dry-run"], in: folder)
        #expect(dry.status == 65, "\(dry.stdout)\(dry.stderr)")
        #expect(try bytes(url) == text && bytes(store) == storeBytes)
        // `check` names both parts, row and line, and what to do.
        let check = try await CLI.run(["check", folder.path], in: folder)
        #expect(check.status == 65, "\(check.stdout)\(check.stderr)")
        let said = check.stdout + check.stderr
        #expect(said.contains("Transactions row 3: a carriage return (\\r) on its own inside this row (line 3)"), "\(said)")
        #expect(said.contains("Transactions row 4: this row is the rest of row 3"), "\(said)")
    }

    @Test func theCSVReaderRefusesOnlyTheRowWithANULAndReadsTheRest() throws {
        let text = Array("id,note\n1,fine\n2,bad\u{0}cell\n3,\"bell\u{7}, tab\t and \u{1F}\"\n".utf8)
        let file = try CSVReader.parse(text, source: "Transactions.csv")
        #expect(file.table.rows.count == 3)
        #expect(Array(file.table.refusedRows.keys) == [1])
        let problem = try #require(file.table.refusedRows[1])
        #expect(problem.field == "note")
        #expect(problem.message.hasPrefix("Transactions.csv row 3, column 'note' (2): NUL byte at byte offset 20"))
        // The refused row's bytes are kept: writing the file back gives the same bytes.
        #expect(CSVWriter.encode(file) == text)
        #expect(file.table.rows[2][1] == .text("bell\u{7}, tab\t and \u{1F}"))
    }

    @Test func otherControlBytesRoundTripExactlyFromCSVToTheStoreAndBack() async throws {
        let folder = try CLI.copyOfSample("clean")
        let workbook = TestWorkbook(folder: folder)
        let controls = (0x01...0x1F).filter { ![0x09, 0x0A, 0x0D].contains($0) } + [0x7F]
        let note = "ctl:" + String(decoding: controls.map(UInt8.init), as: UTF8.self) + ":end"
        let id = "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9"
        try workbook.edit(.transactions) { table in
            let noteColumn = table.header.firstIndex(of: "note")!
            let row = table.rows.firstIndex { $0.first == .text(id) }!
            table.rows[row][noteColumn] = .text(note)
        }
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let storeURL = folder.appendingPathComponent("sheetsync.sqlite")
        #expect(try notes(storeURL)[id] == note)

        // Store → CSV: a row that exists only in the store is written with the same bytes.
        let ledger = try LedgerStore(path: storeURL.path)
        var copy = try #require(try ledger.records(in: .transactions).first { $0[.transactionId] == id })
        copy[.transactionId] = "5d0e7a8c-2b4f-4c61-9e3a-7f1b2c3d4e5f"
        try ledger.upsert(copy, in: .transactions)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let sheet = try workbook.records(.transactions, now: Timestamp(iso: "2026-03-01T00:00:00.000Z")!)
        #expect(sheet["5d0e7a8c-2b4f-4c61-9e3a-7f1b2c3d4e5f"]?[.note] == note)
        #expect(sheet[id]?[.note] == note)
        let status = try await CLI.run(["status", "--json"], in: folder)
        #expect(status.statusReport?.nothingPending == true, "\(status.stdout)")
    }

    // MARK: Transactions.csv is mode 0600 (a private ledger)

    @Test func aPrivateLedgerStaysPrivateBackupsStoreWALAndLock() async throws {
        let folder = try CLI.copyOfSample("clean")
        let url = folder.appendingPathComponent("Transactions.csv")
        try setMode(url, 0o600)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        #expect(
            try await CLI.run(["add", "expense", "--amount", "5", "--category", "Groceries", "--note", "private"], in: folder).status == 0)
        let before = try bytes(url)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        #expect(try bytes(url) != before)
        #expect(try mode(url) == 0o600)
        let backupFolder = folder.appendingPathComponent(AtomicFile.backupFolderName)
        #expect(try mode(backupFolder) == 0o700)
        let names = AtomicFile.backups(of: "Transactions.csv", in: folder)
        #expect(names.count == 1)
        #expect(try names.allSatisfy { try mode(backupFolder.appendingPathComponent($0)) == 0o600 })
        #expect(try backups(folder, of: "Transactions.csv") == [before])
        for name in ["sheetsync.sqlite", "sheetsync.sqlite-wal", "sheetsync.sqlite-shm", "sheetsync.sqlite.lock"] {
            let file = folder.appendingPathComponent(name)
            if name.hasSuffix("-wal") || name.hasSuffix("-shm"), !FileManager.default.fileExists(atPath: file.path) { continue }
            #expect(try mode(file) == 0o600, "\(name)")
        }
    }

    @Test func theStoreAndItsWALAreCreatedPrivateWhileTheyAreOpen() throws {
        let folder = try TestWorkbook.scratch("store-mode")
        let path = folder.appendingPathComponent("ledger.sqlite").path
        let store = try LedgerStore(path: path)
        try store.setState("probe", "1")
        for suffix in ["", "-wal", "-shm"] {
            #expect(try mode(URL(fileURLWithPath: path + suffix)) == 0o600, "store\(suffix)")
        }
        let lock = try RunLock(store: URL(fileURLWithPath: path))
        #expect(try mode(URL(fileURLWithPath: lock.path)) == 0o600)
    }

    // MARK: Transactions.csv is read-only (0444) (a symlink: UntrustedFolderTests)

    @Test func aReadOnlyTabIsNotReplacedExitsSeventyEightAndTheChangeWaits() async throws {
        let folder = try CLI.copyOfSample("clean")
        let url = folder.appendingPathComponent("Transactions.csv")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        #expect(try await CLI.run(["add", "expense", "--amount", "7", "--category", "Dining", "--note", "waits"], in: folder).status == 0)
        try setMode(url, 0o444)
        let before = try bytes(url)
        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 78)
        #expect(run.failureCode == .notWritable, "\(run.stdout)")
        #expect(run.stderr.contains("'\(url.path)' is read-only; make it writable (chmod u+w"), "\(run.stderr)")
        #expect(try bytes(url) == before)
        #expect(try mode(url) == 0o444)
        #expect(AtomicFile.backups(of: "Transactions.csv", in: folder).isEmpty)
        #expect(try notes(folder.appendingPathComponent("sheetsync.sqlite")).values.contains("waits"))

        try setMode(url, 0o644)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        #expect(String(decoding: try bytes(url), as: UTF8.self).contains(",waits,"))
    }

    @Test func aTabInAReadOnlyFolderExitsSeventyEightNamingTheFolder() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        #expect(try await CLI.run(["add", "expense", "--amount", "7", "--category", "Dining"], in: folder).status == 0)
        let before = try TestWorkbook(folder: folder).allBytes()
        try setMode(folder, 0o555)
        defer { try? setMode(folder, 0o755) }
        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 78)
        #expect(run.failureCode == .notWritable, "\(run.stdout)")
        #expect(run.stderr.contains("folder '\(folder.path)' is read-only"), "\(run.stderr)")
        #expect(try TestWorkbook(folder: folder).allBytes() == before)
    }

    // MARK: exit codes of file errors

    @Test func fileErrorsMapToExitCodesThatSayWhatToDo() {
        let full = SheetSyncError.replacing(.noSpace(operation: "write", path: "/books/.Transactions.csv.sheetsync-tmp-1-0"))
        #expect(full.exitCode == .temporaryFailure && full.failureCode == .noSpace)
        #expect(full.message.contains("/books/"))
        let denied = SheetSyncError.replacing(.permissionDenied(operation: "open", path: "/books/T.csv", reason: "Permission denied"))
        #expect(denied.exitCode == .configuration && denied.failureCode == .notWritable)
        #expect(denied.message.contains("/books/T.csv"))
        #expect(SheetSyncError.replacing(.readOnly(path: "/books", isFolder: true)).exitCode == .configuration)
        let changed = SheetSyncError.replacing(.changedSinceRead(path: "/books/T.csv"))
        #expect(changed.exitCode == .temporaryFailure && changed.failureCode == .changedMeanwhile)
    }
}
