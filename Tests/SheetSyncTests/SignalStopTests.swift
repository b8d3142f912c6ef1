import Dispatch
import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetsEmulator
import Synchronization
import TestSupport
import Testing
import Workbook

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM sent to a running `sheetsync` stop it at a safe point: one line, exit 128 + the
/// signal, each side either as it was or as the run left it complete, no temporary file, and the next
/// run converges.
@Suite struct SignalStopTests {
    static let writes = ["sheets.spreadsheets.batchUpdate", "sheets.spreadsheets.values.batchUpdate", "sheets.spreadsheets.values.append"]

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringAGoogleWriteStopsTheRunAndTheNextRunConverges(signal: Int32, status: Int32) async throws {
        // A budget long enough that the held write is still waiting when the signal comes.
        let bed = try await GoogleTestBed.start("g-signal", retryBudget: 300)
        _ = try GoogleSeed.ledger(in: bed, transactions: 4, ids: SeededIDs(seed: 7))
        #expect(try await bed.cli("sync").status == 0)
        let added = try await bed.cli("add", "expense", "--amount", "7.00", "--category", "Food", "--note", "before the signal")
        #expect(added.status == 0, "\(added.stderr)")
        let addedId = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let storeBefore = try bed.storeRecords(.transactions)
        let sheetBefore = try bed.sheetRecords(.transactions)

        // The write takes effect at once and its answer is held until the run has ended: the signal lands
        // while the run waits for it, whatever the machine's load (no answer comes on a timer). The run
        // sends nothing more and does not commit the store; the answer it gave up goes out afterwards.
        bed.emulator.resetCounters()
        for endpoint in Self.writes {
            bed.emulator.injectFault(.hold(gate: "answer"), at: .endpoint(endpoint, occurrence: 1), phase: .afterEffect)
        }
        let launch = try CLI.launch(["push"], in: bed.folder, environment: [:])
        let ended = AsyncStream<Void> { continuation in
            launch.process.terminationHandler = { _ in continuation.finish() }
        }
        try launch.process.run()
        // Waits (without a deadline) for the write to be held at the emulator, or for the run to end by itself.
        while launch.process.isRunning, !bed.emulator.isHeld(at: "answer") { try await Task.sleep(for: .milliseconds(20)) }
        #expect(launch.process.isRunning, "push ended before its write reached Google")
        let sentBeforeSignal = bed.emulator.requestLog.count
        kill(launch.process.processIdentifier, signal)
        // A run that ignored the signal would wait for the answer for ever: the gate opens after two
        // minutes then, and the run ends with its push done, not with 128 + the signal.
        let failSafe = Task {
            try await Task.sleep(for: .seconds(120))
            bed.emulator.open(gate: "answer")
        }
        for await _ in ended {}
        failSafe.cancel()
        let run = try launch.finish()
        bed.emulator.open(gate: "answer")
        bed.emulator.clearFaults()

        #expect(run.status == status, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(signal == SIGINT ? "SIGINT" : "SIGTERM"), "\(run.stderr)")
        // The store was not committed: it is as it was. The sheet holds the finished write, never a part.
        #expect(try bed.storeRecords(.transactions) == storeBefore)
        let sheetAfter = try bed.sheetRecords(.transactions)
        #expect(sheetAfter == sheetBefore || sheetAfter == storeBefore, "\(sheetAfter.keys.sorted())")
        #expect(bed.emulator.requestLog.count == sentBeforeSignal, "nothing was sent after the signal")
        let files = try FileManager.default.contentsOfDirectory(atPath: bed.folder.path)
        #expect(files.allSatisfy { !$0.contains("tmp") && !$0.hasSuffix(".partial") }, "\(files)")
        #expect(try lockIsFree(bed.storeURL))

        let next = try await bed.cli("sync")
        #expect(next.status == 0, "\(next.stderr)")
        let store = try bed.storeRecords(.transactions), sheet = try bed.sheetRecords(.transactions)
        #expect(store == sheet)
        #expect(store[addedId]?[.note] == "before the signal")
        #expect(store.count == storeBefore.count)
        await bed.finish()
    }

    /// Whether the run lock of `store` can be taken (the stopped run released it).
    func lockIsFree(_ store: URL) throws -> Bool {
        let fd = open(store.path + ".lock", O_RDWR)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(fd, LOCK_UN)
        return true
    }
}

