import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// The built binary on scratch copies of `samples/`, as a user runs it.
@Suite struct EndToEndTests {
    func files(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for tab in Tab.allCases { out[tab.rawValue] = try Data(contentsOf: folder.appendingPathComponent("\(tab.rawValue).csv")) }
        return out
    }

    @Test func cleanSampleSyncsSilentlyAndASecondSyncWritesNothing() async throws {
        let folder = try CLI.copyOfSample("clean")
        let first = try await CLI.run(["sync"], in: folder)
        #expect(first.status == 0)
        #expect(first.stdout.isEmpty && first.stderr.isEmpty)
        let before = try files(folder)
        let store = folder.appendingPathComponent("sheetsync.sqlite")
        let storeBefore = try Data(contentsOf: store)
        let second = try await CLI.run(["sync", "--json"], in: folder)
        #expect(second.status == 0)
        #expect(try files(folder) == before)
        // Not one byte of the store either (its header's change counter included): a cron job every ten
        // minutes must not make a backup tool copy the whole store each time.
        #expect(try Data(contentsOf: store) == storeBefore, "a sync that changed nothing rewrote the store file")
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
        #expect(second.json?["upToDate"] as? Bool == true, "\(second.stdout)")
        let status = try await CLI.run(["status", "--json"], in: folder)
        #expect(status.statusReport?.nothingPending == true, "\(status.stdout)")
        #expect(status.statusReport?.datasetId == "b4d5891d-9e53-5116-8cdc-779311294f7b", "\(status.stdout)")
    }

