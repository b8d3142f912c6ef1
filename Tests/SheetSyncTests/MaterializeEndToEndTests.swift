import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

/// `sheetsync materialize` as a user runs it: on the clean sample (rent monthly from 2026-01-01 and
/// salary monthly from 2026-01-15, both materialized through 2026-01-31; dataset zone America/New_York).
/// Every run stands at `CLI.fixedNow`: what `sync --materialize` makes depends on the day.
@Suite struct MaterializeEndToEndTests {
    static func run(_ arguments: [String], in folder: URL) async throws -> CLI.Result {
        try await CLI.run(arguments, in: folder, environment: CLI.atFixedNow)
    }

    func transactions(_ folder: URL) throws -> [String: LedgerRow] {
        try TestWorkbook(folder: folder).records(.transactions, now: CLI.fixedNow)
    }

    /// Appends `line` to the RecurringRules CSV, as a person types a row.
    func typeRule(_ line: String, in folder: URL) throws {
        let rules = folder.appendingPathComponent("RecurringRules.csv")
        try Data((try String(contentsOf: rules, encoding: .utf8) + line + "\n").utf8).write(to: rules)
    }

    func instances(_ folder: URL) throws -> [LedgerRow] {
        try transactions(folder).values.filter { !$0[.recurringRuleId].isEmpty }.sorted { $0[.date] < $1[.date] }
    }

