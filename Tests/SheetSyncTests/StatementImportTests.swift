import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

/// `sheetsync import STATEMENT`: a bank's statement becomes transactions, once.
@Suite struct StatementImportTests {
    static let november = """
        Details,Posting Date,Description,Amount,Type,Balance
        DEBIT,11/03/2026,STARBUCKS STORE 01234,-4.75,DEBIT_CARD,"2,495.25"
        DEBIT,11/03/2026,STARBUCKS STORE 01234,-4.75,DEBIT_CARD,"2,490.50"
        CREDIT,11/14/2026,ACME CORP PAYROLL,"3,150.00",ACH_CREDIT,"5,640.50"
        DEBIT,11/28/2026,REWE MARKT 0815,-86.12,DEBIT_CARD,"5,554.38"

        """
    /// The last two entries of November and two of December: an overlapping download.
    static let overlap = """
        Details,Posting Date,Description,Amount,Type,Balance
        CREDIT,11/14/2026,ACME CORP PAYROLL,"3,150.00",ACH_CREDIT,"5,640.50"
        DEBIT,11/28/2026,REWE MARKT 0815,-86.12,DEBIT_CARD,"5,554.38"
        DEBIT,12/02/2026,LIDL DIENSTLEISTUNG,-12.30,DEBIT_CARD,"5,542.08"
        DEBIT,12/13/2026,CITY PARKING,-6.00,DEBIT_CARD,"5,536.08"

        """
    static let rules = #"""
        "import": {"rules": [{"match": "rewe|lidl", "category": "groceries", "tags": ["food"]},
                             {"match": "payroll", "category": "Salary"}]}
        """#
    static let importTime = Timestamp(iso: "2026-12-01T10:00:00Z")!

    static func ledger(config extra: String = rules) async throws -> Ledger {
        let ledger = try await Ledger.synced()
        let config = #"{"store": "ledger.sqlite", "remote": {"type": "csv", "path": "book"}, "# + extra + "}"
        try Data(config.utf8).write(to: ledger.folder.appendingPathComponent("sheetsync.json"))
        return ledger
    }

    static func write(_ text: String, _ name: String, in ledger: Ledger) throws -> URL {
        let url = ledger.folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    static func workspace(_ ledger: Ledger, at time: Timestamp = importTime) throws -> LedgerImport {
        LedgerImport(Workspace(config: try Config.load(ledger.folder.appendingPathComponent("sheetsync.json")), clock: ManualClock(time)))
    }

    static func imported(_ ledger: Ledger) throws -> [LedgerRow] {
        try ledger.storeRows(.transactions).values.filter { $0[.createdAt] == importTime.description }
            .sorted { ($0[.date], $0[.note], $0[.transactionId]) < ($1[.date], $1[.note], $1[.transactionId]) }
    }

    @Test func entriesArriveAsLocalChangesWithRuleCategoriesAndTheNextSyncWritesThem() async throws {
        let ledger = try await Self.ledger()
        let file = try Self.write(Self.november, "chase.csv", in: ledger)
        #expect(try ledger.storeRows(.transactions).count == 10)
        let report = try await Self.workspace(ledger).importStatement(at: file, options: .init())
        #expect(report.added == 4 && report.alreadyImported == 0 && report.refused.isEmpty)
        #expect(report.categories == ["Groceries": 1, "Salary": 1, "Uncategorized": 2])
        #expect(report.createdCategories == ["Uncategorized"])
        let rows = try Self.imported(ledger)
        #expect(
            rows.map { "\($0[.date]) \($0[.type]) \($0[.amount]) \($0[.category]) \($0[.tagsCSV]) \($0[.note])" } == [
                "2026-11-03 expense 4.75 Uncategorized  STARBUCKS STORE 01234",
                "2026-11-03 expense 4.75 Uncategorized  STARBUCKS STORE 01234",
                "2026-11-14 income 3150.00 Salary  ACME CORP PAYROLL", "2026-11-28 expense 86.12 Groceries food REWE MARKT 0815",
            ])
        #expect(rows.allSatisfy { $0[.lastModifiedAt] == Self.importTime.description && $0[.year] == "2026" && $0[.month] == "11" })
        #expect(try ledger.storeRows(.categories)["Uncategorized"]?[.type] == "expense")
        #expect(try ledger.sheetRows(.transactions).count == 10)

        let sync = try await ledger.run("sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        let sheet = try ledger.sheetRows(.transactions)
        #expect(sheet.count == 14)
        for row in rows { #expect(sheet[row[.transactionId]]?[.amount] == row[.amount]) }
        #expect(try ledger.sheetRows(.categories)["Uncategorized"] != nil)
    }

    @Test func reimportAddsNothingAndAnOverlapAddsOnlyTheNewEntries() async throws {
        let ledger = try await Self.ledger()
        let workspace = try Self.workspace(ledger)
        let november = try Self.write(Self.november, "november.csv", in: ledger)
        _ = try await workspace.importStatement(at: november, options: .init())
        let before = try ledger.storeRows(.transactions)

        let again = try await workspace.importStatement(at: november, options: .init())
        #expect(again.added == 0 && again.alreadyImported == 4 && again.createdCategories.isEmpty)
        #expect(try ledger.storeRows(.transactions) == before)

        let overlap = try await workspace.importStatement(at: try Self.write(Self.overlap, "overlap.csv", in: ledger), options: .init())
        #expect(overlap.added == 2 && overlap.alreadyImported == 2)
        let after = try ledger.storeRows(.transactions)
        #expect(after.count == before.count + 2)
        #expect(Set(after.values.map { $0[.note] }).isSuperset(of: ["LIDL DIENSTLEISTUNG", "CITY PARKING"]))
        #expect(after.values.filter { $0[.note] == "STARBUCKS STORE 01234" }.count == 2)
    }

    @Test func twoMachinesImportingOneStatementMakeTheSameRows() async throws {
        let first = try await Self.ledger()
        let second = try await Self.ledger()
        for ledger in [first, second] {
            _ = try await Self.workspace(ledger).importStatement(at: try Self.write(Self.november, "s.csv", in: ledger), options: .init())
        }
        #expect(Set(try Self.imported(first).map { $0[.transactionId] }) == Set(try Self.imported(second).map { $0[.transactionId] }))
        #expect(Set(try Self.imported(first).map { $0[.transactionId] }).count == 4)
    }

    @Test func twoBanksWhoseReferencesCoincideNeverMerge() async throws {
        let profiles = #"""
            "import": {"profiles": {"checking": {"fileName": "checking*.csv"}, "savings": {"fileName": "savings*.csv"}}}
            """#
        let ledger = try await Self.ledger(config: profiles)
        let workspace = try Self.workspace(ledger)
        // Two banks' layouts, no profile, each numbering its entries from 1001.
        let layout = "Date,Description,Amount,Transaction ID\n"
        let us = try Self.write(layout + "2026-11-02,Coffee,-3.20,1001\n", "us.csv", in: ledger)
        let de = try Self.write(
            "Buchungstag;Verwendungszweck;Betrag;Transaktions-ID\n02.11.2026;Miete;-900,00;1001\n", "de.csv", in: ledger)
        // One bank's two accounts: one layout, a profile each.
        let checking = try Self.write(layout + "2026-11-05,Fee,-12.00,1002\n", "checking-nov.csv", in: ledger)
        let savings = try Self.write(layout + "2026-11-05,Interest,0.40,1002\n", "savings-nov.csv", in: ledger)
        for file in [us, de, checking, savings] {
            let report = try await workspace.importStatement(at: file, options: .init())
            #expect(report.added == 1 && report.alreadyImported == 0, "\(file.lastPathComponent)")
        }
        #expect(
            try Self.imported(ledger).map { "\($0[.date]) \($0[.amount]) \($0[.note])" } == [
                "2026-11-02 3.20 Coffee", "2026-11-02 900.00 Miete", "2026-11-05 12.00 Fee", "2026-11-05 0.40 Interest",
            ])
        for file in [us, de, checking, savings] {
            let again = try await workspace.importStatement(at: file, options: .init())
            #expect(again.added == 0 && again.alreadyImported == 1, "\(file.lastPathComponent)")
        }
        #expect(try Self.imported(ledger).count == 4)
    }

    @Test func aDeletedImportedEntryIsNotBroughtBack() async throws {
        let ledger = try await Self.ledger()
        let workspace = try Self.workspace(ledger)
        let file = try Self.write(Self.november, "november.csv", in: ledger)
        _ = try await workspace.importStatement(at: file, options: .init())
        let coffee = try #require(try Self.imported(ledger).first)
        // Deleted in the store, as a person with a SQLite client or a sync of a deleted sheet row does.
        _ = try LedgerStore(path: ledger.store.path).delete(key: coffee[.transactionId], in: .transactions)
        let again = try await workspace.importStatement(at: file, options: .init())
        #expect(again.added == 0)
        #expect(try ledger.storeRows(.transactions)[coffee[.transactionId]] == nil)
    }

    @Test func dryRunChangesNotOneByteAndPrintsThePlan() async throws {
        let ledger = try await Self.ledger()
        let file = try Self.write(Self.november, "november.csv", in: ledger)
        let before = try ledger.everyByte()
        let run = try await ledger.run("import", file.path, "--dry-run")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("would import 4 transactions from november.csv (CSV)"), "\(run.stdout)")
        #expect(run.stdout.contains("would create category 'Uncategorized'"), "\(run.stdout)")
        #expect(run.stdout.contains("line 5: 2026-11-28 expense 86.12 Groceries 'REWE MARKT 0815' (added)"), "\(run.stdout)")
        #expect(try ledger.everyByte() == before)
    }

    @Test func jsonReportsAddedAlreadyImportedAndPerCategory() async throws {
        let ledger = try await Self.ledger()
        let file = try Self.write(Self.november, "november.csv", in: ledger)
        _ = try await Self.workspace(ledger).importStatement(at: try Self.write(Self.overlap, "o.csv", in: ledger), options: .init())
        let run = try await ledger.run("import", file.path, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(StatementImportReport.self, from: Data(run.stdout.utf8))
        #expect(report.added == 2 && report.alreadyImported == 2)
        #expect(report.categories == ["Uncategorized": 2])
        #expect(report.rows.map(\.status) == [.added, .added, .alreadyImported, .alreadyImported])
    }

    @Test func aRefusedEntryHoldsBackTheWholeFileNamingFileLineAndReason() async throws {
        let ledger = try await Self.ledger()
        let text = Self.november.replacingOccurrences(of: "-86.12", with: "-86.1.2")
        let file = try Self.write(text, "broken.csv", in: ledger)
        let before = try ledger.everyByte()
        let run = try await ledger.run("import", file.path)
        #expect(run.status == 65)
        #expect(run.stderr.contains("broken.csv line 5: '-86.1.2' is not an amount"), "\(run.stderr)")
        #expect(run.stdout.contains("imported nothing from broken.csv (CSV): 1 entry refused"), "\(run.stdout)")
        #expect(try ledger.everyByte() == before)
    }

    @Test func aFileThatIsNoStatementIsRefusedNamingWhatIsMissing() async throws {
        let ledger = try await Self.ledger()
        let file = try Self.write("Date,Shop\n2026-11-02,Bakery\n", "shops.csv", in: ledger)
        let run = try await ledger.run("import", file.path, "--json")
        #expect(run.status == 65)
        let error = run.json?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "missing-column" && error?["kind"] as? String == "data", "\(run.stdout)")
        #expect(
            (error?["message"] as? String)?.hasPrefix("shops.csv: no amount column (columns found: 'Date', 'Shop')") == true,
            "\(run.stdout)")

        #expect(try ledger.storeRows(.transactions).count == 10)
    }

    @Test func aWholeFileRefusalHasItsCodeAndAHintSayingWhatToDo() async throws {
        let profile = #""import": {"profiles": {"uk": {"fileName": "*.uk.csv"}}}"#
        let ledger = try await Self.ledger(config: profile)
        let config = ledger.folder.appendingPathComponent("sheetsync.json").path
        let workspace = try Self.workspace(ledger)
        let ambiguous = "Date,Description,Amount\n01/02/2026,Coffee,-3.20\n03/04/2026,Books,-15.00\n"
        let cases: [(file: String, bytes: [UInt8], code: String, hint: String)] = [
            (
                "shops.csv", Array("Date,Shop\n2026-11-02,Bakery\n".utf8), "missing-column",
                "name the bank's columns in import.csv.columns in the config at \(config)"
            ),
            ("bank.csv", Array(ambiguous.utf8), "ambiguous-date-order", "set import.csv.dateFormat in the config at \(config)"),
            ("bank.uk.csv", Array(ambiguous.utf8), "ambiguous-date-order", "set import.profiles.uk.dateFormat in the config at \(config)"),
            ("photo.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "not-a-statement", "download the statement again"),
            ("empty.csv", [], "not-a-statement", "download the statement again"),
            (
                "cut.xml", Array("<?xml version=\"1.0\"?><Document><BkToCstmrStmt><Stmt>".utf8), "malformed-statement",
                "damaged or cut short"
            ),
        ]
        let before = try ledger.everyByte()
        for (name, bytes, code, hint) in cases {
            let url = ledger.folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            let error = try await #require(throws: SheetSyncError.self, "\(name)") {
                try await workspace.importStatement(at: url, options: .init())
            }
            #expect(error.exitCode == .dataError, "\(name)")
            #expect(error.code == code, "\(name): \(error.code ?? "no code")")
            #expect(error.hint?.contains(hint) == true, "\(name): \(error.hint ?? "no hint")")
            try FileManager.default.removeItem(at: url)
        }
        #expect(try ledger.everyByte() == before)
        let shops = try Self.write("Date,Shop\n2026-11-02,Bakery\n", "shops.csv", in: ledger)
        let run = try await ledger.run("import", shops.path, "--json")
        #expect(run.status == 65)
        let error = try #require(run.json?["error"] as? [String: Any], "\(run.stdout)")
        #expect(error["code"] as? String == "missing-column")
        #expect((error["hint"] as? String)?.contains("import.csv.columns in the config at \(config)") == true, "\(error)")
    }

    @Test func aBankProfileIsChosenByWhatTheFileHoldsOrByName() async throws {
        let profiles = #"""
            "import": {"profiles": {
                "amex": {"headerContains": "Card Member", "expenseSign": "positive"},
                "uk": {"fileName": "*.uk.csv", "dateFormat": "dd/MM/yyyy"}}}
            """#
        let ledger = try await Self.ledger(config: profiles)
        let amex = try Self.write("Date,Description,Card Member,Amount\n11/13/2026,DELTA AIR LINES,JANE DOE,412.40\n", "a.csv", in: ledger)
        let uk = try Self.write("Date,Description,Amount\n01/02/2026,Coffee,-3.20\n", "bank.uk.csv", in: ledger)
        let workspace = try Self.workspace(ledger)
        let card = try await workspace.importStatement(at: amex, options: .init(dryRun: true))
        #expect(card.profile == "amex" && card.rows.map(\.type) == ["expense"])
        let british = try await workspace.importStatement(at: uk, options: .init(dryRun: true))
        #expect(british.profile == "uk" && british.rows.map(\.date) == ["2026-02-01"])
        let unknown = try await ledger.run("import", uk.path, "--profile", "chase")
        #expect(unknown.status == 78)
        #expect(
            unknown.stderr.contains("--profile 'chase' is not in the config's import.profiles (known: 'amex', 'uk')"), "\(unknown.stderr)")
    }

    @Test func aRuleThatIsNoRegularExpressionIsAConfigurationError() async throws {
        let ledger = try await Self.ledger(config: #""import": {"rules": [{"match": "rewe(", "category": "Groceries"}]}"#)
        let run = try await ledger.run("import", try Self.write(Self.november, "n.csv", in: ledger).path)
        #expect(run.status == 78)
        #expect(run.stderr.contains("import.rules[0].match: 'rewe(' is not a regular expression"), "\(run.stderr)")
    }

    @Test func aMonthFromThreeBanksImportsReimportsAsNothingAndSyncsEveryCharacter() async throws {
        let ledger = try await Self.ledger()
        let fixtures = CLI.repoRoot.appendingPathComponent("Tests/StatementsTests/Fixtures/own")
        for name in ["us-checking.csv", "uk-current-account.csv", "de-girokonto.csv", "girokonto.camt053.xml", "checking-sgml.ofx"] {
            let run = try await ledger.run("import", fixtures.appendingPathComponent(name).path)
            #expect(run.status == 0, "\(name): \(run.stderr)")
        }
        let stored = try ledger.storeRows(.transactions)
        // 10 of the sample, then 5 (US), 4 (UK), 4 (DE CSV), 3 booked of 4 (CAMT), 3 (OFX).
        #expect(stored.count == 29)
        for name in ["us-checking.csv", "de-girokonto.csv", "checking-sgml.ofx"] {
            let again = try await ledger.run("import", fixtures.appendingPathComponent(name).path, "--json")
            let report = again.decoded(as: StatementImportReport.self)
            #expect(again.status == 0 && report?.added == 0 && report?.alreadyImported ?? 0 > 0, "\(again.stdout)")

        }
        #expect(try ledger.storeRows(.transactions) == stored)
        let sync = try await ledger.run("sync")
        #expect(sync.status == 0, "\(sync.stderr)")
        let sheet = try ledger.sheetRows(.transactions).values.map { "\($0[.date]) \($0[.type]) \($0[.amount]) \($0[.note])" }
        for expected in [
            "2026-11-04 expense 3.50 Bäckerei Müller — Brötchen & Kaffee für 3,50 €",
            "2026-11-30 expense 1050.00 Hausverwaltung Straßburger — Miete Dezember",
            "2026-11-25 income 2100.00 EMPLOYER LTD SALARY", "2026-11-30 expense 1050.00 Dauerauftrag Miete Straße 5 €",
            "2026-11-30 income 2500.00 ACME & SONS PAYROLL", "2026-11-28 expense 86.12 WHOLEFDS MKT #10234, \"ORGANIC\"",
        ] {
            #expect(sheet.contains(expected), "\(expected)")
        }
        #expect(sheet.filter { $0 == "2026-11-03 expense 4.75 BLUE BOTTLE COFFEE — POS PURCHASE" }.count == 2)
    }
}

/// A budget kept for years in a spreadsheet: its own columns, a title row, its own categories.
@Suite struct BudgetSheetImportTests {
    static let budget = """
        My household budget 2026
        Date,Category,Amount,Type,Note
        2026-03-01,Groceries,54.20,expense,Market
        2026-03-02,DINING,18.75,expense,Lunch
        2026-03-03,,12.00,expense,REWE to go
        2026-03-15,Salary,3200.00,income,Paycheck
        2026-03-20,Pets,35.00,expense,Vet