/// The file remote's safe point between tabs, driven in process: the "signal" (a cancellation) comes
/// while the first changed tab is being replaced.
@Suite struct CSVStopBetweenTabsTests {
    @Test func aStopWhileOneTabIsWrittenLeavesTheOthersAsTheyWereAndNoTemporaryFile() async throws {
        let ledger = try await Ledger.synced()
        let store = try LedgerStore(path: ledger.store.path)
        var category = try #require(try store.records(in: .categories).first)
        category[.name] = "Garden"
        try store.upsert(category, in: .categories)
        var transaction = try #require(try store.records(in: .transactions).first)
        transaction[.transactionId] = "7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"
        transaction[.note] = "after the stop"
        try store.upsert(transaction, in: .transactions)
        let before = Dictionary(uniqueKeysWithValues: try Tab.allCases.map { ($0, try ledger.workbook.bytes($0)) })

        let run = Mutex<Task<SyncReport, any Error>?>(nil)
        let stopAfterFirstTab = FaultInjector { step in
            if step == .directorySynced { run.withLock { $0?.cancel() } }
        }
        let engine = SyncEngine(store: store, remote: CSVWorkbookRemote(folder: ledger.book, faults: stopAfterFirstTab))
        let task = run.withLock { task in
            let started = Task { try await engine.run(SyncOptions(mode: .sync)) }
            task = started
            return started
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }

        let changed = try Tab.allCases.filter { try ledger.workbook.bytes($0) != before[$0] }
        #expect(changed.count == 1, "exactly the tab being written when the stop came: \(changed)")
        let files = try FileManager.default.contentsOfDirectory(atPath: ledger.book.path)
        #expect(files.allSatisfy { !$0.contains("sheetsync-tmp") }, "\(files)")
        // Nothing was committed: the next run finishes the job on both sides.
        _ = try await SyncEngine(store: store, remote: CSVWorkbookRemote(folder: ledger.book)).run(SyncOptions(mode: .sync))
        #expect(try ledger.sheetRows(.categories)["Garden"] != nil)
        #expect(try ledger.sheetRows(.transactions)["7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"]?[.note] == "after the stop")
        #expect(try ledger.storeRows(.transactions).count == 11)
    }
}

extension SignalStopTests {
    /// A run waiting for another run's workbook lock stops at a signal instead of waiting out the whole
    /// two minutes (past systemd's stop timeout), having changed nothing. The test waits on events, never
    /// on the clock: the signal is sent once the run holds the lock file open (it is then in its wait),
    /// and a run that ignored the signal would end after its wait with 75 and "in use", not 143.
    @Test func aSignalWhileWaitingForTheWorkbookLockStopsTheRunAtOnce() async throws {
        let folder = try await CLI.storesSharingASample(["a"])
        let before = try Data(contentsOf: folder.appendingPathComponent("Transactions.csv"))
        let lockPath = folder.appendingPathComponent(".sheetsync.lock").path
        let holder = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        defer { close(holder) }
        let launch = try CLI.launch(["sync", "--config", "a.json"], in: folder, environment: [:])
        let ended = AsyncStream<Void> { continuation in launch.process.terminationHandler = { _ in continuation.finish() } }
        try launch.process.run()
        let pid = launch.process.processIdentifier
        // The watch runs on a thread of its own: the run gives up its wait after two minutes, and a task
        // on the cooperative pool could be kept from running that long by CPU-bound tests beside it.
        try await withTaskExecutorPreference(Self.watcher) {
            while launch.process.isRunning, !Self.process(pid, holdsOpen: lockPath) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(launch.process.isRunning, "the run waits for the lock")
            kill(pid, SIGTERM)
        }
        for await _ in ended {}
        let run = try launch.finish()
        #expect(run.status == 143, "\(run.stderr)")
        #expect(run.stderr.contains("SIGTERM") && !run.stderr.contains("in use"), "\(run.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("Transactions.csv")) == before)
    }

    /// The thread that watches a run waiting for a lock and signals it.
    static let watcher = ThreadExecutor(name: "signal-watch")

    /// Whether process `pid` has `path` open (its `/proc/PID/fd` links).
    static func process(_ pid: Int32, holdsOpen path: String) -> Bool {
        let fds = "/proc/\(pid)/fd"
        let links = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return links.contains { link in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + link)) == target
        }
    }
}