    @Test func materializeThenSyncTwiceCreatesEachOccurrenceOnce() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let made = try await Self.run(["materialize", "--through", "2026-03-31", "--json"], in: folder)
        #expect(made.status == 0)
        #expect(made.json?["created"] as? Int == 4, "\(made.stdout)")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let dates = try instances(folder).map { $0[.date] }
        #expect(dates == ["2026-01-01", "2026-01-15", "2026-02-01", "2026-02-15", "2026-03-01", "2026-03-15"])
        // Deterministic rows: id from rule + date, stamped at local midnight in the dataset's zone.
        let feb = try #require(try instances(folder).first { $0[.date] == "2026-02-01" })
        #expect(feb[.transactionId] == Materializer.instanceId(ruleId: feb[.recurringRuleId], date: LocalDate(iso: "2026-02-01")!))
        #expect(feb[.createdAt] == "2026-02-01T05:00:00.000Z")
        let rules = try TestWorkbook(folder: folder).records(.recurringRules, now: CLI.fixedNow)
        #expect(rules.values.allSatisfy { $0[.lastGeneratedDate] == "2026-03-31" })
        // Again: nothing new, nothing written.
        let before = try Data(contentsOf: folder.appendingPathComponent("Transactions.csv"))
        let again = try await Self.run(["materialize", "--through", "2026-03-31", "--json"], in: folder)
        #expect(again.json?["created"] as? Int == 0, "\(again.stdout)")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try Data(contentsOf: folder.appendingPathComponent("Transactions.csv")) == before)
    }

    /// A rule typed into the sheet with empty times: the run that makes its instances records its
    /// `lastGeneratedDate` on both sides, so an instance deleted by hand right after stays deleted.
    @Test func ruleTypedWithEmptyTimesRecordsItsProgressInTheRunThatMaterializes() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let rule = "9d6b4c1e-0000-4000-8000-000000000003"
        try typeRule("\(rule),TRUE,expense,1,Dining,,Tea,2026-11-01,weekly,1,,,,", in: folder)
        let run = try await Self.run(["sync", "--materialize"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let made = try instances(folder).filter { $0[.recurringRuleId] == rule }
        #expect(!made.isEmpty)
        let last = try #require(made.last?[.date])
        let sheetRule = try TestWorkbook(folder: folder).records(.recurringRules, now: CLI.fixedNow)[rule]
        #expect((sheetRule?[.lastGeneratedDate] ?? "") >= last, "the sheet's rule records its progress")
        // An instance deleted by hand right after that run stays deleted.
        let url = folder.appendingPathComponent("Transactions.csv")
        let first = try #require(made.first)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(
            text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(first[.transactionId]) }
                .joined(separator: "\n").utf8
        ).write(to: url)
        #expect(try await Self.run(["sync", "--materialize"], in: folder).status == 0)
        #expect(try transactions(folder)[first[.transactionId]] == nil)
    }

    /// Catching up more than a run makes (1,000 per rule) is said by a plain run too, not only with --verbose.
    @Test func plainMaterializeSaysWhenARuleReachesTheLimitOfARun() async throws {
        let folder = try CLI.copyOfSample("clean")
        let rules = folder.appendingPathComponent("RecurringRules.csv")
        let rule = "9d6b4c1e-0000-4000-8000-000000000004"
        let line = "\(rule),TRUE,expense,1,Dining,,Tea,2022-01-01,daily,1,,,,\n"
        try Data((try String(contentsOf: rules, encoding: .utf8) + line).utf8).write(to: rules)
        #expect(try await CLI.run(["sync"], in: folder).status == 0)
        let made = try await CLI.run(["materialize", "--through", "2026-01-31"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("rule \(rule): 1000 created (limit reached; the next run continues)"), "\(made.stdout)")
        #expect(try instances(folder).filter { $0[.recurringRuleId] == rule }.isEmpty, "made in the store; the next sync writes them")
    }

    /// A rule typed into the sheet without an id (the way a person adds one) makes its instances in
    /// the same `sync --materialize` that gives it its id; it made none until the next run (exit 0).
    @Test func aRuleTypedWithoutAnIdMaterializesInTheSameRun() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        try typeRule(",TRUE,expense,15.00,Transport,,weekly pass,2026-11-02,weekly,1,,,,", in: folder)
        let run = try await Self.run(["sync", "--materialize"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let sheetRules = try TestWorkbook(folder: folder).records(.recurringRules, now: CLI.fixedNow)
        let rule = try #require(sheetRules.values.first { $0[.note] == "weekly pass" })
        #expect(!rule[.lastGeneratedDate].isEmpty, "the rule records its progress")
        #expect(try instances(folder).contains { $0[.recurringRuleId] == rule[.recurringRuleId] && $0[.date] == "2026-11-02" })
    }

    /// What a run makes depends on its day, which `SHEETSYNC_NOW` fixes (a test aid): a weekly rule from
    /// 2026-11-02 makes nothing on 2026-10-30, and its four weeks by 2026-11-28. A value that is no time is
    /// refused (78) before anything is read.
    @Test func aRuleMakesNothingBeforeItsStartAndEveryWeekUpToTheRunsDay() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        try typeRule(",TRUE,expense,15.00,Transport,,weekly pass,2026-11-02,weekly,1,,,,", in: folder)
        let early = try await CLI.run(
            ["sync", "--materialize"], in: folder, environment: [SystemClock.fixedNowVariable: "2026-10-30T12:00:00Z"])
        #expect(early.status == 0, "\(early.stderr)")
        let rule = try #require(
            try TestWorkbook(folder: folder).records(.recurringRules, now: CLI.fixedNow).values.first {
                $0[.note] == "weekly pass"
            })
        func made() throws -> [String] {
            try instances(folder).filter { $0[.recurringRuleId] == rule[.recurringRuleId] }.map { $0[.date] }
        }
        #expect(try made().isEmpty)
        #expect(try await Self.run(["sync", "--materialize"], in: folder).status == 0)
        #expect(try made() == ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"])

        let before = try Data(contentsOf: folder.appendingPathComponent("Transactions.csv"))
        let refused = try await CLI.run(["sync", "--materialize"], in: folder, environment: [SystemClock.fixedNowVariable: "yesterday"])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("SHEETSYNC_NOW='yesterday' is not a UTC time"), "\(refused.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("Transactions.csv")) == before)
    }

    /// The seed's RecurringRules tab has no `lastGeneratedDate` column: an occurrence that already
    /// has a transaction of its rule on its date (whatever its id) is not made a second time.
    @Test func occurrenceWithATransactionOfItsRuleIsNotMadeAgainWithoutLastGeneratedDate() async throws {
        let folder = try CLI.copyOfSample("clean")
        try TestWorkbook(folder: folder).edit(.recurringRules) { table in
            let column = table.header.firstIndex(of: "lastGeneratedDate")!
            table.header.remove(at: column)
            for i in table.rows.indices where table.rows[i].count > column { table.rows[i].remove(at: column) }
        }
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let run = try await Self.run(["sync", "--materialize"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let january = try instances(folder).filter { $0[.date] < "2026-02-01" }
        #expect(january.map { $0[.date] } == ["2026-01-01", "2026-01-15"], "\(january.map { $0[.transactionId] })")
    }

    /// Instances materialized ahead of today carry future times: the sync clamps them once and writes
    /// the clamped time to both sides, so the next runs find nothing to do and status nothing pending.
    @Test func futureInstancesAreClampedOnBothSidesOnce() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let ahead = LocalDate(daysSinceEpoch: CLI.fixedNow.utcDate.daysSinceEpoch + 60).description
        #expect(try await Self.run(["materialize", "--through", ahead], in: folder).status == 0)
        let first = try await Self.run(["sync", "--json"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.has(.futureTimestamp, .notice, tab: .transactions), "\(first.stdout)")
        let store = try LedgerStore.inMemoryCopy(of: folder.appendingPathComponent("sheetsync.sqlite").path)
        let stored = Dictionary(uniqueKeysWithValues: try store.records(in: .transactions).map { ($0[.transactionId], $0) })
        let sheet = try transactions(folder)
        #expect(stored.count == sheet.count)
        for (id, row) in sheet { #expect(stored[id]?[.lastModifiedAt] == row[.lastModifiedAt], "\(id)") }
        let again = try await Self.run(["sync", "--json"], in: folder)
        #expect(again.status == 0 && again.report?.notices.contains { $0.code == .futureTimestamp } == false, "\(again.stdout)")

        #expect(try await Self.run(["status"], in: folder).stdout.contains("pending local changes: none"))
    }

    /// A rule whose sheet row is rejected (here: disabled, with an interval typo) is frozen: the store
    /// keeps its last good version, but `materialize` must not expand that version meanwhile.
    @Test func ruleWhoseSheetRowIsRejectedMakesNothingUntilFixed() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let book = TestWorkbook(folder: folder)
        let table = try book.table(.recurringRules)
        let (enabled, interval) = (book.column("isEnabled", in: table)!, book.column("interval", in: table)!)
        let rule = table.rows[0][0].rawText
        try book.edit(.recurringRules) { table in
            table.rows[0][enabled] = .text("FALSE")
            table.rows[0][interval] = .text("0")
        }
        #expect(try await Self.run(["sync"], in: folder).status == 65)
        let before = try transactions(folder).count
        let made = try await Self.run(["materialize", "--through", "2026-06-30"], in: folder)
        #expect(made.status == 65, "\(made.stdout) \(made.stderr)")
        #expect(made.stderr.contains("RecurringRules \(rule)") && made.stderr.contains("rejected"), "\(made.stderr)")
        // A row that stays rejected fails only the run that first met it; status keeps listing it.
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try await Self.run(["status"], in: folder).stdout.contains("rejected rows: 1"))
        let cron = try await Self.run(["sync", "--materialize"], in: folder)
        #expect(cron.stdout.contains("note: RecurringRules \(rule): its row in the workbook is rejected"), "\(cron.stdout)")
        let rows = try transactions(folder).values.filter { $0[.recurringRuleId] == rule && $0[.date] > "2026-01-31" }
        #expect(rows.isEmpty, "\(rows.map { $0[.date] })")
        #expect(try transactions(folder).count >= before)
    }

    @Test func anInstanceDeletedByHandStaysDeletedEvenFromARebuiltStore() async throws {
        let folder = try CLI.copyOfSample("clean")
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try await Self.run(["materialize", "--through", "2026-03-31"], in: folder).status == 0)
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let book = TestWorkbook(folder: folder)
        try book.edit(.transactions) { table in
            let dateColumn = table.header.firstIndex(of: "date")!
            table.rows.removeAll { $0[dateColumn].rawText == "2026-02-15" }
        }
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try await Self.run(["materialize", "--through", "2026-03-31"], in: folder).status == 0)
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try !instances(folder).map { $0[.date] }.contains("2026-02-15"))
        // A new machine: the store rebuilt from the workbook alone.
        for name in ["sheetsync.sqlite", "sheetsync.sqlite-wal", "sheetsync.sqlite-shm"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        #expect(try await Self.run(["materialize", "--through", "2026-04-30"], in: folder).status == 0)
        #expect(try await Self.run(["sync"], in: folder).status == 0)
        let dates = try instances(folder).map { $0[.date] }
        #expect(!dates.contains("2026-02-15"))
        #expect(dates.suffix(2) == ["2026-04-01", "2026-04-15"])
    }

    @Test func twoStoresMaterializingThroughOneWorkbookEndEqualWithoutDuplicates() async throws {
        let folder = try await CLI.storesSharingASample()
        for name in ["a", "b"] {
            #expect(try await Self.run(["materialize", "--through", "2026-05-31", "--config", "\(name).json"], in: folder).status == 0)
        }
        for name in ["a", "b", "a"] {
            #expect(try await Self.run(["sync", "--config", "\(name).json"], in: folder).status == 0)
        }
        let all = try instances(folder)
        #expect(all.count == 10)
        #expect(Set(all.map { $0[.transactionId] }).count == 10)
        let exportA = folder.appendingPathComponent("export-a"), exportB = folder.appendingPathComponent("export-b")
        #expect(try await Self.run(["export", exportA.path, "--config", "a.json"], in: folder).status == 0)
        #expect(try await Self.run(["export", exportB.path, "--config", "b.json"], in: folder).status == 0)
        for tab in Tab.allCases {
            let name = "\(tab.rawValue).csv"
            #expect(
                try Data(contentsOf: exportA.appendingPathComponent(name)) == Data(contentsOf: exportB.appendingPathComponent(name)),
                "\(name) differs between the two stores")
        }
    }

    @Test func syncMaterializeIsOneCronLineAndARuleWithAnUnknownCategoryCreatesNothing() async throws {
        let folder = try CLI.copyOfSample("hand-edited")
        let run = try await Self.run(["sync", "--materialize"], in: folder)
        #expect(run.status == 65)  // the sample's rejected rows
        #expect(run.stderr.contains("unknown category 'Gym'"))
        let dates = try instances(folder).map { $0[.date] }
        #expect(dates.first == "2026-01-31")
        #expect(dates.contains("2026-02-28"))  // Jan 31 monthly clamps to Feb 28
        #expect(try instances(folder).allSatisfy { $0[.category] == "Rent" })
    }
}