        """

    @Test func itsOwnCategoriesAreUsedUnknownOnesListedAndTheFlagsAgreeWithCategoryAdd() async throws {
        let ledger = try await StatementImportTests.ledger()
        let file = try StatementImportTests.write(Self.budget, "budget.csv", in: ledger)
        let workspace = try StatementImportTests.workspace(ledger)
        let plain = try await workspace.importStatement(at: file, options: .init())
        #expect(plain.added == 0)
        #expect(
            plain.refused.map(\.code) == [.unknownCategory, .unknownCategory]
                && plain.refused.map(\.message) == [
                    "unknown category 'DINING' in 1 row; the ledger has 'Dining', which differs only in case: "
                        + "import again with --merge-categories to file these rows under 'Dining'",
                    "unknown category 'Pets' in 1 row; add it (`sheetsync category add`), or import again with --create-categories",
                ])
        #expect(try ledger.storeRows(.transactions).count == 10)

        let created = try await workspace.importStatement(at: file, options: .init(createCategories: true))
        #expect(created.refused.map(\.message).count == 1 && created.added == 0)
        #expect(try ledger.storeRows(.categories)["DINING"] == nil)

        let both = try await workspace.importStatement(at: file, options: .init(mergeCategories: true, createCategories: true))
        #expect(both.refused.isEmpty && both.added == 5 && both.createdCategories == ["Pets"])
        let rows = try StatementImportTests.imported(ledger).map {
            "\($0[.date]) \($0[.type]) \($0[.amount]) \($0[.category]) \($0[.note])"
        }
        #expect(
            rows == [
                "2026-03-01 expense 54.20 Groceries Market", "2026-03-02 expense 18.75 Dining Lunch",
                "2026-03-03 expense 12.00 Groceries REWE to go",
                "2026-03-15 income 3200.00 Salary Paycheck", "2026-03-20 expense 35.00 Pets Vet",
            ])
    }
}
