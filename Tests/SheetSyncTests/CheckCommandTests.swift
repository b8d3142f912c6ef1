import Foundation
import Testing

/// `check` says what the workbook holds (rows a sync can load, rows it rejects), not a plan against an
/// empty store that reads like rows waiting to load.
@Suite struct CheckCommandTests {
    @Test func aSyncedWorkbookChecksAsValidRowsNotAsRowsToLoad() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await CLI.run(["sync", "--quiet"], in: folder).status == 0)
        let status = try await CLI.run(["status"], in: folder)
        #expect(status.stdout.contains("pending local changes: none"))

        let check = try await CLI.run(["check"], in: folder)
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Transactions: 10 valid rows", "\(lines)")
        #expect(lines.contains("Settings: 1 valid row"), "\(lines)")
        #expect(!check.stdout.contains("store +"), "\(check.stdout)")
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