extension MaterializeEndToEndTests {
    /// Stores a and b on one workbook; a materializes through March and syncs, the user deletes the
    /// 2026-02-15 instance by hand, a syncs; b, not synced since, materializes through March from
    /// its rules' older copy. Returns the folder, the deleted instance's id and the workbook's dates.
    func staleStoreMadeAnInstanceDeletedByHand() async throws -> (URL, String, [String]) {
        let folder = try await CLI.storesSharingASample()
        #expect(try await Self.run(["materialize", "--through", "2026-03-31", "--config", "a.json"], in: folder).status == 0)
        #expect(try await Self.run(["sync", "--config", "a.json"], in: folder).status == 0)
        let book = TestWorkbook(folder: folder)
        try book.edit(.transactions) { table in
            let dateColumn = table.header.firstIndex(of: "date")!
            table.rows.removeAll { $0[dateColumn].rawText == "2026-02-15" }
        }
        #expect(try await Self.run(["sync", "--config", "a.json"], in: folder).status == 0)
        let deleted = Materializer.instanceId(
            ruleId: try #require(try instances(folder).first { $0[.date] == "2026-01-15" })[.recurringRuleId],
            date: LocalDate(iso: "2026-02-15")!)
        let workbookBefore = try instances(folder).map { $0[.date] }
        #expect(!workbookBefore.contains("2026-02-15"))
        let made = try await Self.run(["materialize", "--through", "2026-03-31", "--config", "b.json"], in: folder)
        #expect(made.status == 0)
        return (folder, deleted, workbookBefore)
    }

