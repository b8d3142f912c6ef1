import Foundation
import SheetSync
import SheetSyncCore
import Testing

/// `init` starter categories, `category add|list|archive`, `--version`: a new user's first hour.
@Suite struct CategoryCommandTests {
    @Test func initGivesANewLedgerStarterCategoriesSoAddWorksAtOnce() async throws {
        let folder = try TestWorkbook.scratch("first-hour")
        let initRun = try await CLI.run(["init"], in: folder)
        #expect(initRun.status == 0)
        // A new ledger is created, not "recreated from the store" (the starter categories are not a store's rows).
        #expect(initRun.stdout.contains("created CSV workbook") && !initRun.stdout.contains("recreated"), "\(initRun.stdout)")
        let book = TestWorkbook(folder: folder)
        let categories = try book.records(.categories, now: Timestamp(millisecondsSinceEpoch: 0))
        #expect(categories["Groceries"]?[.type] == "expense" && categories["Salary"]?[.type] == "income")
        let add = try await CLI.run(["add", "expense", "--amount", "4.20", "--category", "Dining"], in: folder)
        #expect(add.status == 0, "\(add.stderr)")
        // A category is matched after trimming spaces, as a sheet cell is; an amount of zero is one.
        let spaced = try await CLI.run(["add", "expense", "--amount", "0", "--category", " Dining "], in: folder)
        #expect(spaced.status == 0, "\(spaced.stderr)")
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let added = try book.records(.transactions, now: Timestamp(millisecondsSinceEpoch: 0))
        #expect(added.count == 2 && added.values.allSatisfy { $0[.category] == "Dining" })
        // --empty: no starters.
        let bare = try TestWorkbook.scratch("bare")
        #expect(try await CLI.run(["init", "--empty"], in: bare).status == 0)
        #expect(try TestWorkbook(folder: bare).records(.categories, now: Timestamp(millisecondsSinceEpoch: 0)).isEmpty)
    }

    /// A store that never synced (a second machine's fresh config on an existing workbook) knows no
    /// category of the workbook: `add` says to sync first, not to add a category the tab already has.
    @Test func addOnAStoreThatNeverSyncedSaysToSyncFirst() async throws {
        let folder = try CLI.copyOfSample("clean")
        let before = try TestWorkbook(folder: folder).records(.transactions, now: Timestamp(millisecondsSinceEpoch: 0))
        let add = try await CLI.run(["add", "expense", "--amount", "4.20", "--category", "Dining"], in: folder)
        #expect(add.status == 64)
        #expect(add.stderr.contains("never synced") && add.stderr.contains("`sheetsync sync` first"), "\(add.stderr)")
        #expect(try TestWorkbook(folder: folder).records(.transactions, now: Timestamp(millisecondsSinceEpoch: 0)) == before)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        #expect(try await CLI.run(["add", "expense", "--amount", "4.20", "--category", "Dining"], in: folder).status == 0)
    }

    @Test func addListAndArchiveACategory() async throws {
        let ledger = try await Ledger.synced()
        #expect(try await ledger.run("category", "add", "Pets", "--emoji", "🐶", "--color", "#A0B0C0").status == 0)
        let twin = try await ledger.run("category", "add", "pets")
        #expect(twin.status == 64)
        #expect(twin.stderr.contains("'Pets' exists already"), "\(twin.stderr)")
        #expect(try await ledger.run("category", "add", "Bad", "--color", "red").status == 64)
        #expect(try await ledger.run("category", "archive", "Dining").status == 0)
        // --json: one object on stdout, for a run and for a dry run.
        let json = try await ledger.run("category", "add", "Fish", "--json")
        #expect(json.status == 0 && json.json?["added"] as? String == "Fish", "\(json.stdout)")
        let dry = try await ledger.run("category", "archive", "Fish", "--json", "--dry-run")
        #expect(dry.json?["archived"] as? String == "Fish" && dry.json?["dryRun"] as? String == "true", "\(dry.stdout)")
        let list = try await ledger.run("category", "list", "--json")
        let names = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]).compactMap {
            $0["name"] as? String
        }
        #expect(names.contains("Pets") && !names.contains("Dining"))
        let all = try await ledger.run("category", "list", "--all")
        #expect(all.stdout.contains("Dining") && all.stdout.contains("(archived)"), "\(all.stdout)")
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.categories)["Pets"]?[.colorHex] == "#a0b0c0")
        #expect(try ledger.sheetRows(.categories)["Dining"]?[.isActive] == "FALSE")
        // Archived categories stay valid for the rows that name them.
        #expect(try ledger.storeRows(.transactions).values.contains { $0[.category] == "Dining" })
        #expect(try await ledger.run("status", "--json").statusReport?.rejected.isEmpty == true)
    }

    @Test func versionIsOneConstantAndJsonFailuresCarryIt() async throws {
        let folder = try TestWorkbook.scratch("version")
        let run = try await CLI.run(["--version"], in: folder)
        #expect(run.status == 0)
        let version = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        let failure = try await CLI.run(["sync", "--json"], in: folder)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(failure.stdout.utf8)) as? [String: Any])
        #expect(json["version"] as? String == version)
    }
}
