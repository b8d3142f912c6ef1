import Foundation
import GRDB
import SheetSyncCore
import Testing

/// Failures that are not bugs exit with the code that tells cron what to do, and `--json` still answers.
@Suite struct ErrorExitCodeTests {
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
        #expect(run.stderr.contains("is busy"), "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "temporary")
        #expect(error["exitCode"] as? Int == 75)
        #expect(try ledger.storeRows(.transactions).count == 10)
    }

    @Test func aFailureWithJsonPrintsOneErrorObject() async throws {
        let folder = try TestWorkbook.scratch("empty")
        let run = try await CLI.run(["sync", "--json"], in: folder)
        #expect(run.status == 78)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "configuration")
        #expect((error["message"] as? String)?.contains("sheetsync init") == true)
    }

    @Test func aStoreThatIsNotADatabaseIsAConfigurationError() async throws {
        let ledger = try await Ledger.synced()
        try Data("this is not sqlite".utf8).write(to: ledger.store)
        let run = try await ledger.run("sync")
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains(ledger.store.path))
    }
}