    /// A second store that last synced before another machine made an instance, which the user then
    /// deleted by hand, makes the same instance again from its stale rule; its next sync must not
    /// bring the deleted row back (a deleted instance is never created again, on any machine).
    @Test func aStaleSecondStoreDoesNotBringBackAnInstanceDeletedByHand() async throws {
        let (folder, deleted, workbookBefore) = try await staleStoreMadeAnInstanceDeletedByHand()
        let run = try await Self.run(["sync", "--config", "b.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(deleted) || run.stderr.contains(deleted), "the run says what it dropped: \(run.stdout)\(run.stderr)")
        #expect(try instances(folder).map { $0[.date] } == workbookBefore, "the workbook keeps the user's delete")
        let storeB = try LedgerStore(path: folder.appendingPathComponent("b.sqlite").path)
        #expect(try storeB.records(in: .transactions).first { $0[.transactionId] == deleted } == nil, "b's store lets it go too")
        #expect(try await Self.run(["sync", "--config", "a.json"], in: folder).status == 0)
        #expect(try instances(folder).map { $0[.date] } == workbookBefore)
        // The way back the note names: restored in b, the row is the user's again and the next sync keeps it.
        let restored = try await Self.run(["restore", deleted, "--config", "b.json"], in: folder)
        #expect(restored.status == 0, "\(restored.stdout)\(restored.stderr)")
        #expect(try await Self.run(["sync", "--config", "b.json"], in: folder).status == 0)
        #expect(try instances(folder).map { $0[.date] } == (workbookBefore + ["2026-02-15"]).sorted())
    }

    /// The same instance edited in b's store before b syncs: a local change, which wins over the
    /// workbook's delete (deleted on one side, edited on the other), as for any row.
    @Test func anInstanceEditedInTheStaleStoreComesBackWithItsEdit() async throws {
        let (folder, deleted, workbookBefore) = try await staleStoreMadeAnInstanceDeletedByHand()
        let storeB = try DatabaseQueue(path: folder.appendingPathComponent("b.sqlite").path)
        try await storeB.write {
            try $0.execute(sql: "UPDATE transactions SET note = 'paid late' WHERE transactionId = ?", arguments: [deleted])
        }
        try storeB.close()
        #expect(try await Self.run(["sync", "--config", "b.json"], in: folder).status == 0)
        #expect(try instances(folder).map { $0[.date] } == (workbookBefore + ["2026-02-15"]).sorted())
        #expect(try transactions(folder)[deleted]?[.note] == "paid late")
    }
}
