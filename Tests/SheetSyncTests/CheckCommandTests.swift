import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetValues
import Testing

/// `check` says what the workbook holds (rows a sync can load, rows it rejects), not a plan against an
/// empty store that reads like rows waiting to load.
@Suite struct CheckCommandTests {
    @Test func aSyncedWorkbookChecksAsValidRowsNotAsRowsToLoad() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync", "--quiet"], in: folder).status == 0)
        let status = try await CLI.run(["status", "--json"], in: folder)
        #expect(status.statusReport?.nothingPending == true, "\(status.stdout)")

        let check = try await CLI.run(["check"], in: folder)
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Transactions: 10 valid rows", "\(lines)")
        #expect(lines.contains("Settings: 1 valid row"), "\(lines)")
        #expect(!check.stdout.contains("store +"), "\(check.stdout)")
    }

    /// `check` of the configured workbook says what `sync` would refuse: a workbook of another dataset
    /// than the store is bound to. Nothing is written.
    @Test func aWorkbookOfAnotherDatasetThanTheStoreIsSaid() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.settings) { table in table.rows[0][0] = .text("c0ffee00-0000-4000-8000-000000000001") }
        let before = try ledger.everyByte()
        let check = try await ledger.run("check")
        #expect(check.status == 65, "\(check.stdout) \(check.stderr)")
        #expect(
            check.stderr.contains("belongs to dataset c0ffee00-0000-4000-8000-000000000001")
                && check.stderr.contains("bound to dataset b4d5891d-9e53-5116-8cdc-779311294f7b"), "\(check.stderr)")
        #expect(try ledger.everyByte() == before)
        #expect(try await ledger.run("sync").status == 78)
    }

    /// An id with a full-width digit (typed with an input method) is rejected by `check` and `sync`
    /// alike (65), and the other rows sync; it was read as a UUID, the store's CHECK refused it and
    /// every sync stopped with an internal error, exit 1.
    @Test func anIdWithAFullWidthDigitIsRejectedNotAnInternalError() async throws {
        let folder = try CLI.copyOfSample("clean")
        let file = folder.appendingPathComponent("Transactions.csv")
        let text = try String(contentsOf: file, encoding: .utf8)
        let id = "c94839fb-9d8e-5116-be50-879909f6ed74"
        try text.replacingOccurrences(of: id, with: "c94839fb-9d8e-5116-be50-879909f6ed7\u{FF14}")
            .write(to: file, atomically: true, encoding: .utf8)
        let check = try await CLI.run(["check", "--json"], in: folder)
        #expect(check.status == 65, "\(check.stdout) \(check.stderr)")
        let counted = check.report?.tabs["Transactions"]
        #expect(counted?.added == 9 && counted?.rejected == 1, "\(check.stdout)")
        let sync = try await CLI.run(["sync", "--json"], in: folder)
        #expect(sync.status == 65, "\(sync.stdout) \(sync.stderr)")
        #expect(sync.report?.rejected.map { "\($0.code.rawValue) \($0.tab.rawValue)" } == ["invalid-id Transactions"], "\(sync.stdout)")
        let store = try DatabaseQueue(path: folder.appendingPathComponent("sheetsync.sqlite").path)
        let stored = try await store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM transactions") }
        #expect(stored == 9)
    }

    /// What a sync would do on its own (a clock clamped, a copy given an id) is noted by `check` too, as
    /// by `sync` (unless --quiet); only `--json` and `--verbose` showed it.
    @Test func checkNotesWhatTheSyncWouldDoOnItsOwn() async throws {
        let folder = try CLI.copyOfSample("clean")
        let file = folder.appendingPathComponent("Transactions.csv")
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        lines[1] = lines[1].replacingOccurrences(of: ",2026-01-01T09:00:00.000Z\r", with: ",2030-01-01T00:00:00.000Z\r")
            .replacingOccurrences(
                of: "2026-01-01T09:00:00.000Z,2026-01-01T09:00:00.000Z", with: "2026-01-01T09:00:00.000Z,2030-01-01T00:00:00.000Z")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let check = try await CLI.run(["check", "--json"], in: folder)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.has(.futureTimestamp, .notice, tab: .transactions, row: 2), "\(check.stdout)")
        let quiet = try await CLI.run(["check", "--quiet"], in: folder)
        #expect(quiet.stdout.isEmpty && quiet.status == 0)
        // A check gives no ids: a copy of a row is not named an id nobody stores.
        let copies = try await CLI.run(["check"], in: try CLI.copyOfSample("hand-edited"))
        #expect(
            copies.stdout.contains("duplicate id 62e52977-043e-5d0c-8938-47af46996221; the copy gets an id of its own"), "\(copies.stdout)")
        #expect(!copies.stdout.contains("now has id"), "\(copies.stdout)")
    }

    /// Two fields with the same kind of problem give their hint once ("type a whole number; type a
    /// whole number").
    @Test func aRejectionSaysEachHintOnce() async throws {
        let folder = try CLI.copyOfSample("clean")
        let file = folder.appendingPathComponent("Transactions.csv")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "expense,2026-01-02,2026,1,", with: "expense,2026-01-02,abc,x,")
            .write(to: file, atomically: true, encoding: .utf8)
        let check = try await CLI.run(["check"], in: folder)
        #expect(check.status == 65)
        #expect(check.stderr.components(separatedBy: "type a whole number").count == 2, "\(check.stderr)")
    }

    /// A tab file that cannot be read (a folder in its place, no permission) is named by its whole path.
    @Test func anUnreadableTabFileIsNamedByItsPath() async throws {
        let folder = try CLI.copyOfSample("clean")
        let file = folder.appendingPathComponent("Receipts.csv")
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        for command in ["check", "sync"] {
            let run = try await CLI.run([command, "--json"], in: folder)
            #expect(run.status == 65, "\(command): \(run.stderr)")
            let error = run.json?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "unreadable-tab", "\(command): \(run.stdout)")
            #expect((error?["message"] as? String)?.hasPrefix("\(file.path): ") == true, "\(command): \(run.stdout)")

        }
    }

    @Test func rejectedRowsAreCountedBesideTheValidOnes() async throws {
        let folder = try CLI.copyOfSample("hand-edited")
        let check = try await CLI.run(["check"], in: folder)
        #expect(check.status == 65)
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Transactions: 7 valid rows, 4 rejected"), "\(lines)")
        #expect(lines.contains("Categories: 4 valid rows"), "\(lines)")

        // check writes nothing, not even a store.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("sheetsync.sqlite").path))
    }
}
