import Foundation
import SheetSync
import SheetSyncCore
import Testing

/// A run that ends early names the kind of failure with a stable code under `--json`
/// (`FailureCode`), which docs/issues.md lists: scripts branch on it, never on the wording.
@Suite struct FailureCodeTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/issues.md")

    @Test func docsIssuesListsEveryFailureCodeOnce() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let parts = page.components(separatedBy: "\n## Failures\n")
        try #require(parts.count == 2, "docs/issues.md has one Failures section")
        let listed = parts[1].split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "`" })
        }
        #expect(listed.sorted() == FailureCode.allCases.map(\.rawValue).sorted())
        #expect(Set(listed).count == listed.count)
    }

    /// Another run holding the store: 75 with `in-use`, and the store and workbook untouched.
    @Test func aStoreHeldByAnotherRunIsInUse() async throws {
        let ledger = try await Ledger.synced()
        let storeBefore = try ledger.storeRows(.transactions), sheetBefore = try ledger.workbook.allBytes()
        let held = try RunLock(store: ledger.store)
        let run = try await ledger.run("add", "expense", "--amount", "1", "--category", "Dining", "--json")
        withExtendedLifetime(held) {}
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.failureCode == .inUse, "\(run.stdout)")
        #expect(run.failure?["kind"] as? String == "temporary")
        #expect(try ledger.storeRows(.transactions) == storeBefore)
        #expect(try ledger.workbook.allBytes() == sheetBefore)
    }

    /// A config that is no JSON and a config that names a missing file are told apart by code.
    @Test func aBrokenConfigAndAMissingOneHaveTheirOwnCodes() async throws {
        let ledger = try Ledger.unsynced()
        try Data("{\"store\": ".utf8).write(to: ledger.folder.appendingPathComponent("broken.json"))
        let broken = try await CLI.run(["status", "--config", "broken.json", "--json"], in: ledger.folder)
        #expect(broken.status == 78 && broken.failureCode == .configInvalid, "\(broken.stdout)")
        let missing = try await CLI.run(["status", "--config", "nope.json", "--json"], in: ledger.folder)
        #expect(missing.status == 78 && missing.failureCode == .configMissing, "\(missing.stdout)")
    }
}
