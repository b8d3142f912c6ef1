import Foundation
import Interchange
import SheetsEmulator
import Testing

@Suite struct EmulatorValuesTests {
    @Test func batchGetOmitsTrailingEmptyCellsAndRows() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": [["a", "b", "", ""], ["", "", "", ""], ["c", "", "d", ""], ["", "", "", ""]]])
        let response = try await h.get("/v4/spreadsheets/\(id)/values:batchGet", [("ranges", "Transactions!A1:D")])
        let range = try response.json()["valueRanges"]?.arrayValue?.first
        #expect(range?["range"] == "Transactions!A1:D1000")
        #expect(range?["values"] == [["a", "b"], [], ["c", "", "d"]])
        await h.stop()
    }

    @Test func anEmptyTabAnswersWithoutValues() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Receipts": []])
        let response = try await h.get("/v4/spreadsheets/\(id)/values/Receipts")
        #expect(try response.json()["values"] == nil)
        #expect(try response.json()["range"] == "Receipts!A1:Z1000")
        await h.stop()
    }

    @Test func personTypedDateComesBackAsASerialOrAsItsText() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": [["date", "amount"]]])
        try h.emulator.typeCell(spreadsheetId: id, tab: "Transactions", at: "A2", text: "2026-01-15")
        try h.emulator.typeCell(spreadsheetId: id, tab: "Transactions", at: "B2", text: "12.50")
        let unformatted = try await h.get("/v4/spreadsheets/\(id)/values/Transactions!A2:B2", [("valueRenderOption", "UNFORMATTED_VALUE")])
        let formatted = try await h.get("/v4/spreadsheets/\(id)/values/Transactions!A2:B2", [("valueRenderOption", "FORMATTED_VALUE")])
        let dateText = try await h.get(
            "/v4/spreadsheets/\(id)/values/Transactions!A2:B2",
            [
                ("valueRenderOption", "UNFORMATTED_VALUE"), ("dateTimeRenderOption", "FORMATTED_STRING"),
            ])
        #expect(unformatted.text.contains("46037,"))
        #expect(try unformatted.json()["values"] == [[46037, .number("12.5")]])
        #expect(try formatted.json()["values"] == [["2026-01-15", "12.5"]])
        #expect(try dateText.json()["values"] == [["2026-01-15", .number("12.5")]])
        #expect(try h.emulator.cell(spreadsheetId: id, tab: "Transactions", at: "A2").numberFormat?.type == "DATE")
        await h.stop()
    }

    @Test func rawNumbersKeepTheirDecimalsAndStringsStayText() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": []])
        let write = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: """
                {"valueInputOption":"RAW","data":[{"range":"Transactions!A1","values":[[12.5,1234.5,"=HYPERLINK(\\"x\\")","12.50",true]]}]}
                """)
        let read = try await h.get("/v4/spreadsheets/\(id)/values/Transactions", [("valueRenderOption", "UNFORMATTED_VALUE")])
        #expect(write.status == 200)
        #expect(read.text.contains("12.5,") && read.text.contains("1234.5,"))
        #expect(
            try h.emulator.rows(spreadsheetId: id, tab: "Transactions") == [
                [
                    .number(12.5), .number(1234.5), .string("=HYPERLINK(\"x\")"), .string("12.50"), .bool(true),
                ]
            ])
        await h.stop()
    }

    @Test func userEnteredParsesTextLikeAPerson() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": []])
        _ = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: """
                {"valueInputOption":"USER_ENTERED","data":[{"range":"Transactions!A1","values":[["1/15/2026","12.50","TRUE","groceries","1,234.5"]]}]}
                """)
        let rows = try h.emulator.rows(spreadsheetId: id, tab: "Transactions")
        #expect(rows == [[.number(46037), .number(12.5), .bool(true), .string("groceries"), .number(1234.5)]])
        await h.stop()
    }

    @Test func writingBeyondTheGridFailsLikeSheets() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": []])
        let response = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: """
                {"valueInputOption":"RAW","data":[{"range":"Transactions!A1000","values":[["last"],["beyond"]]}]}
                """)
        #expect(response.status == 400)
        #expect(
            try response.json()["error"]?["message"]?.stringValue?.contains("exceeds grid limits. Max rows: 1000, max columns: 26") == true)
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "Transactions").isEmpty)
        await h.stop()
    }

    @Test func quotedTabNamesWholeColumnsAndOpenRangesResolve() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Bob's Tab": [["h1", "h2", "h3"], ["1", "2", "3"]]])
        let response = try await h.get(
            "/v4/spreadsheets/\(id)/values:batchGet",
            [
                ("ranges", "'Bob''s Tab'!B:C"), ("ranges", "'Bob''s Tab'!A2:B"), ("ranges", "'Bob''s Tab'"),
                ("valueRenderOption", "UNFORMATTED_VALUE"),
            ])
        let ranges = try response.json()["valueRanges"]?.arrayValue ?? []
        #expect(ranges.map { $0["range"] } == ["'Bob''s Tab'!B1:C1000", "'Bob''s Tab'!A2:B1000", "'Bob''s Tab'!A1:Z1000"])
        #expect(ranges.first?["values"] == [["h2", "h3"], [2, 3]])
        #expect(ranges.dropFirst().first?["values"] == [[1, 2]])
        await h.stop()
    }

    @Test func appendWritesBelowTheTableAndGrowsTheGrid() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.emulator.createSpreadsheet(title: "x", tabs: [EmulatedTab(name: "Ledger", typed: [["a"], ["b"]], rowCount: 2)])
        let response = try await h.post(
            "/v4/spreadsheets/\(id)/values/Ledger!A:B:append", [("valueInputOption", "RAW")], json: #"{"values":[["c",1]]}"#)
        #expect(try response.json()["tableRange"] == "Ledger!A1:B2")
        #expect(try response.json()["updates"]?["updatedRange"] == "Ledger!A3:B3")
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "Ledger") == [[.string("a")], [.string("b")], [.string("c"), .number(1)]])
        await h.stop()
    }

    @Test func columnsMajorDimensionTransposesTheAnswer() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["a", "b"], ["c"]]])
        let response = try await h.get("/v4/spreadsheets/\(id)/values/T!A1:B2", [("majorDimension", "COLUMNS")])
        #expect(try response.json()["values"] == [["a", "c"], ["b"]])
        await h.stop()
    }

    @Test func everyWriteIncrementsTheDriveVersion() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": []])
        let before = h.emulator.version(of: id) ?? 0
        _ = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate", json: #"{"valueInputOption":"RAW","data":[{"range":"T!A1","values":[[1]]}]}"#)
        try h.emulator.typeCell(spreadsheetId: id, tab: "T", at: "B1", text: "x")
        let file = try await h.get("/drive/v3/files/\(id)", [("fields", "version,modifiedTime")])
        #expect(h.emulator.version(of: id) == before + 2)
        #expect(try file.json()["version"] == .string(String(before + 2)))
        await h.stop()
    }

    @Test func theServerAnswersWhileBlockingClientsHoldEveryPoolThread() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["x"]]])
        // More blocking calls than cooperative threads, made straight from async tasks.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask { try h.client.exchange("GET", "/v4/spreadsheets/\(id)", headers: h.auth, body: Data()).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 6))
        await h.stop()
    }
}
