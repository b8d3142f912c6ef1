import Foundation
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// Importing a workbook that has only some tabs (a Transactions sheet sent by someone else).
@Suite struct PartialImportTests {
    static func transactionsOnly(_ rows: [[String]]) -> Table {
        Table(header: TablePatcher.newHeader(Tab.transactions.schema), rows: rows.map { $0.map { $0.isEmpty ? Cell.empty : .text($0) } })
    }

    static let rows = [
        ["", "expense", "2026-03-01", "", "", "4.50", "Dining", "", "Coffee", "", "", "", "", ""],
        ["", "expense", "2026-03-02", "", "", "20.00", "Pets", "", "Food for Rex", "", "", "", "", ""],
        ["", "expense", "2026-03-03", "", "", "35.00", "Pets", "", "Vet", "", "", "", "", ""],
    ]

    @Test func aTransactionsOnlyXlsxImportsAgainstTheStoresCategoriesAndNamesEachMissingOneOnce() async throws {
        let ledger = try await Ledger.synced()
        let file = ledger.folder.appendingPathComponent("from-bank.xlsx")
        try XLSXWriter.write([XLSXSheet(name: "Transactions", table: Self.transactionsOnly(Self.rows))], to: file)
        let run = try await ledger.run("import", file.path)
        #expect(run.status == 65)
        #expect(run.stderr.contains("unknown category 'Pets' in 2 rows"), "\(run.stderr)")
        #expect(!run.stderr.contains("Transactions row 3"), "one line per category, not per row: \(run.stderr)")
        let stored = try ledger.storeRows(.transactions)
        #expect(stored.count == 11)  // the Dining row came in: the store's categories were known
        #expect(stored.values.contains { $0[.note] == "Coffee" })
        #expect(try ledger.storeRows(.categories).count == 7)  // the file has no Categories tab: nothing deleted

        let created = try await ledger.run("import", file.path, "--create-categories")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("created category 'Pets'"), "\(created.stdout)")
        #expect(try ledger.storeRows(.categories)["Pets"]?[.type] == "expense")
        #expect(try ledger.storeRows(.transactions).count == 13)  // Coffee was not imported twice
    }
}
