import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import SheetsEmulator
import Testing

/// The data-safety rows that apply to Google mode, with the built binary against the emulator.
@Suite struct GoogleDataSafetyTests {
    @Test func aRenamedTransactionsTabDeletesNothingAndTheOtherTabsSync() async throws {
        let bed = try await GoogleTestBed.start("g-missing-tab")
        #expect(try await bed.cli("init", "--empty").status == 0)
        let id = try bed.spreadsheetId()
        try bed.emulator.typeCell(spreadsheetId: id, tab: "Categories", at: "A2", text: "Food")
        try bed.emulator.typeCell(spreadsheetId: id, tab: "Categories", at: "B2", text: "expense")
        #expect(try await bed.cli("sync").status == 0)
        for amount in ["1", "2", "3"] {
            #expect(try await bed.cli("add", "expense", "--amount", amount, "--category", "Food").status == 0)
        }
        #expect(try await bed.cli("sync").status == 0)
        #expect(try bed.sheetRecords(.transactions).count == 3)
        try bed.emulator.renameTab(spreadsheetId: id, tab: "Transactions", to: "Transactions (old)")
        try bed.emulator.typeCell(spreadsheetId: id, tab: "Categories", at: "C2", text: "🍔")
        let run = try await bed.cli("sync", "--json")
        #expect(run.status == 65)
        #expect(
            run.issues.contains { $0.code == .unreadableTab && $0.place.tab == .transactions && $0.message.contains(id) },
            "\(run.stdout)")
        #expect(try bed.storeRecords(.transactions).count == 3)
        #expect(try bed.storeRecords(.categories)["Food"]?[.emoji] == "🍔")
        #expect(try bed.emulator.rows(spreadsheetId: id, tab: "Transactions (old)").count == 4)
        await bed.finish()
    }
}
