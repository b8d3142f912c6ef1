import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

/// `sheetsync rule add|list|pause|resume|delete`: recurring rules without editing a CSV, checked as a
/// row typed into RecurringRules is, made by the recurrence engine, and synced like any other row.
/// Every run stands at `CLI.fixedNow`: a rule's next dates and a resume's missed days depend on the day.
@Suite struct RuleCommandTests {
    static func run(_ arguments: [String], in folder: URL) async throws -> CLI.Result {
        try await CLI.run(arguments, in: folder, environment: CLI.atFixedNow)
    }

    /// A new ledger (`init`, starter categories), ready for rules.
    func newLedger() async throws -> URL {
        let folder = try TestWorkbook.scratch("rules")
        let made = try await Self.run(["init"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        return folder
    }

    func rows(_ tab: Tab, _ folder: URL) throws -> [String: LedgerRow] {
        try TestWorkbook(folder: folder).records(tab, now: Timestamp(millisecondsSinceEpoch: 0))
    }

    func storeRows(_ tab: Tab, _ folder: URL) throws -> [LedgerRow] {
        try LedgerStore.inMemoryCopy(of: folder.appendingPathComponent("sheetsync.sqlite").path).records(in: tab)
    }

    @Test func aRuleAddedFromTheCommandLineMaterializesInDateOrderAndSyncs() async throws {
        let folder = try await newLedger()
        let add = try await Self.run(
            [
                "rule", "add", "--every", "month", "--on", "31", "--amount", "1450", "--category", "Housing", "--note", "rent",
                "--from", "2026-11-05", "--json",
            ], in: folder)
        #expect(add.status == 0, "\(add.stderr)")
        let rule = try #require(add.json?["rule"] as? [String: Any])
        let id = try #require(rule["recurringRuleId"] as? String)
        #expect(rule["next"] as? [String] == ["2026-11-30", "2026-12-31", "2027-01-31"])
        // In the store as a typed row would be: the 31st carried by an earlier month's start.
        let stored = try #require(try storeRows(.recurringRules, folder).first { $0[.recurringRuleId] == id })
        #expect(stored[.startDate] == "2026-10-31" && stored[.lastGeneratedDate] == "2026-11-04" && stored[.cadence] == "monthly")
        #expect(stored[.amount] == "1450.00" && stored[.isEnabled] == "TRUE" && stored[.type] == "expense")
        #expect(try rows(.recurringRules, folder).isEmpty, "the workbook gets the rule at the next sync")

        let made = try await Self.run(["materialize", "--through", "2027-01-31"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("materialized 3 transactions, 2026-11-30 to 2027-01-31 (through 2027-01-31)"), "\(made.stdout)")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let table = try TestWorkbook(folder: folder).table(.transactions)
        let dateColumn = try #require(table.header.firstIndex(of: "date"))
        let dates = (0..<table.rowCount).map { table.row($0)[dateColumn].rawText }
        #expect(dates == ["2026-11-30", "2026-12-31", "2027-01-31"], "written in date order")
        let sheet = try rows(.transactions, folder).values
        #expect(sheet.allSatisfy { $0[.recurringRuleId] == id && $0[.amount] == "1450.00" && $0[.note] == "rent" })
        #expect(try rows(.recurringRules, folder)[id]?[.lastGeneratedDate] == "2027-01-31")
    }

    /// Every option is checked by the rule a sync applies to a typed RecurringRules row, and the
    /// message is that rule's, named by the option.
    @Test func ruleAddRefusesWhatATypedRowWouldBeRejectedFor() async throws {
        let folder = try await newLedger()
        let amount = try #require(TabSchema.recurringRules.field(.amount))
        guard case .failure(let negative) = FieldParser.canonical(.text("-5"), amount) else {
            Issue.record("-5 read as an amount")
            return
        }
        for (arguments, expected) in [
            (["--amount=-5", "--category", "Housing"], "--amount: \(negative.message)"),
            (["--amount", "5", "--category", "housing"], "--category: unknown category 'housing' (did you mean 'Housing'?"),
            (["--amount", "5", "--category", "Housing", "--until", "2026-02-30"], "--until: '2026-02-30' is not a date"),
            (["--amount", "5", "--category", "Housing", "--interval", "0"], "--interval: '0' is not a whole number in 1–100000"),
            (["--amount", "5", "--category", "Housing", "--on", "32"], "--on '32' is not a day of the month (1–31)"),
        ] {
            let run = try await Self.run(["rule", "add", "--every", "month", "--from", "2026-01-01"] + arguments, in: folder)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains(expected), "\(run.stderr)")
        }
        #expect(try storeRows(.recurringRules, folder).isEmpty)
    }

    @Test func listShowsTheNextDatesAndPauseResumeDeleteChangeTheStoreAndThenTheWorkbook() async throws {
        let folder = try await newLedger()
        let add = try await Self.run(
            [
                "rule", "add", "--every", "week", "--on", "mon", "--amount", "20", "--category", "Groceries", "--from", "2026-01-01",
                "--json",
            ], in: folder)
        let id = try #require((add.json?["rule"] as? [String: Any])?["recurringRuleId"] as? String)
        let list = try await Self.run(["rule", "list", "--next", "3", "--json"], in: folder)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 1 && listed[0]["next"] as? [String] == ["2026-01-05", "2026-01-12", "2026-01-19"], "\(list.stdout)")
        let text = try await Self.run(["rule", "list", "--next", "1"], in: folder)
        #expect(text.stdout.contains("every week") && text.stdout.contains("next: 2026-01-05"), "\(text.stdout)")

        // A unique start of the id is enough.
        let pause = try await Self.run(["rule", "pause", String(id.prefix(8))], in: folder)
        #expect(pause.status == 0, "\(pause.stderr)")
        #expect(try storeRows(.recurringRules, folder).first?[.isEnabled] == "FALSE")
        let idle = try await Self.run(["materialize", "--through", "2026-01-31", "--json"], in: folder)
        #expect(idle.json?["created"] as? Int == 0, "\(idle.stdout)")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try rows(.recurringRules, folder)[id]?[.isEnabled] == "FALSE")

        #expect(try await Self.run(["rule", "resume", id], in: folder).status == 0)
        #expect(try storeRows(.recurringRules, folder).first?[.isEnabled] == "TRUE")
        let made = try await Self.run(["materialize", "--through", "2026-01-31", "--json"], in: folder)
        #expect(made.json?["created"] as? Int == 4, "\(made.stdout)")

        let delete = try await Self.run(["rule", "delete", id], in: folder)
        #expect(delete.status == 0 && delete.stderr.contains("the transactions it made stay"), "\(delete.stderr)")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try rows(.recurringRules, folder).isEmpty)
        #expect(try storeRows(.recurringRules, folder).isEmpty)
        #expect(try rows(.transactions, folder).count == 4)
        let unknown = try await Self.run(["rule", "pause", "0000"], in: folder)
        #expect(unknown.status == 64 && unknown.stderr.contains("no recurring rule '0000'"), "\(unknown.stderr)")
    }

    /// `materialize` reads the store: a rule typed into the workbook since the last sync makes
    /// nothing yet, and the run says so, naming the row.
    @Test func materializeNamesARuleTypedInTheWorkbookThatNoSyncHasLoaded() async throws {
        let ledger = try await Ledger.synced()
        let file = ledger.book.appendingPathComponent("RecurringRules.csv")
        let typed = ",TRUE,expense,9.99,Dining,,streaming,2026-01-03,monthly,1,,,,\n"
        try Data((try String(contentsOf: file, encoding: .utf8) + typed).utf8).write(to: file)
        let before = Set(try ledger.storeRows(.recurringRules).keys)
        let run = try await ledger.run("materialize", "--through", "2026-02-28")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("RecurringRules row 4: the rule (9.99 Dining, 'streaming')")
                && run.stderr.contains("is not in the store yet")
                && run.stderr.contains("`sheetsync sync` first"), "\(run.stderr)")
        #expect(Set(try ledger.storeRows(.recurringRules).keys) == before)
        // After a sync the rule is known: no note.
        #expect(try await ledger.run("sync").status == 0)
        let again = try await ledger.run("materialize", "--through", "2026-02-28")
        #expect(!again.stderr.contains("not in the store yet"), "\(again.stderr)")
    }

    @Test func helpTabsPrintsTheColumnReference() async throws {
        let run = try await Self.run(["help", "tabs"], in: try TestWorkbook.scratch("help"))
        #expect(run.status == 0)
        #expect(run.stdout == ColumnReference.markdown + "\n")
    }
}
