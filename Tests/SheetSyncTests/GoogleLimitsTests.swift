import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Testing

/// Google mode against the real service's limits, each against the emulator with those limits on:
/// payload size, grid size, cell size, spreadsheet size, permanent errors.
@Suite struct GoogleLimitsTests {
    /// A linked ledger spreadsheet without transactions, pulled into a new store.
    static func emptyLedger(_ name: String, tabs: [Tab] = Tab.allCases, maxRequestBytes: Int? = nil) async throws -> GoogleTestBed {
        let bed = try await GoogleTestBed.start(name)
        try GoogleSeed.ledger(in: bed, transactions: 0, ids: SeededIDs(seed: 12), tabs: tabs)
        try bed.writeConfig(spreadsheetId: try bed.spreadsheetId(), maxRequestBytes: maxRequestBytes)
        let pulled = try await bed.cli("sync")
        #expect(pulled.status == 0, "\(pulled.stderr)")
        return bed
    }

    static func batchUpdateBodies(_ bed: GoogleTestBed) -> [Int] {
        bed.emulator.requestLog.filter { $0.endpoint == "sheets.spreadsheets.batchUpdate" }.map(\.body.count)
    }

    static func decode(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aFortyThousandRowFirstPushGoesInRequestsOfAtMostTwoMegabytesAndLandsWhole() async throws {
        let bed = try await Self.emptyLedger("g-limits-40k")
        try GoogleSeed.storeTransactions(bed, count: 40_000, ids: SeededIDs(seed: 40))
        bed.emulator.resetCounters()
        let start = Date()
        let push = try await bed.cli("sync")
        let seconds = Date().timeIntervalSince(start)
        #expect(push.status == 0, "\(push.stderr)")
        let bodies = Self.batchUpdateBodies(bed)
        #expect(bodies.count >= 10, "\(bodies)")
        #expect(bodies.allSatisfy { $0 <= 2_000_000 }, "\(bodies)")
        let sheet = try bed.sheetRecords(.transactions)
        #expect(sheet.count == 40_000)
        #expect(try bed.values(.transactions).count == 40_001, "a row was written twice or a blank row left")
        #expect(try bed.storeRecords(.transactions) == sheet)
        let counters = bed.emulator.counters
        print(
            "40,000-row first push: \(String(format: "%.1f", seconds)) s, \(counters.totalRequests) requests "
                + "(\(bodies.count) batchUpdate, \(counters.requestBytes) bytes sent)")
        // The next run has nothing to do.
        bed.emulator.resetCounters()
        #expect(try await bed.cli("sync").status == 0)
        #expect(Self.batchUpdateBodies(bed).isEmpty)
        await bed.finish()
    }

    @Test func aWriteInterruptedBetweenRequestsLeavesWholeRowsAndTheNextRunConverges() async throws {
        let bed = try await Self.emptyLedger("g-limits-chunks", maxRequestBytes: 65_536)
        let keys = try GoogleSeed.storeTransactions(bed, count: 900, ids: SeededIDs(seed: 41))
        bed.emulator.resetCounters()
        // The third write request is refused with a wait beyond the retry budget: the run stops there.
        bed.emulator.injectFault(.status(429, retryAfter: 3600), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 3))
        let stopped = try await bed.cli("sync")
        #expect(stopped.status == 75, "\(stopped.stderr)")
        let bodies = Self.batchUpdateBodies(bed)
        #expect(bodies.count == 3 && bodies.allSatisfy { $0 <= 65_536 }, "\(bodies)")
        // Two requests landed: every row in the sheet is whole and equal to the store's; none is half written.
        let partial = try bed.sheetRecords(.transactions)
        let store = try bed.storeRecords(.transactions)
        #expect(!partial.isEmpty && partial.count < 900)
        #expect(try bed.values(.transactions).count == partial.count + 1)
        for (key, record) in partial { #expect(store[key] == record) }
        // The store recorded nothing as synced: its base holds no transaction yet.
        #expect(try bed.store().snapshot().base[.transactions]?.isEmpty ?? true)
        bed.emulator.clearFaults()
        let next = try await bed.cli("sync")
        #expect(next.status == 0, "\(next.stderr)")
        let sheet = try bed.sheetRecords(.transactions)
        #expect(sheet.count == 900 && Set(sheet.keys) == Set(keys))
        #expect(try bed.values(.transactions).count == 901)
        #expect(try bed.storeRecords(.transactions) == sheet)
        await bed.finish()
    }

    @Test func twentyFiveHundredRowsGoIntoAMissingTabSizedForThem() async throws {
        let bed = try await Self.emptyLedger("g-limits-missing-tab", tabs: Tab.allCases.filter { $0 != .transactions })
        try GoogleSeed.storeTransactions(bed, count: 2_500, ids: SeededIDs(seed: 42))
        let push = try await bed.cli("sync")
        #expect(push.status == 0, "\(push.stderr)")
        let grid = try bed.emulator.gridSize(spreadsheetId: try bed.spreadsheetId(), tab: "Transactions")
        #expect(grid.rows >= 2_501)
        let sheet = try bed.sheetRecords(.transactions)
        #expect(sheet.count == 2_500)
        #expect(try bed.storeRecords(.transactions) == sheet)
        await bed.finish()
    }

    @Test func aValueOverFiftyThousandCharactersHoldsItsRowBackAndEveryOtherRowIsWritten() async throws {
        let bed = try await Self.emptyLedger("g-limits-cell")
        let long = String(repeating: "long ", count: 10_001)
        let keys = try GoogleSeed.storeTransactions(bed, count: 5, ids: SeededIDs(seed: 43)) { $0 == 2 ? long : "n\($0)" }
        let push = try await bed.cli("sync", "--json")
        #expect(push.status == 65, "\(push.stderr)")
        let rejected = try #require(try Self.decode(push.stdout)["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1)
        #expect(rejected.first?["tab"] as? String == "Transactions" && rejected.first?["id"] as? String == keys[2])
        #expect(rejected.first?["code"] as? String == "overlong-value", "\(rejected)")
        #expect((rejected.first?["message"] as? String)?.contains("note is 50005 characters") == true, "\(rejected)")
        var sheet = try bed.sheetRecords(.transactions)
        #expect(Set(sheet.keys) == Set(keys).subtracting([keys[2]]))
        #expect(try bed.storeRecords(.transactions)[keys[2]]?[.note] == long)
        // Still too long: listed, not a new failure.
        let again = try await bed.cli("sync")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try bed.storeRecords(.transactions)[keys[2]]?[.note] == long)
        try GoogleSeed.sql(bed, "UPDATE transactions SET note = 'short now' WHERE transactionId = ?", [keys[2]])
        let fixed = try await bed.cli("sync", "--json")
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect((try Self.decode(fixed.stdout)["rejected"] as? [Any])?.isEmpty ?? true)
        sheet = try bed.sheetRecords(.transactions)
        #expect(sheet[keys[2]]?[.note] == "short now")
        #expect(try bed.storeRecords(.transactions) == sheet)
        await bed.finish()
    }