extension SignalStopTests {
    /// The first signal stops a run that waits for a Google answer that never comes: the request is
    /// given up at once. The test waits on events only: the signal goes once the request is held at the
    /// emulator, and the test goes on when the process ends. The gate opens only after that (a run that
    /// ignored the first signal would wait on it for ever; the fail-safe opens it after two minutes,
    /// and the run then ends with its push done, not with 143).
    @Test func theFirstSignalStopsARunWaitingForAGoogleAnswerThatNeverComes() async throws {
        // A budget long enough that the request is still waiting when the signal comes (no attempt outlasts it).
        let bed = try await GoogleTestBed.start("g-signal-held", retryBudget: 300)
        _ = try GoogleSeed.ledger(in: bed, transactions: 2, ids: SeededIDs(seed: 11))
        #expect(try await bed.cli("sync").status == 0)
        #expect(try await bed.cli("add", "expense", "--amount", "7.00", "--category", "Food").status == 0)
        let storeBefore = try bed.storeRecords(.transactions)
        let sheetBefore = try bed.sheetRecords(.transactions)
        bed.emulator.resetCounters()
        for endpoint in Self.writes {
            bed.emulator.injectFault(.hold(gate: "never"), at: .endpoint(endpoint, occurrence: 1), phase: .beforeEffect)
        }
        let launch = try CLI.launch(["push"], in: bed.folder, environment: [:])
        let ended = AsyncStream<Void> { continuation in launch.process.terminationHandler = { _ in continuation.finish() } }
        try launch.process.run()
        while launch.process.isRunning, !bed.emulator.isHeld(at: "never") { try await Task.sleep(for: .milliseconds(20)) }
        #expect(launch.process.isRunning, "push ended before its write reached Google")
        kill(launch.process.processIdentifier, SIGTERM)
        let failSafe = Task {
            try await Task.sleep(for: .seconds(120))
            bed.emulator.open(gate: "never")
        }
        for await _ in ended {}
        failSafe.cancel()
        let run = try launch.finish()
        bed.emulator.open(gate: "never")
        bed.emulator.clearFaults()

        #expect(run.status == 143, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("stopped by SIGTERM"), "\(run.stderr)")
        #expect(try bed.storeRecords(.transactions) == storeBefore)
        // The held write goes on at the emulator once its gate opens (the run gave it up): whole or not at all.
        let sheetAfter = try bed.sheetRecords(.transactions)
        #expect(sheetAfter == sheetBefore || sheetAfter == storeBefore, "\(sheetAfter.keys.sorted())")
        #expect(try lockIsFree(bed.storeURL))

        let next = try await bed.cli("sync")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try bed.storeRecords(.transactions) == bed.sheetRecords(.transactions))
        await bed.finish()
    }
}

extension SignalStopTests {
    /// The first signal ends a run within seconds even where it reaches no safe point: here SQLite's
    /// wait (up to 5 s) for a store another program holds a write lock on. The run is ended where it is,
    /// as a crash would end it, and says so in one line with 143; before, it waited out the 5 s and
    /// exited 75 ("busy"). The signal goes once the run has its handlers in place (an event), before it
    /// opens the store: the 3-second grace runs out before SQLite's 5 s, which start later.
    @Test func theFirstSignalEndsARunThatReachesNoSafePointWithinSeconds() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.storeRows(.transactions)
        // Another program's write transaction on the store, held until the run has ended.
        let holder = try DatabaseQueue(path: ledger.store.path)
        let (taken, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        Thread.detachNewThread {
            try? holder.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    taken.signal()
                    release.wait()
                    return .rollback
                }
            }
        }
        taken.wait()
        let launch = try CLI.launch(["add", "expense", "--amount", "7", "--category", "Dining"], in: ledger.folder, environment: [:])
        let ended = AsyncStream<Void> { continuation in launch.process.terminationHandler = { _ in continuation.finish() } }
        try launch.process.run()
        let pid = launch.process.processIdentifier
        // Sent as soon as the run handles SIGTERM (before it opens the store), so SQLite's 5 s start after it;
        // watched from a thread of its own, which a busy test process's task pool cannot hold up.
        let signalled = Mutex(false)
        Thread.detachNewThread {
            while kill(pid, 0) == 0, !Self.process(pid, handles: SIGTERM) { usleep(1_000) }
            signalled.withLock { $0 = kill(pid, SIGTERM) == 0 }
        }
        for await _ in ended {}
        let run = try launch.finish()
        release.signal()
        #expect(signalled.withLock { $0 }, "the run waits for the store")

        #expect(run.status == 143, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("stopped by SIGTERM where it was (no safe point within 3 s)"), "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions) == before)
        #expect(try await ledger.run("sync").status == 0)
    }
}

extension SignalStopTests {
    /// Whether process `pid` catches `signal` (`SigCgt` in /proc/PID/status): its handler is in place. (Not
    /// merely ignored: the run ignores it for an instant before its handler is installed, and a signal
    /// sent then is lost.)
    static func process(_ pid: Int32, handles signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }
}
