import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import Testing
import Workbook

@testable import SheetSync

#if canImport(Glibc)
    import Glibc
#endif

/// A ledger folder others can write (a shared or synced folder) is not trusted: a symlink put where
/// sheetsync keeps a file (a lock, the backup folder, a tab, the store) is refused with 78 naming it,
/// nothing is created, written or deleted where it points, and a FIFO or device in a tab's place is
/// refused before anything reads it. Each test looks at the files on both sides of the link.
@Suite struct UntrustedFolderTests {
    private static let start = Timestamp(iso: "2026-03-01T00:00:00.000Z")!

    private func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// Every file in `folder` with its bytes.
    private func contents(_ folder: URL) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            out[name] = try bytes(folder.appendingPathComponent(name))
        }
        return out
    }

    /// The clean sample synced into an in-memory store, and a transaction added in the store since, to be pushed.
    private func syncedWithAChange() async throws -> (TestWorkbook, LedgerStore, SyncEngine) {
        let workbook = TestWorkbook(folder: try CLI.copyOfSample("clean"))
        let store = try LedgerStore.inMemory()
        let engine = SyncEngine(
            store: store, remote: CSVWorkbookRemote(folder: workbook.folder), clock: ManualClock(Self.start),
            newID: { UUID().uuidString.lowercased() })
        _ = try await engine.run(SyncOptions(mode: .sync))
        var row = try #require(try store.records(in: .transactions).first)
        row[.transactionId] = "7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"
        row[.note] = "to be pushed"
        try store.upsert(row, in: .transactions)
        return (workbook, store, engine)
    }

    private func refusal(_ run: () async throws -> Void) async -> SheetSyncError? {
        do {
            try await run()
            return nil
        } catch {
            return error as? SheetSyncError
        }
    }

    // MARK: symlinks where sheetsync keeps its own files

    @Test func aDanglingWorkbookLockSymlinkIsRefusedAndNothingIsCreatedWhereItPoints() async throws {
        let folder = try TestWorkbook.scratch("lock-link")
        let elsewhere = try TestWorkbook.scratch("elsewhere")
        let victim = elsewhere.appendingPathComponent("created-by-sheetsync")
        let lock = folder.appendingPathComponent(".sheetsync.lock")
        try FileManager.default.createSymbolicLink(atPath: lock.path, withDestinationPath: victim.path)

        let error = await refusal { _ = try RunLock.onWorkbook(lock, name: "CSV workbook", waiting: 0) }
        #expect(error?.exitCode == .configuration)
        #expect(error?.failureCode == .notARegularFile, "\(String(describing: error))")
        #expect(error?.message.contains("'\(lock.path)' is a symbolic link (to \(victim.path))") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: victim.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test func aStoreLockSymlinkIsRefusedAndNothingIsCreatedWhereItPoints() async throws {
        let folder = try TestWorkbook.scratch("store-lock-link")
        let victim = try TestWorkbook.scratch("elsewhere").appendingPathComponent("victim")
        let store = folder.appendingPathComponent("ledger.sqlite")
        try FileManager.default.createSymbolicLink(atPath: store.path + ".lock", withDestinationPath: victim.path)

        let error = await refusal { _ = try RunLock(store: store) }
        #expect(error?.exitCode == .configuration)
        #expect(error?.failureCode == .notARegularFile, "\(String(describing: error))")
        #expect(error?.message.contains("'\(store.path).lock' is a symbolic link") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: victim.path))
    }

    @Test func aBackupFolderThatIsASymlinkIsRefusedBeforeAnyTabIsReplacedAndNothingThereIsTouched() async throws {
        let (workbook, store, engine) = try await syncedWithAChange()
        let elsewhere = try TestWorkbook.scratch("elsewhere")
        // Files a rotation of Transactions.csv's backups would take for its own and delete.
        for day in 1...6 {
            try Data("someone else's file \(day)\n".utf8).write(
                to: elsewhere.appendingPathComponent("Transactions.2026-01-0\(day)T000000Z.csv"))
        }
        let theirs = try contents(elsewhere)
        let backupFolder = workbook.folder.appendingPathComponent(AtomicFile.backupFolderName)
        try? FileManager.default.removeItem(at: backupFolder)
        try FileManager.default.createSymbolicLink(atPath: backupFolder.path, withDestinationPath: elsewhere.path)
        let before = try workbook.allBytes()

        let error = await refusal { _ = try await engine.run(SyncOptions(mode: .sync)) }
        #expect(error?.exitCode == .configuration)
        #expect(error?.failureCode == .notARegularFile, "\(String(describing: error))")
        #expect(
            error?.message.contains("'\(backupFolder.path)' is a symbolic link (to \(elsewhere.path))") == true,
            "\(String(describing: error))")
        #expect(try contents(elsewhere) == theirs)
        #expect(try workbook.allBytes() == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workbook.folder.path).filter {
            $0.contains(".sheetsync-tmp-") || $0.contains(".sheetsync-swap-")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // The change waits in the store for a run after the link is gone.
        try FileManager.default.removeItem(at: backupFolder)
        _ = try await engine.run(SyncOptions(mode: .sync))
        #expect(try workbook.records(.transactions, now: Self.start)["7a1f0c52-6f65-4b8e-9a43-0d2a3c1e5b10"]?[.note] == "to be pushed")
        #expect(try store.records(in: .transactions).count == 11)
    }

    @Test func aSymlinkedTabIsRefusedAndTheFileItNamesIsNeitherReadNorWritten() async throws {
        let (workbook, store, engine) = try await syncedWithAChange()
        let elsewhere = try TestWorkbook.scratch("elsewhere")
        let real = elsewhere.appendingPathComponent("ledger-2026.csv")
        let link = workbook.url(.transactions)
        try FileManager.default.moveItem(at: link, to: real)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let before = try bytes(real)
        let storeBefore = try store.records(in: .transactions)

        let error = await refusal { _ = try await engine.run(SyncOptions(mode: .sync)) }
        #expect(error?.exitCode == .configuration)
        #expect(error?.failureCode == .notARegularFile, "\(String(describing: error))")
        #expect(error?.message.contains("'\(link.path)' is a symbolic link (to \(real.path))") == true, "\(String(describing: error))")
        #expect(try bytes(real) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["ledger-2026.csv"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try store.records(in: .transactions) == storeBefore)
    }

    @Test func aStoreThatIsASymlinkIsRefusedAndNothingIsWrittenWhereItPoints() async throws {
        let folder = try CLI.copyOfSample("clean")
        let elsewhere = try TestWorkbook.scratch("elsewhere")
        let victim = elsewhere.appendingPathComponent("victim.sqlite")
        let store = folder.appendingPathComponent("sheetsync.sqlite")
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: victim.path)
        let before = try TestWorkbook(folder: folder).allBytes()

        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.failureCode == .notARegularFile, "\(run.stdout)")
        #expect(run.stderr.contains("'\(store.path)' is a symbolic link (to \(victim.path))"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(try TestWorkbook(folder: folder).allBytes() == before)
    }

    @Test func aReceiptsFolderThatIsASymlinkIsRefusedAndNothingIsCopiedWhereItPoints() async throws {
        let ledger = try await Ledger.synced()
        let elsewhere = try TestWorkbook.scratch("elsewhere")
        let receipts = ledger.book.appendingPathComponent("Receipts")
        try? FileManager.default.removeItem(at: receipts)
        try FileManager.default.createSymbolicLink(atPath: receipts.path, withDestinationPath: elsewhere.path)
        let image = ledger.folder.appendingPathComponent("receipt.jpg")
        try Data("jpeg".utf8).write(to: image)
        let id = try #require(try ledger.storeRows(.transactions).keys.sorted().first)
        let before = try ledger.storeRows(.receipts)

        let run = try await ledger.run("receipt", "add", id, image.path, "--json")
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.failureCode == .notARegularFile, "\(run.stdout)")
        #expect(run.stderr.contains("'\(receipts.path)' is a symbolic link (to \(elsewhere.path))"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(try ledger.storeRows(.receipts) == before)
    }

    // MARK: what a killed run leaves

    /// A swap file a run killed right after the exchange left (the previous version, maybe someone's save)
    /// is moved into the backups by the next run that holds the workbook, even one that writes nothing;
    /// a command that only reads leaves it where it is.
    @Test func aDeadRunsSwapFileIsSweptIntoTheBackupsByAnyLaterSyncAndLeftAloneByCheck() async throws {
        let folder = try CLI.copyOfSample("clean")
        let workbook = TestWorkbook(folder: folder)
        let workspace = Workspace(
            config: Config(store: folder.appendingPathComponent("sheetsync.sqlite"), remote: .csv(folder: folder), timezone: "Etc/UTC"))
        _ = try await WorkbookSync(workspace).run(SyncOptions(mode: .sync))
        // A pid no process has (above the kernel's largest).
        let swap = folder.appendingPathComponent(".Transactions.csv.sheetsync-swap-2147483646-0")
        let previous = Array("transactionId,date\nthe version before the killed run's write\n".utf8)
        try Data(previous).write(to: swap)
        let before = try workbook.allBytes()

        _ = try await Inspection(workspace).check(path: nil)
        #expect(try bytes(swap) == previous, "check only reads")

        let quiet = try await WorkbookSync(workspace).run(SyncOptions(mode: .sync))
        #expect(quiet.errors.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: swap.path))
        let backups = AtomicFile.backups(of: "Transactions.csv", in: folder)
        #expect(backups.count == 1, "\(backups)")
        let kept = try backups.map { try bytes(folder.appendingPathComponent(AtomicFile.backupFolderName).appendingPathComponent($0)) }
        #expect(kept == [previous])
        #expect(try workbook.allBytes() == before, "a sync with nothing to write changes no tab")
    }

    // MARK: FIFOs and devices in a tab's place

    @Test func aFIFOInATabsPlaceIsRefusedBeforeAnythingReadsIt() async throws {
        let folder = try CLI.copyOfSample("clean")
        let tab = folder.appendingPathComponent("Transactions.csv")
        try FileManager.default.removeItem(at: tab)
        #expect(mkfifo(tab.path, 0o644) == 0)

        let error = await refusal { _ = try await CSVWorkbookRemote(folder: folder).read() }
        #expect(error?.exitCode == .configuration)
        #expect(error?.failureCode == .notARegularFile, "\(String(describing: error))")
        #expect(error?.message.contains("'\(tab.path)' is a FIFO (named pipe), not a regular file") == true, "\(String(describing: error))")
    }

    @Test func aTabLinkedToADeviceIsRefusedBeforeAnythingReadsIt() async throws {
        let folder = try CLI.copyOfSample("clean")
        let tab = folder.appendingPathComponent("Transactions.csv")
        try FileManager.default.removeItem(at: tab)
        try FileManager.default.createSymbolicLink(atPath: tab.path, withDestinationPath: "/dev/zero")

        let error = await refusal { _ = try await CSVWorkbookRemote(folder: folder).read() }
        #expect(error?.exitCode == .configuration)
        #expect(error?.failureCode == .notARegularFile, "\(String(describing: error))")
        #expect(error?.message.contains("'\(tab.path)' is a symbolic link (to /dev/zero)") == true, "\(String(describing: error))")
    }

    @Test func aDeviceNamedAsAFileIsRefusedByEveryReader() throws {
        for device in ["/dev/zero", "/dev/urandom"] {
            #expect(throws: AtomicFileError.notAFile(path: device, what: "a character device")) {
                _ = try FileSnapshot.read(URL(fileURLWithPath: device))
            }
            #expect(throws: AtomicFileError.notAFile(path: device, what: "a character device")) {
                _ = try FileFingerprint.of(URL(fileURLWithPath: device))
            }
            #expect(throws: (any Error).self) { _ = try XLSXReader.sheetNames(contentsOf: URL(fileURLWithPath: device)) }
        }
    }
}