    @Test func aPushPastTenMillionCellsStopsBeforeSendingAnythingAndNamesTheNumbers() async throws {
        let bed = try await GoogleTestBed.start("g-limits-10m")
        try GoogleSeed.ledger(in: bed, transactions: 0, ids: SeededIDs(seed: 44))
        // Another tab of the spreadsheet takes most of the 10 million cells.
        #expect(try await bed.cli("sync").status == 0)
        try bed.emulator.addTab(spreadsheetId: try bed.spreadsheetId(), title: "Archive", rowCount: 375_000, columnCount: 26)
        try GoogleSeed.storeTransactions(bed, count: 6_000, ids: SeededIDs(seed: 45))
        bed.emulator.resetCounters()
        let refused = try await bed.cli("sync")
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("tab 'Transactions' needs 156,000 more cells"), "\(refused.stderr)")
        #expect(refused.stderr.contains("10,000,000"))
        #expect(Self.batchUpdateBodies(bed).isEmpty)
        #expect(try bed.sheetRecords(.transactions).isEmpty)
        #expect(try bed.storeRecords(.transactions).count == 6_000)
        await bed.finish()
    }

    @Test(arguments: [(400, "sheets.spreadsheets.batchUpdate", Int32(65)), (404, "sheets.spreadsheets.values.batchGet", Int32(78))])
    func aPermanentRefusalIsNeverTemporary(status: Int, endpoint: String, exit: Int32) async throws {
        let bed = try await Self.emptyLedger("g-limits-permanent")
        let keys = try GoogleSeed.storeTransactions(bed, count: 3, ids: SeededIDs(seed: 46))
        bed.emulator.resetCounters()
        bed.emulator.injectFault(.status(status), at: .endpoint(endpoint, occurrence: 1))
        let refused = try await bed.cli("sync")
        #expect(refused.status == exit, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(status)"), "google's answer is quoted: \(refused.stderr)")
        #expect(try bed.sheetRecords(.transactions).isEmpty)
        #expect(Set(try bed.storeRecords(.transactions).keys) == Set(keys))
        #expect(try await bed.cli("sync").status == 0)
        #expect(Set(try bed.sheetRecords(.transactions).keys) == Set(keys))
        await bed.finish()
    }

    @Test func errorTextThatEchoesTheRequestIsScrubbedOfEverySecret() async throws {
        let bed = try await Self.emptyLedger("g-limits-echo")
        try GoogleSeed.storeTransactions(bed, count: 2, ids: SeededIDs(seed: 47))
        var output = ""
        for endpoint in ["oauth2.token", "sheets.spreadsheets.batchUpdate"] {
            bed.emulator.resetCounters()
            bed.emulator.injectFault(.echoRequest, at: .endpoint(endpoint, occurrence: 1))
            let run = try await bed.cli("sync", "--json", "--verbose")
            #expect(run.status != 0 && run.status != 75, "\(run.stderr)")
            let echoed = try #require(bed.emulator.requestLog.first { $0.endpoint == endpoint })
            #expect(echoed.status == 400)
            output += run.stdout + run.stderr
        }
        #expect(output.contains("Invalid request"), "the server's text is still quoted: \(output)")
        for secret in ["ya29.", "eyJ", "assertion=ey", "PRIVATE KEY"] { #expect(!output.contains(secret), "'\(secret)' echoed") }
        // The grant type `urn:ietf:params:oauth:grant-type:jwt-bearer` names no secret.
        let bearers = GoogleSecretsTests.bearerValues(in: output.replacingOccurrences(of: "jwt-bearer", with: ""))
        #expect(bearers.isEmpty, "\(bearers)")
        await bed.finish()
    }
}
