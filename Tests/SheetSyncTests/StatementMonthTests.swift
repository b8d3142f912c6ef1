import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing
import Workbook

/// A month of statements from three banks, in-process: imported, imported again as nothing, synced to
/// a CSV workbook and to an `.xlsx` with every date, amount and character as the banks printed them.
@Suite struct StatementMonthTests {
    static let fixtures = CLI.repoRoot.appendingPathComponent("Tests/StatementsTests/Fixtures/own")
    /// A German bank's CSV (Windows-1252), a UK bank's CSV (Windows-1252, `£`), a US bank's OFX.
    static let files = ["de-girokonto.csv", "uk-current-account.csv", "checking-sgml.ofx"]
    static let config = #"""
        "timezone": "Europe/Berlin",
        "import": {"rules": [{"match": "rewe|tesco", "category": "Groceries"}, {"match": "payroll|salary|gehalt", "category": "Salary"}]}
        """#
    static let importTime = Timestamp(iso: "2026-12-01T10:00:00Z")!
    /// Every transaction of the month: date, type, amount, category, note.
    static let month = [
        "2026-11-02 expense 23.45 Groceries REWE Markt GmbH — REWE SAGT DANKE 48211 Köln",
        "2026-11-03 expense 12.50 Groceries TESCO STORES 3051",
        "2026-11-03 expense 4.75 Uncategorized BLUE BOTTLE COFFEE — POS PURCHASE",
        "2026-11-03 expense 4.75 Uncategorized BLUE BOTTLE COFFEE — POS PURCHASE",
        "2026-11-04 expense 3.50 Uncategorized Bäckerei Müller — Brötchen & Kaffee für 3,50 €",
        "2026-11-05 expense 41.17 Uncategorized THAMES WATER",
        "2026-11-15 income 2750.00 Salary Arbeitgeber AG — Gehalt November",
        "2026-11-25 income 2100.00 Salary EMPLOYER LTD SALARY",
        "2026-11-28 expense 3000.00 Uncategorized LANDLORD RENT NOV",
        "2026-11-30 expense 1050.00 Uncategorized Hausverwaltung Straßburger — Miete Dezember",
        "2026-11-30 income 2500.00 Salary ACME & SONS PAYROLL",
    ]

    /// A new, empty ledger whose workbook is `remote` (`book` folder or `book.xlsx`), its three statements imported.
    static func importedMonth(remote: String) async throws -> (Workspace, Ledger) {
        let folder = try TestWorkbook.scratch("month")
        let type = remote.hasSuffix(".xlsx") ? "xlsx" : "csv"
        let text = #"{"store": "ledger.sqlite", "remote": {"type": "\#(type)", "path": "\#(remote)"}, "# + config + "}"
        let url = folder.appendingPathComponent("sheetsync.json")
        try Data(text.utf8).write(to: url)
        let workspace = Workspace(config: try Config.load(url), clock: ManualClock(importTime))
        _ = try await LedgerSetup(workspace).initialize(dryRun: false, starterCategories: false)
        let ledger = Ledger(
            folder: folder, book: folder.appendingPathComponent(remote), store: folder.appendingPathComponent("ledger.sqlite"))
        for name in files {
            let report = try await LedgerImport(workspace).importStatement(at: fixtures.appendingPathComponent(name), options: .init())
            #expect(report.refused.isEmpty && report.alreadyImported == 0, "\(name): \(report.refused)")
        }
        return (workspace, ledger)
    }

    static func lines(_ rows: some Collection<LedgerRow>) -> [String] {
        rows.map { "\($0[.date]) \($0[.type]) \($0[.amount]) \($0[.category]) \($0[.note])" }.sorted()
    }

    /// Imports the month, imports it again (nothing changes in the store), syncs.
    static func syncedMonth(remote: String) async throws -> Ledger {
        let (workspace, ledger) = try await importedMonth(remote: remote)
        let stored = try ledger.storeRows(.transactions)
        #expect(lines(stored.values) == month)
        #expect(stored.values.allSatisfy { $0[.createdAt] == importTime.description && $0[.lastModifiedAt] == importTime.description })
        let categories = try ledger.storeRows(.categories)
        for name in files {
            let again = try await LedgerImport(workspace).importStatement(at: fixtures.appendingPathComponent(name), options: .init())
            #expect(again.added == 0 && again.alreadyImported == again.rows.count && again.createdCategories.isEmpty, "\(name)")
        }
        #expect(try ledger.storeRows(.transactions) == stored)
        #expect(try ledger.storeRows(.categories) == categories)
        let sync = try await WorkbookSync(workspace).run(SyncOptions(mode: .sync))
        #expect(sync.exitCode == .ok && sync.rejected.isEmpty, "\(sync.errors) \(sync.rejected)")
        return ledger
    }

    @Test func aMonthFromThreeBanksSyncsToACSVWorkbookWithEveryCharacter() async throws {
        let ledger = try await Self.syncedMonth(remote: "book")
        #expect(Self.lines(try ledger.sheetRows(.transactions).values) == Self.month)
        // The file's own bytes are UTF-8: the Windows-1252 statements' characters arrived as themselves.
        let text = try String(contentsOf: ledger.book.appendingPathComponent("Transactions.csv"), encoding: .utf8)
        for note in ["Köln", "Bäckerei Müller — Brötchen & Kaffee für 3,50 €", "Hausverwaltung Straßburger", "ACME & SONS PAYROLL"] {
            #expect(text.contains(note), "\(note)")
        }
        #expect(Set(try ledger.sheetRows(.categories).keys) == ["Groceries", "Salary", "Uncategorized"])
    }

    @Test func aMonthFromThreeBanksSyncsToAnXLSXWorkbookWithTypedCells() async throws {
        let ledger = try await Self.syncedMonth(remote: "book.xlsx")
        let sheets = try XLSXReader.read(contentsOf: ledger.book)
        let sheet = try #require(sheets.first { $0.name == "Transactions" })
        let (_, rows) = try TabReader.read(sheet.table, schema: .transactions, seenAt: Self.importTime)
        let records = rows.compactMap { row -> LedgerRow? in if case .record(let r, _) = row.outcome { return r } else { return nil } }
        #expect(Self.lines(records) == Self.month)
        // Dates are date cells and amounts number cells, exact.
        let date = try #require(sheet.table.header.firstIndex(of: "date"))
        let amount = try #require(sheet.table.header.firstIndex(of: "amount"))
        let note = try #require(sheet.table.header.firstIndex(of: "note"))
        let bakery = try #require(sheet.table.rows.first { $0[note] == .text("Bäckerei Müller — Brötchen & Kaffee für 3,50 €") })
        #expect(bakery[date] == .dateSerial(String(LocalDate(iso: "2026-11-04")!.spreadsheetSerial)))
        #expect(bakery[amount] == .number("3.5"))
        let rent = try #require(sheet.table.rows.first { $0[note] == .text("Hausverwaltung Straßburger — Miete Dezember") })
        #expect(rent[amount] == .number("1050"))
    }
}
