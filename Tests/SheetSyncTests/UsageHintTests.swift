import Foundation
import Testing

/// Usage errors exit 64 with a hint a person can follow, and `--json` answers them too.
@Suite struct UsageHintTests {
    @Test func aSubcommandTypoSuggestsTheNearestCommand() async throws {
        let folder = try TestWorkbook.scratch("typo")
        let run = try await CLI.run(["synk"], in: folder)
        #expect(run.status == 64)
        #expect(run.stderr.contains("hint: did you mean 'sheetsync sync'?"), "\(run.stderr)")
        let nested = try await CLI.run(["category", "ad", "Pets"], in: folder)
        #expect(nested.status == 64)
        #expect(nested.stderr.contains("did you mean 'sheetsync category add'?"), "\(nested.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func anOptionBeforeTheSubcommandIsShownWhereItGoes() async throws {
        let folder = try TestWorkbook.scratch("misplaced")
        let run = try await CLI.run(["--dry-run", "sync"], in: folder)
        #expect(run.status == 64)
        #expect(run.stderr.contains("hint: options go after the subcommand: sheetsync sync --dry-run"), "\(run.stderr)")
        let nested = try await CLI.run(["--config", "x.json", "category", "list", "--all"], in: folder)
        #expect(
            nested.stderr.contains("options go after the subcommand: sheetsync category list --config x.json --all"), "\(nested.stderr)")
    }

    @Test func usageErrorsAnswerInJSON() async throws {
        let folder = try TestWorkbook.scratch("usage-json")
        for (arguments, hint) in [
            (["--json", "sync"], "options go after the subcommand: sheetsync sync --json"),
            (["synk", "--json"], "did you mean 'sheetsync sync'?"),
            (["add", "refund", "--amount", "1", "--category", "X", "--json"], "see `sheetsync help` or `sheetsync COMMAND --help`"),
            (["sync", "--no-such-flag", "--json"], "see `sheetsync help` or `sheetsync COMMAND --help`"),
        ] {
            let run = try await CLI.run(arguments, in: folder)
            #expect(run.status == 64, "\(arguments)")
            let json = try #require(run.json, "\(arguments): \(run.stdout)")
            let error = try #require(json["error"] as? [String: Any])
            #expect(error["kind"] as? String == "usage" && error["exitCode"] as? Int == 64)
            #expect(!((error["message"] as? String) ?? "").isEmpty)
            #expect(error["hint"] as? String == hint, "\(arguments): \(error)")
            #expect(
                json["version"] as? String
                    == (try await CLI.run(["--version"], in: folder)).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test func libraryFailuresCarryAHintInJSON() async throws {
        let ledger = try await Ledger.synced()
        let run = try await ledger.run("category", "archive", "Nope", "--json")
        #expect(run.status == 64)
        let error = try #require(run.json?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "usage" && !((error["hint"] as? String) ?? "").isEmpty)
    }

    @Test func aValueOutsideAFixedSetIsRefusedNamingTheAllowedOnes() async throws {
        let folder = try TestWorkbook.scratch("fixed-values")
        for (arguments, value, allowed) in [
            (["add", "refund", "--amount", "1", "--category", "Dining"], "refund", ["expense", "income"]),
            (["category", "add", "Pets", "--type", "savings"], "savings", ["expense", "income", "both"]),
            (["export", "out", "--format", "ods"], "ods", ["csv", "xlsx"]),
            (
                ["rule", "add", "--every", "fortnight", "--amount", "1", "--category", "Rent"], "fortnight",
                ["day", "week", "month", "year"]
            ),
            (
                ["rule", "add", "--every", "month", "--type", "transfer", "--amount", "1", "--category", "Rent"], "transfer",
                ["expense", "income"]
            ),
            (["report", "--by", "week"], "week", ["category", "tag", "month"]),
        ] {
            let run = try await CLI.run(arguments + ["--json"], in: folder)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("'\(value)'"), "\(arguments): \(run.stderr)")
            for name in allowed { #expect(run.stderr.contains("'\(name)'"), "\(arguments): \(run.stderr)") }
            let error = try #require(run.json?["error"] as? [String: Any], "\(arguments): \(run.stdout)")
            #expect(error["kind"] as? String == "usage" && error["exitCode"] as? Int == 64)
            #expect(((error["message"] as? String) ?? "").contains("'\(value)'"), "\(arguments): \(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func helpListsTheValuesOfAFixedSet() async throws {
        let folder = try TestWorkbook.scratch("fixed-values-help")
        for (arguments, values) in [
            (["add", "--help"], "expense, income"),
            (["category", "add", "--help"], "expense, income, both"),
            (["export", "--help"], "csv, xlsx"),
        ] {
            let run = try await CLI.run(arguments, in: folder)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stdout.contains("values: \(values)"), "\(arguments): \(run.stdout)")
        }
    }
}
