import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Testing
import Workbook

#if canImport(Glibc)
    import Glibc
#endif

/// The failures a user can fix (or wait out) exit with the code that says which (and tells cron what to
/// do), with a message that names where and says each thing once, and `--json` still answers; store and
/// workbook are left as they were.
@Suite struct FailureExitCodeTests {
    /// The outcome the CLI reports for `error` (the same mapping `GlobalOptions.reporting` uses).
    private func outcome(of error: any Error, store: URL) -> SheetSyncError {
        SheetSyncError.classify(error, store: store.path) ?? SheetSyncError(.internalError, "internal error: \(error)")
    }

    private func engine(_ ledger: Ledger, store: LedgerStore, faults: FaultInjector? = nil) -> SyncEngine {
        SyncEngine(store: store, remote: CSVWorkbookRemote(folder: ledger.book, faults: faults))
    }

    /// Runs `body`, which must fail, and returns what the CLI would report.
    private func failure(_ ledger: Ledger, _ body: () async throws -> Void) async -> SheetSyncError? {
        do {
            try await body()
            return nil
        } catch {
            return outcome(of: error, store: ledger.store)
        }
    }

    /// Adds `count` rows by hand to the workbook's Transactions, copies of its first row with new ids.
    private func addRowsByHand(_ ledger: Ledger, count: Int) throws {
        try ledger.workbook.edit(.transactions) { table in
            guard let id = table.header.firstIndex(of: "transactionId"), let first = table.rows.first else { return }
            for n in 0..<count {
                var row = first
                row[id] = .text(String(format: "00000000-0000-4000-8000-%012d", n))
                table.rows.append(row)
            }
        }
    }

