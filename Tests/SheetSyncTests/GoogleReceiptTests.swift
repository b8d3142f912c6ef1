import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetsEmulator
import TestSupport
import Testing

/// `sheetsync receipt add` in Google mode: the next push uploads the image to the dataset's Drive
/// `Receipts/` folder (resumably, once) and then writes the Receipt row.
@Suite struct GoogleReceiptTests {
    struct Ledger {
        let bed: GoogleTestBed
        let transactionId: String
        let image: URL
        let bytes: Data
        var settings: LedgerRow { (try? bed.sheetRecords(.settings).values.first) ?? LedgerRow() }
    }

    /// `init` (which makes the Drive folders), a category typed into the sheet, a transaction added locally,
    /// and a receipt image queued for it.
    static func ledger(_ name: String, retryBudget: Double = 2) async throws -> (Ledger, receiptId: String) {
        let bed = try await GoogleTestBed.start(name, retryBudget: retryBudget)
        #expect(try await bed.cli("init").status == 0)
        try bed.emulator.insertRow(
            spreadsheetId: try bed.spreadsheetId(), tab: Tab.categories.rawValue, at: 1,
            typed: ["Food", "expense", "", "", "TRUE", "1"])
        #expect(try await bed.cli("sync").status == 0)
        let added = try await bed.cli("add", "expense", "--amount", "8.20", "--category", "Food", "--date", "2026-02-14")
        #expect(added.status == 0, "\(added.stderr)")
        let transactionId = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var generator = SeededRandom(seed: 9)
        let bytes = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let image = bed.folder.appendingPathComponent("scan.jpg")
        try bytes.write(to: image)
        let queued = try await bed.cli("receipt", "add", transactionId, image.path)
        #expect(queued.status == 0, "\(queued.stderr)")
        return (
            Ledger(bed: bed, transactionId: transactionId, image: image, bytes: bytes),
            queued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    /// Exactly one Drive file carries the receipt, in the Receipts folder, with the seed's name and the bytes;
    /// the Receipt row points at it on both sides.
    static func expectUploadedOnce(_ ledger: Ledger, receiptId: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let files = ledger.bed.emulator.files.filter { $0.appProperties["receiptId"] == receiptId && !$0.trashed }
        #expect(files.count == 1, "files for the receipt: \(files.map(\.name))", sourceLocation: sourceLocation)
        let file = try #require(files.first, sourceLocation: sourceLocation)
        #expect(file.name == "20260214_Food_\(ledger.transactionId)_1.jpg", sourceLocation: sourceLocation)
        #expect(file.parents == [ledger.settings[.receiptsFolderId]], sourceLocation: sourceLocation)
        #expect(file.content == ledger.bytes, sourceLocation: sourceLocation)
        let row = try #require(try ledger.bed.sheetRecords(.receipts)[receiptId], sourceLocation: sourceLocation)
        #expect(
            row[.driveFileId] == file.id && row[.fileName] == file.name && row[.transactionId] == ledger.transactionId,
            sourceLocation: sourceLocation)
        #expect(try ledger.bed.storeRecords(.receipts)[receiptId] == row, sourceLocation: sourceLocation)
        #expect(ledger.bed.emulator.pendingUploadSizes.values.allSatisfy { $0 == 0 }, sourceLocation: sourceLocation)
    }

    @Test func aQueuedReceiptIsUploadedToTheReceiptsFolderAndItsRowWritten() async throws {
        let (ledger, receiptId) = try await Self.ledger("g-receipt")
        let run = try await ledger.bed.cli("sync")
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectUploadedOnce(ledger, receiptId: receiptId)
        // The queue is empty: another sync uploads nothing.
        ledger.bed.emulator.resetCounters()
        #expect(try await ledger.bed.cli("sync").status == 0)
        #expect(ledger.bed.emulator.counters.requests("drive.files.create") == 0)
        try Self.expectUploadedOnce(ledger, receiptId: receiptId)
        await ledger.bed.finish()
    }

    /// A queued copy of a receipt waits beside the store as privately as the store (0700 folder, 0600
    /// file): it was 0755/0644, readable by every user of the machine.
    @Test func aQueuedReceiptCopyIsPrivateLikeTheStore() async throws {
        let (ledger, _) = try await Self.ledger("g-receipt-private")
        let upload = try #require(try ledger.bed.store().receiptUploads([.queued]).first)
        let mode = { (path: String) in (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode(URL(fileURLWithPath: upload.file).deletingLastPathComponent().path) == 0o700)
        #expect(try mode(upload.file) == 0o600)
        await ledger.bed.finish()
    }

    /// A dry run says which queued receipts the run would upload (it said "up to date"),
    /// and uploads nothing.
    @Test func aDryRunNamesTheQueuedReceiptsItWouldUpload() async throws {
        let (ledger, receiptId) = try await Self.ledger("g-receipt-dry")
        ledger.bed.emulator.resetCounters()
        for command in [["push", "--dry-run"], ["sync", "--dry-run"], ["sync", "--materialize", "--dry-run"]] {
            let run = try await CLI.run(command, in: ledger.bed.folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("would upload 1 queued receipt") && run.stdout.contains(receiptId), "\(command): \(run.stdout)")
            #expect(!run.stdout.contains("up to date"), "\(run.stdout)")
        }
        #expect(ledger.bed.emulator.counters.requests("drive.files.create") == 0)
        #expect(try ledger.bed.store().receiptUploads([.queued]).count == 1)
        await ledger.bed.finish()
    }

    /// The README's cron line is `sync --materialize`: it must upload queued receipts as `sync` does.
    @Test func syncWithMaterializeUploadsQueuedReceiptsToo() async throws {
        let (ledger, receiptId) = try await Self.ledger("g-receipt-materialize")
        let run = try await ledger.bed.cli("sync", "--materialize")
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectUploadedOnce(ledger, receiptId: receiptId)
        await ledger.bed.finish()
    }

    /// With no retry budget, the first failure ends the run (75); the next run finishes the same upload.
    @Test(arguments: [
        (EmulatorFault.dropConnection, FaultPhase.beforeEffect, "drive.uploadSession"),
        (EmulatorFault.dropConnection, FaultPhase.afterEffect, "drive.uploadSession"),
        (EmulatorFault.resetConnection, FaultPhase.afterEffect, "drive.files.create"),
        (EmulatorFault.status(503), FaultPhase.beforeEffect, "drive.uploadSession"),
    ])
    func anInterruptedUploadResumesOnTheNextRunWithoutASecondFile(fault: EmulatorFault, phase: FaultPhase, endpoint: String) async throws {
        let (ledger, receiptId) = try await Self.ledger("g-receipt-fault", retryBudget: 0)
        ledger.bed.emulator.resetCounters()
        ledger.bed.emulator.injectFault(fault, at: .endpoint(endpoint, occurrence: 1), phase: phase)
        let interrupted = try await ledger.bed.cli("sync")
        if fault == .dropConnection || fault == .resetConnection {
            // The run reuses one connection; libcurl re-sends an idempotent request (a session start, an upload chunk)
            // once on a new connection when a reused one dies unanswered, so the run may finish the upload itself.
            #expect([0, 75].contains(interrupted.status), "\(interrupted.stderr)")
        } else {
            #expect(interrupted.status == 75, "\(interrupted.stderr)")
            #expect(try ledger.bed.sheetRecords(.receipts)[receiptId] == nil)
        }
        let sessionsBefore = ledger.bed.emulator.requestLog.filter { $0.endpoint == "drive.files.create" }.count
        ledger.bed.emulator.resetCounters()
        let resumed = try await ledger.bed.cli("sync")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        try Self.expectUploadedOnce(ledger, receiptId: receiptId)
        if endpoint == "drive.uploadSession" && phase == .beforeEffect {
            // The session the first run started (and saved) is resumed, not begun again.
            #expect(sessionsBefore == 1)
            #expect(ledger.bed.emulator.counters.requests("drive.files.create") == 0)
        }
        await ledger.bed.finish()
    }
}
