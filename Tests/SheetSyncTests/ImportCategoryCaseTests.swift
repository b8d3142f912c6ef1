import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// A file's category that differs from a ledger category only in case: the import's advice and
/// `--create-categories` agree with `category add`, which refuses such a twin.
@Suite struct ImportCategoryCaseTests {
    @Test func aCategoryDifferingOnlyInCaseIsMergedNeverCreatedBesideTheLedgersOne() async throws {
        let ledger = try await Ledger.synced()
        let file = ledger.folder.appendingPathComponent("budget.xlsx")
        let row = ["", "expense", "2026-03-01", "", "", "9.90", "DINING", "", "Pizza", "", "", "", "", ""]
        let table = Table(header: TablePatcher.newHeader(Tab.transactions.schema), rows: [row.map { $0.isEmpty ? Cell.empty : .text($0) }])
        try XLSXWriter.write([XLSXSheet(name: "Transactions", table: table)], to: file)

        let plain = try await ledger.run("import", file.path)
        #expect(plain.status == 65)
        #expect(plain.stderr.contains("unknown category 'DINING' in 1 row"), "\(plain.stderr)")
        #expect(plain.stderr.contains("--merge-categories"), "\(plain.stderr)")
        #expect(!plain.stderr.contains("--create-categories"), "\(plain.stderr)")

        // A script reads the same under --json: the category refused once, with its code, and each row's rejection.
        let json = try #require(try await ledger.run("import", file.path, "--json").report)
        let refused = json.errors.filter { $0.code == .importRefused }
        #expect(refused.count == 1 && refused[0].message.contains("'DINING'"), "\(json.errors)")
        #expect(json.rejected.map(\.code) == [.unknownCategory], "\(json.rejected)")
        #expect(json.imported?.alreadyImported == 0)

        let created = try await ledger.run("import", file.path, "--create-categories")
        #expect(created.status == 65, "\(created.stdout)")
        #expect(try ledger.storeRows(.categories)["DINING"] == nil)
        #expect(try ledger.storeRows(.categories).count == 7)
        #expect(!(try ledger.storeRows(.transactions).values.contains { $0[.note] == "Pizza" }))

        let merged = try await ledger.run("import", file.path, "--merge-categories")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try ledger.storeRows(.transactions).values.first { $0[.note] == "Pizza" }?[.category] == "Dining")
        #expect(try ledger.storeRows(.categories).count == 7)
    }
}