    /// Temporary files a replacement left in the workbook folder.
    private func leftovers(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("sheetsync-tmp") }
    }

    private func expectSaidOnce(_ message: String, _ phrases: [String]) {
        for phrase in phrases {
            #expect(message.components(separatedBy: phrase).count <= 2, "'\(phrase)' said twice: \(message)")
        }
        for wrong in ["in use by", "is busy", "lock"] {
            #expect(!message.contains(wrong), "untrue '\(wrong)' in: \(message)")
        }
    }

    @Test func aFullDiskWhileWritingTheTempCSVExits75NamingTheFileAndLosesNothing() async throws {
        let ledger = try await Ledger.synced()
        let store = try LedgerStore(path: ledger.store.path)
        var row = try #require(try store.records(in: .transactions).first)
        row[.transactionId] = "7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"
        row[.note] = "waits for space"
        try store.upsert(row, in: .transactions)
        let before = try ledger.workbook.allBytes()

        let failure = await failure(ledger) {
            _ = try await engine(ledger, store: store, faults: .fail(at: .tempWritten, errno: ENOSPC)).run(SyncOptions(mode: .sync))
        }
        let error = try #require(failure)
        #expect(error.exitCode == .temporaryFailure, "\(error.message)")
        #expect(error.failureCode == .noSpace, "\(error.message)")
        #expect(error.message.contains(ledger.workbook.url(.transactions).path), "\(error.message)")
        expectSaidOnce(error.message, ["run again", "no space left"])
        #expect(try ledger.workbook.allBytes() == before)
        #expect(try leftovers(ledger.book).isEmpty)
        #expect(try ledger.storeRows(.transactions)["7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"]?[.note] == "waits for space")

        // With space again the next run pushes the row.
        _ = try await engine(ledger, store: store).run(SyncOptions(mode: .sync))
        #expect(try ledger.sheetRows(.transactions)["7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"]?[.note] == "waits for space")
    }

    @Test func aFullDiskAtTheStoreCommitExits75AndTheNextRunTakesTheRows() async throws {
        let ledger = try await Ledger.synced()
        try addRowsByHand(ledger, count: 300)
        let sheetBefore = try ledger.sheetRows(.transactions)

        // Room for opening the store, not for the commit of 300 new rows.
        let full = try LedgerStore(path: ledger.store.path, faults: .diskFull(afterPages: 4))
        var thrown: (any Error)?
        do { _ = try await engine(ledger, store: full).run(SyncOptions(mode: .sync)) } catch { thrown = error }
        let storeError = try #require(thrown as? StoreError, "\(String(describing: thrown))")
        guard case .failed(_, let operation, let trouble, _) = storeError else {
            Issue.record("not a store failure: \(storeError)")
            return
        }
        #expect(operation == "commit the sync to" && trouble == .full)
        let error = outcome(of: storeError, store: ledger.store)
        #expect(error.exitCode == .temporaryFailure, "\(error.message)")
        #expect(error.failureCode == .noSpace, "\(error.message)")
        #expect(error.message.contains(ledger.store.path), "\(error.message)")
        expectSaidOnce(error.message, ["run again", "nothing was lost", "no space left"])
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(try ledger.sheetRows(.transactions) == sheetBefore)

        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions).count == 310)
    }

    @Test func aFullDiskAtStoreOpenExits75NotConfiguration() async throws {
        let ledger = try Ledger.unsynced()
        let failure = await failure(ledger) {
            _ = try LedgerStore(path: ledger.store.path, faults: .fullDisk)
        }
        let error = try #require(failure)
        #expect(error.exitCode == .temporaryFailure, "\(error.message)")
        #expect(error.failureCode == .noSpace, "\(error.message)")
        #expect(error.message.contains(ledger.store.path), "\(error.message)")
        #expect(error.failureCode != .diskError, "\(error.message)")
        expectSaidOnce(error.message, ["run again", "nothing was lost"])
    }

    @Test func aDiskIOErrorOnAFullDiskCountsAsFull() {
        // SQLite reports a failed WAL or shm write as SQLITE_IOERR; the folder's free space decides.
        #expect(StoreTrouble(DatabaseError(resultCode: .SQLITE_IOERR)) == .io)
        #expect(StoreTrouble(DatabaseError(resultCode: .SQLITE_FULL)) == .full)
        #expect(StoreTrouble(DatabaseError(resultCode: .SQLITE_CONSTRAINT)) == nil)
        let failed = StoreError.failed(path: "/ledger/ledger.sqlite", operation: "open", trouble: .full, message: "disk I/O error")
        #expect(StoreTrouble(failed) == .full)
        #expect(SheetSyncError.classify(failed, store: "elsewhere")?.exitCode == .temporaryFailure)
        #expect(SheetSyncError.classify(failed, store: "elsewhere")?.message.contains("/ledger/ledger.sqlite") == true)
        // The store's error stays underneath the message, for callers that branch on it.
        #expect(SheetSyncError.classify(failed, store: "elsewhere")?.underlying as? StoreError == failed)
    }

    @Test func aStoreFoundCorruptMidRunExits78WithTheSameRecoveryHintAsAtOpen() async throws {
        let ledger = try await Ledger.synced()
        // A hand edit, so the run has to read the store's rows rather than find nothing to do.
        try ledger.workbook.edit(.transactions) { table in
            if let note = table.header.firstIndex(of: "note") { table.rows[0][note] = .text("edited by hand") }
        }
        let sheetBefore = try ledger.workbook.allBytes()
        // Damage only the Transactions table's pages: the store opens, the run fails when it reads them.
        let (pageSize, rootPage) = try {
            let db = try DatabaseQueue(path: ledger.store.path)
            defer { try? db.close() }
            // Everything committed into the file itself, so its bytes are the whole store.
            try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            return try db.read { db in
                (
                    try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
                    try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'transactions'") ?? 0
                )
            }
        }()
        try #require(rootPage > 1)
        let handle = try FileHandle(forUpdating: ledger.store)
        try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: pageSize))
        try handle.close()

        let midRun = try await ledger.run("sync", "--json")
        #expect(midRun.status == 78, "\(midRun.stderr)")
        #expect(midRun.failureCode == .storeDamaged, "\(midRun.stdout)")
        #expect(midRun.stderr.contains(ledger.store.path), "\(midRun.stderr)")
        #expect(try ledger.workbook.allBytes() == sheetBefore)

        try Data("this is not sqlite".utf8).write(to: ledger.store)
        let atOpen = try await ledger.run("sync", "--json")
        #expect(atOpen.status == 78, "\(atOpen.stderr)")
        #expect(atOpen.failureCode == .storeDamaged, "\(atOpen.stdout)")
        #expect(atOpen.stderr == midRun.stderr)
        #expect(try ledger.workbook.allBytes() == sheetBefore)

        // The hint works: with the store moved aside the next sync rebuilds it, hand edit included.
        try FileManager.default.moveItem(at: ledger.store, to: ledger.folder.appendingPathComponent("damaged.sqlite"))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger.store.path + suffix) }
        let rebuilt = try await ledger.run("sync")
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try ledger.storeRows(.transactions).count == 10)
        #expect(try ledger.storeRows(.transactions).values.contains { $0[.note] == "edited by hand" })
    }

    @Test func aWorkbookFileThatCannotBeWrittenExits78NamingItNotRetriedForever() async throws {
        let ledger = try await Ledger.synced()
        let store = try LedgerStore(path: ledger.store.path)
        var row = try #require(try store.records(in: .transactions).first)
        row[.transactionId] = "7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"
        try store.upsert(row, in: .transactions)
        let before = try ledger.workbook.allBytes()

        for code in [EACCES, EROFS] {
            let failure = await failure(ledger) {
                _ = try await engine(ledger, store: store, faults: .fail(at: .tempCreated, errno: code)).run(SyncOptions(mode: .sync))
            }
            let error = try #require(failure)
            #expect(error.exitCode == .configuration, "\(error.message)")
            #expect(error.failureCode == .notWritable, "\(error.message)")
            #expect(error.message.contains(ledger.workbook.url(.transactions).path), "\(error.message)")
            expectSaidOnce(error.message, [ledger.workbook.url(.transactions).path])
            if code == EROFS {
                // No chmod makes a read-only mount writable: the hint says what does.
                #expect(error.message.contains("mounted read-only"), "\(error.message)")
                #expect(!error.message.contains("chmod") && !error.message.contains("permissions"), "\(error.message)")
            }
            #expect(try ledger.workbook.allBytes() == before)
            #expect(try leftovers(ledger.book).isEmpty)
        }
        #expect(try ledger.storeRows(.transactions)["7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"] != nil)
    }

    @Test func googleRefusingTheCredentialsAfterAFreshTokenExits78AndChangesNothing() async throws {
        let bed = try await GoogleTestBed.start("g-401")
        _ = try GoogleSeed.ledger(in: bed, transactions: 3, ids: SeededIDs(seed: 5))
        #expect(try await bed.cli("sync").status == 0)
        #expect(try await bed.cli("add", "expense", "--amount", "2.00", "--category", "Food", "--note", "waits").status == 0)
        let storeBefore = try bed.storeRecords(.transactions), sheetBefore = try bed.sheetRecords(.transactions)
        bed.emulator.resetCounters()
        // Whichever read comes first is refused, and again after the client fetched a new token.
        for endpoint in ["sheets.spreadsheets.get", "sheets.spreadsheets.values.batchGet", "sheets.spreadsheets.values.get"] {
            for occurrence in 1...2 { bed.emulator.injectFault(.status(401), at: .endpoint(endpoint, occurrence: occurrence)) }
        }
        let run = try await bed.cli("sync", "--json")
        bed.emulator.clearFaults()
        #expect(run.status == 78, "\(run.stderr)")
        #expect(bed.emulator.counters.requests("oauth2.token") >= 2, "a refresh was tried first")
        #expect(run.failureCode == .googleCredentials, "\(run.stdout)")
        expectSaidOnce(run.stderr, ["auth login", "nothing was lost"])
        #expect(try bed.storeRecords(.transactions) == storeBefore)
        #expect(try bed.sheetRecords(.transactions) == sheetBefore)
        await bed.finish()
    }

    @Test func aStoreThatCannotBeCreatedForPermissionsExits78NamingIt() async throws {
        let ledger = try Ledger.unsynced()
        let failed = StoreError.failed(
            path: ledger.store.path, operation: "create", trouble: .notWritable, message: "Permission denied")
        let error = outcome(of: failed, store: ledger.store)
        #expect(error.exitCode == .configuration)
        #expect(error.failureCode == .notWritable, "\(error.message)")
        #expect(error.message.contains(ledger.store.path))
        expectSaidOnce(error.message, [])
    }

    // Through the binary: what cron sees, and `--json` still answers.

    @Test func aStoreLockedByAnotherSQLiteClientIsTemporary() async throws {
        let ledger = try await Ledger.synced()
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let db = try DatabaseQueue(path: ledger.store.path, configuration: configuration)
        // Another program holds the write lock (sqlite3 shell: BEGIN EXCLUSIVE) for longer than the busy timeout.
        try await db.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        let run = try await ledger.run("add", "expense", "--amount", "1", "--category", "Dining", "--json")
        try await db.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        try db.close()
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.failureCode == .storeBusy, "\(run.stdout)")
        let error = try #require(run.failure)
        #expect(error["kind"] as? String == "temporary")
        #expect(error["exitCode"] as? Int == 75)
        #expect(try ledger.storeRows(.transactions).count == 10)
    }

    @Test func aFailureWithJsonPrintsOneErrorObject() async throws {
        let folder = try TestWorkbook.scratch("empty")
        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 78)
        let error = try #require(run.failure)
        #expect(error["kind"] as? String == "configuration")
        #expect(error["code"] as? String == IssueCode.notALedger.rawValue, "\(error)")
    }

    @Test func aStoreThatIsNotADatabaseIsAConfigurationError() async throws {
        let ledger = try await Ledger.synced()
        try Data("this is not sqlite".utf8).write(to: ledger.store)
        let run = try await ledger.run("sync")
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains(ledger.store.path))
    }
}
