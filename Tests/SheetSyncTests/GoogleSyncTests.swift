import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Testing

/// Hand edits in the spreadsheet and local edits in the store, synced with the built binary.
@Suite struct GoogleSyncTests {
    @Test func handEditsOnBothSidesConvergeAndASecondSyncWritesNothing() async throws {
        let bed = try await GoogleTestBed.start("g-both")
        let keys = try GoogleSeed.ledger(in: bed, transactions: 6, ids: SeededIDs(seed: 1))
        #expect(try await bed.cli("sync").status == 0)
        let id = try bed.spreadsheetId()
        let tab = Tab.transactions.rawValue
        let note = try bed.column("note", in: .transactions), date = try bed.column("date", in: .transactions)
        let amount = try bed.column("amount", in: .transactions)
        func at(_ key: String, _ column: Int) throws -> String {
            GoogleTestBed.a1(row: try #require(try bed.rowIndex(of: key, in: .transactions)), column: column)
        }
        // A person: retypes a note, types a date as text, an amount as "12.50", adds a row without an id,
        // deletes a row and sorts the sheet by note, Z to A.
        try bed.emulator.typeCell(spreadsheetId: id, tab: tab, at: try at(keys[0], note), text: "typed note")
        try bed.emulator.typeCell(spreadsheetId: id, tab: tab, at: try at(keys[1], date), text: "'2026-03-05")
        try bed.emulator.typeCell(spreadsheetId: id, tab: tab, at: try at(keys[2], amount), text: "12.50")
        try bed.emulator.insertRow(
            spreadsheetId: id, tab: tab, at: 3, typed: ["", "expense", "2026-02-21", "", "", "4.5", "Fun", "", "hand row"])
        try bed.emulator.deleteRow(spreadsheetId: id, tab: tab, at: try #require(try bed.rowIndex(of: keys[3], in: .transactions)))
        try bed.emulator.sortTab(spreadsheetId: id, tab: tab, byColumn: note, ascending: false)
        // Locally: `sheetsync add`, and edits by another SQLite client.
        let added = try await bed.cli(
            "add", "expense", "--amount", "7.00", "--category", "Food", "--date", "2026-02-25", "--note", "cli add")
        #expect(added.status == 0, "\(added.stderr)")
        let addedId = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try GoogleSeed.sql(bed, "UPDATE transactions SET note = 'sql note' WHERE transactionId = ?", [keys[4]])
        try GoogleSeed.sql(bed, "DELETE FROM transactions WHERE transactionId = ?", [keys[5]])

        let run = try await bed.cli("sync")
        #expect(run.status == 0, "\(run.stderr)")
        for other in [Tab.categories, .settings, .receipts, .recurringRules] {
            #expect(try bed.storeRecords(other) == bed.sheetRecords(other), "\(other.rawValue)")
        }
        let store = try bed.storeRecords(.transactions), sheet = try bed.sheetRecords(.transactions)
        #expect(store == sheet)
        #expect(store[keys[0]]?[.note] == "typed note")
        #expect(store[keys[1]]?[.date] == "2026-03-05" && store[keys[1]]?[.month] == "3")
        #expect(store[keys[2]]?[.amount] == "12.50")
        #expect(store[keys[3]] == nil && store[keys[5]] == nil)
        #expect(store[keys[4]]?[.note] == "sql note")
        #expect(store[addedId]?[.note] == "cli add")
        // The hand-added row got its id in the same row (the one holding "hand row"), and the store has it.
        let hand = try #require(store.values.first { $0[.note] == "hand row" })
        let handRow = try #require(try bed.rowIndex(of: hand[.transactionId], in: .transactions))
        #expect(try bed.values(.transactions)[handRow][note] == .string("hand row"))
        #expect(hand[.amount] == "4.50" && hand[.year] == "2026" && hand[.month] == "2")
        #expect(store.count == 6)
        // What the person typed stays as typed where its value is right: the text date, the 12.5 number.
        #expect(
            try bed.values(.transactions)[try #require(try bed.rowIndex(of: keys[1], in: .transactions))][date] == .string("2026-03-05"))
        #expect(try bed.values(.transactions)[try #require(try bed.rowIndex(of: keys[2], in: .transactions))][amount] == .number(12.5))

        let version = bed.emulator.version(of: id)
        bed.emulator.resetCounters()
        let again = try await bed.cli("sync")
        #expect(again.status == 0)
        #expect(bed.emulator.version(of: id) == version)
        #expect(bed.emulator.counters.requests("sheets.spreadsheets.batchUpdate") == 0)
        #expect(try bed.storeRecords(.transactions) == store)
        await bed.finish()
    }

    @Test func aTabTheSpreadsheetLacksIsAddedWithItsHeaderWhenItsFirstRowIsPushed() async throws {
        let bed = try await GoogleTestBed.start("g-missing-tab")
        try GoogleSeed.ledger(in: bed, transactions: 2, ids: SeededIDs(seed: 3), tabs: [.transactions, .categories, .settings])
        let first = try await bed.cli("sync")
        #expect(first.status == 0, "\(first.stderr)")
        let stamp = "2026-02-02T00:00:00.000Z"
        try bed.store().upsert(
            LedgerRow([
                .recurringRuleId: "5eed0000-0000-4000-8000-000000000001", .isEnabled: "TRUE", .type: "expense", .amount: "900.00",
                .category: "Rent", .tagsCSV: "", .note: "rent", .startDate: "2026-01-01", .cadence: "monthly", .interval: "1",
                .endDate: "", .lastGeneratedDate: "", .createdAt: stamp, .lastModifiedAt: stamp,
            ]), in: .recurringRules)
        let run = try await bed.cli("sync")
        #expect(run.status == 0, "\(run.stderr)")
        let tabs = try bed.emulator.tabNames(spreadsheetId: try bed.spreadsheetId())
        #expect(tabs.contains(Tab.recurringRules.rawValue))
        #expect(try bed.table(.recurringRules).header.prefix(13) == TablePatcher.newHeader(Tab.recurringRules.schema).prefix(13))
        #expect(try bed.sheetRecords(.recurringRules)["5eed0000-0000-4000-8000-000000000001"]?[.amount] == "900.00")
        #expect(try bed.storeRecords(.recurringRules) == bed.sheetRecords(.recurringRules))
        #expect(try await bed.cli("sync").status == 0)
        await bed.finish()
    }

    @Test func typedCellsAreWrittenRawAmountsAsNumbersDatesAsDateCellsTextAsText() async throws {
        let bed = try await GoogleTestBed.start("g-typed")
        try GoogleSeed.ledger(in: bed, transactions: 1, ids: SeededIDs(seed: 2))
        #expect(try await bed.cli("sync").status == 0)
        let added = try await bed.cli(
            "add", "expense", "--amount", "1234.50", "--category", "Rent", "--date", "2026-01-15",
            "--note", "=HYPERLINK(\"http://x\")")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await bed.cli("sync").status == 0)
        let key = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let row = try #require(try bed.rowIndex(of: key, in: .transactions))
        let id = try bed.spreadsheetId(), tab = Tab.transactions.rawValue
        let amount = try bed.emulator.cell(
            spreadsheetId: id, tab: tab, at: GoogleTestBed.a1(row: row, column: try bed.column("amount", in: .transactions)))
        let date = try bed.emulator.cell(
            spreadsheetId: id, tab: tab, at: GoogleTestBed.a1(row: row, column: try bed.column("date", in: .transactions)))
        let note = try bed.emulator.cell(
            spreadsheetId: id, tab: tab, at: GoogleTestBed.a1(row: row, column: try bed.column("note", in: .transactions)))
        #expect(amount.value == .number(1234.5))
        #expect(date.value == .number(46037) && date.numberFormat?.type == "DATE" && date.numberFormat?.pattern == "yyyy-mm-dd")
        #expect(note.value == .string("=HYPERLINK(\"http://x\")"))
        await bed.finish()
    }
}

extension GoogleSyncTests {
    /// Select all, Delete on the Settings tab (its header too): recreated, header and row; it failed
    /// "missing columns" on every run in Google mode.
    @Test func aSettingsTabClearedWithItsHeaderIsRecreated() async throws {
        let bed = try await GoogleTestBed.start("g-settings-blank")
        #expect(try await bed.cli("init").status == 0)
        let id = try bed.spreadsheetId()
        let before = try bed.sheetRecords(.settings)
        // As the browser's Delete does: every cell emptied, the grid kept (Google refuses deleting every row).
        for row in 0...1 {
            for column in Tab.settings.schema.fields.indices {
                try bed.emulator.typeCell(
                    spreadsheetId: id, tab: Tab.settings.rawValue, at: GoogleTestBed.a1(row: row, column: column), text: "")
            }
        }
        #expect(try bed.table(.settings).header.allSatisfy(\.isEmpty))
        let run = try await bed.cli("sync")
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try bed.values(.settings)
        #expect(try bed.table(.settings).header == TablePatcher.newHeader(Tab.settings.schema), "\(shown)")
        #expect(try bed.sheetRecords(.settings) == before)
        #expect(try await bed.cli("sync").status == 0)
        await bed.finish()
    }
}