    @Test func handEditedSampleReportsEveryProblemRowExitsSixtyFiveAndLosesNothing() async throws {
        let folder = try CLI.copyOfSample("hand-edited")
        let original = try String(contentsOf: folder.appendingPathComponent("Transactions.csv"), encoding: .utf8)
        let run = try await CLI.run(["sync"], in: folder)
        #expect(run.status == 65)
        for expected in [
            "Transactions row 5 (bb4eea00-37a2-5ffc-aff9-b15ebfcccb10): unknown category 'groceries' — did you mean 'Groceries'?",
            "Transactions row 6 (0fb8f4fa-4f35-5662-8f7a-891823b29195): unknown category 'Grocery' — did you mean 'Groceries'?",
            "Transactions row 8 (11d325fa-2a30-5ff3-af09-01bf628e41c3): '12,50' is not an amount",
            "Transactions row 9 (43dd669a-bcb0-5992-bbed-fe24bc42ce5a): amount '-5' is negative",
            "RecurringRules row 3 (d307ecb9-5fbd-539e-a549-fee86a2403c9): unknown category 'Gym'",
            "Receipts row 3 (b0f28c70-50cf-5cb7-bce4-73eaa50b9d4b): transaction 'e7883714-f5a2-509f-a6b4-9ce92b669de3' does not exist",
        ] {
            #expect(run.stderr.contains(expected), "missing: \(expected)\n\(run.stderr)")
        }
        // Rejected rows are written back verbatim; no row is dropped (the copy-pasted one got an id).
        let after = try String(contentsOf: folder.appendingPathComponent("Transactions.csv"), encoding: .utf8)
        for line in original.split(separator: "\n")
        where line.contains("Grocery,") || line.contains("\"12,50\"") || line.contains(",-5,") || line.contains("groceries") {
            #expect(after.contains(line), "rejected row changed: \(line)")
        }
        #expect(
            after.split(separator: "\n", omittingEmptySubsequences: false).count
                == original.split(separator: "\n", omittingEmptySubsequences: false).count)
        // Stale year/month corrected; the user's own spelling of a right value left alone.
        #expect(after.contains("1/15/2026,\"$1,234.50\",Rent,Expense,Deposit,,,f2f1c7c8-879a-5455-b21a-71fa3c5aa183,2026,1,"))
        // Rows that stay rejected do not fail every later cron run, and status lists them.
        let again = try await CLI.run(["sync"], in: folder)
        #expect(again.status == 0)
        #expect(again.stderr.isEmpty)
        let status = try await CLI.run(["status", "--json"], in: folder)
        #expect(status.statusReport?.rejected.count == 6, "\(status.stdout)")
    }

    @Test func jsonReportHasPerTabCountsAndTheRejectedArray() async throws {
        let folder = try CLI.copyOfSample("hand-edited")
        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 65)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tabs = try #require(json["tabs"] as? [String: [String: Any]])
        #expect(tabs["Transactions"]?["rejected"] as? Int == 4)
        #expect(tabs["Transactions"]?["added"] as? Int == 7)
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        #expect(rejected.count == 6)
        #expect(
            rejected.allSatisfy { $0["tab"] != nil && $0["row"] != nil && $0["id"] != nil && $0["message"] != nil && $0["hint"] != nil })
    }

    @Test func dryRunPrintsThePlanAndChangesNothing() async throws {
        let folder = try CLI.copyOfSample("hand-edited")
        let before = try files(folder)
        let run = try await CLI.run(["sync", "--dry-run"], in: folder)
        #expect(run.stdout.contains("workbook Transactions row 3"))
        #expect(run.stdout.contains("store Transactions add"))
        #expect(try files(folder) == before)
        let status = try await CLI.run(["status"], in: folder)
        #expect(status.stdout.contains("last sync: never"))
    }

    @Test func aSecondRunWhileTheLockIsHeldExitsSeventyFiveAndNamesTheHolder() async throws {
        let folder = try CLI.copyOfSample("clean")
        let lock = try RunLock(store: folder.appendingPathComponent("sheetsync.sqlite"))
        let run = try await CLI.run(["sync"], in: folder)
        #expect(run.status == 75)
        #expect(run.stderr.contains("pid \(getpid())"))
        _ = lock
    }

    @Test func aWorkbookOfAnotherDatasetIsRefusedWithSeventyEight() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let other = try CLI.copyOfSample("hand-edited")
        for tab in Tab.allCases {
            let name = "\(tab.rawValue).csv"
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            try FileManager.default.copyItem(at: other.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 78)
        #expect(run.failure?["code"] as? String == "dataset-mismatch", "\(run.stdout)")
        #expect(run.stderr.contains("bound to dataset b4d5891d-9e53-5116-8cdc-779311294f7b"))
    }

    @Test func clearingATabTripsTheMassDeleteGuardUntilAllowed() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        for i in 0..<12 {
            #expect(
                try await CLI.run(
                    ["add", "expense", "--amount", "\(i + 1).00", "--category", "Dining", "--date", "2026-02-0\(i % 9 + 1)"], in: folder
                ).status == 0)
        }
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let book = TestWorkbook(folder: folder)
        try book.edit(.transactions) { $0.rows = [] }
        let before = try files(folder)
        let guarded = try await CLI.run(["sync", "--json"], in: folder)
        #expect(guarded.status == 65)
        let held = guarded.issues.filter { $0.code == .massDelete && $0.severity == .heldBack && $0.place.tab == .transactions }
        #expect(held.count == 1 && held[0].message.contains("--allow-mass-delete"), "\(guarded.stdout)")
        #expect(try files(folder) == before)
        // Allowed, the deletes go through; the receipt whose transaction went is kept and reported.
        let allowed = try await CLI.run(["sync", "--allow-mass-delete", "--json"], in: folder)
        #expect(allowed.status == 65)
        #expect(
            allowed.report?.rejected.map { "\($0.code.rawValue) \($0.tab.rawValue) \($0.row)" } == ["unknown-transaction Receipts 2"],
            "\(allowed.stdout)")

        let status = try await CLI.run(["status", "--json"], in: folder)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect((json["pendingLocalChanges"] as? [String: Int])?["Transactions"] == 0)
        #expect(try book.records(.transactions, now: Timestamp(Date())).isEmpty)
    }

    @Test func addThenPushWritesTheRowAndAnUnknownCategoryIsRefused() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["pull"], in: folder).status == 0)
        let added = try await CLI.run(
            ["add", "expense", "--amount", "$1,234.5", "--category", "Dining", "--date", "2026-03-04", "--note", "a, \"quoted\" note"],
            in: folder)
        #expect(added.status == 0)
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await CLI.run(["push"], in: folder).status == 0)
        let text = try String(contentsOf: folder.appendingPathComponent("Transactions.csv"), encoding: .utf8)
        #expect(text.contains("\(id),expense,2026-03-04,2026,3,1234.50,Dining,,\"a, \"\"quoted\"\" note\""))
        let refused = try await CLI.run(["add", "expense", "--amount", "3", "--category", "dining"], in: folder)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("did you mean 'Dining'"))
    }

    @Test func anEditMadeWithAnySQLiteClientIsPushedWithItsTimestampBumped() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let db = try DatabaseQueue(path: folder.appendingPathComponent("sheetsync.sqlite").path)
        try await db.write {
            try $0.execute(sql: "UPDATE transactions SET note = 'edited in sqlite3', date = '2026-02-10' WHERE note = 'Coffee'")
        }
        try db.close()
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let text = try String(contentsOf: folder.appendingPathComponent("Transactions.csv"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("edited in sqlite3") })
        #expect(line.contains(",2026-02-10,2026,2,"))
        #expect(!line.hasSuffix("2026-01-01T09:00:00.000Z"))
    }

    @Test func exportThenCheckTheExportedWorkbook() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let out = folder.appendingPathComponent("exported")
        #expect(try await CLI.run(["export", out.path, "--format", "csv"], in: folder).status == 0)
        let check = try await CLI.run(["check", out.path, "--json"], in: folder)
        #expect(check.status == 0)
        #expect((check.json?["rejected"] as? [Any])?.isEmpty == true, "\(check.stdout)")
    }

    @Test func badConfigExitsSeventyEightAndNamesTheFile() async throws {
        let folder = try CLI.copyOfSample("clean")
        try Data(#"{"store": "x.sqlite", "remote": {"type": "ftp"}}"#.utf8).write(to: folder.appendingPathComponent("sheetsync.json"))
        let run = try await CLI.run(["sync"], in: folder)
        #expect(run.status == 78)
        #expect(run.stderr.contains("sheetsync.json: remote.type: expected one of csv, xlsx, google, found 'ftp'"), "\(run.stderr)")
    }
}
