import Foundation
import Interchange
import Testing

@testable import SheetsEmulator

/// The pure parts behind the HTTP surface: typed input, JSON numbers, state files.
@Suite struct EmulatorModelTests {
    @Test(
        arguments: [
            ("2026-01-15", EmulatedValue.number(46037), "DATE"),
            ("1/15/2026", .number(46037), "DATE"),
            ("12.50", .number(12.5), nil),
            ("1,234.5", .number(1234.5), nil),
            ("-3", .number(-3), nil),
            ("TRUE", .bool(true), nil),
            ("false", .bool(false), nil),
            ("'0012", .string("0012"), nil),
            ("=SUM(A1:A2)", .formula("=SUM(A1:A2)"), nil),
            ("2026-02-30", .string("2026-02-30"), nil),
            ("groceries", .string("groceries"), nil),
        ] as [(String, EmulatedValue, String?)])
    func userEnteredTextBecomesWhatSheetsStores(text: String, value: EmulatedValue, formatType: String?) {
        let cell = EmulatedCell.userEntered(text)
        #expect(cell.value == value)
        #expect(cell.numberFormat?.type == formatType)
    }

    @Test func typingANumberIntoADateCellKeepsTheDateFormat() {
        let cell = EmulatedCell.userEntered("46040", keeping: .isoDate)
        #expect(cell == EmulatedCell(.number(46040), numberFormat: .isoDate))
    }

    @Test func numbersSerializeInTheirShortestDecimalForm() {
        #expect(JSONValue.number(12.5).serializedString() == "12.5")
        #expect(JSONValue.number(1234.5).serializedString() == "1234.5")
        #expect(JSONValue.number(46037.0).serializedString() == "46037")
        #expect(JSONValue.number(0.1 + 0.2).serializedString() == "0.30000000000000004")
    }

    @Test func jsonParserKeepsNumberTextAndRejectsBrokenDocuments() throws {
        let parsed = try JSONValue.parse(#"{"a":[12.50,1e3,"\u00e9\n"],"b":null}"#)
        #expect(parsed["a"] == [.number("12.50"), .number("1e3"), .string("é\n")])
        #expect(parsed["b"] == .null)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":1,}"#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[01]") }
    }

    @Test func stateFileKeepsSpreadsheetsAcrossRestarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.json")
        let first = try SheetsEmulator(stateFile: file)
        let port = try await first.start()
        let client = RawHTTPClient(port: port)
        let token = first.issueAccessToken()
        let created = try await client.send(
            "POST", "/v4/spreadsheets", headers: [("Authorization", "Bearer \(token)")],
            body: Data(#"{"properties":{"title":"Kept"},"sheets":[{"properties":{"title":"T"}}]}"#.utf8))
        let id = try #require(try created.json()["spreadsheetId"]?.stringValue)
        _ = try await client.send(
            "POST", "/v4/spreadsheets/\(id)/values:batchUpdate", headers: [("Authorization", "Bearer \(token)")],
            body: Data(#"{"valueInputOption":"RAW","data":[{"range":"T!A1","values":[[12.5]]}]}"#.utf8))
        await first.stop()
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let second = try SheetsEmulator(stateFile: file)
        #expect(try second.rows(spreadsheetId: id, tab: "T") == [[.number(12.5)]])
        #expect(second.file(id: id)?.name == "Kept")
    }

    @Test func controlEndpointsDriveTheEmulatorFromAnotherProcess() async throws {
        let h = try await EmulatorHarness.start()
        let created = try await h.client.send(
            "POST", "/_emulator/spreadsheets",
            body: Data(#"{"title":"Demo","tabs":[{"name":"T","rows":[["date","amount"],["2026-01-15","12.50"]]}]}"#.utf8))
        let id = try #require(try created.json()["spreadsheetId"]?.stringValue)
        _ = try await h.client.send(
            "POST", "/_emulator/spreadsheets/\(id)/tabs/T/insert-row", body: Data(#"{"index":1,"typed":["2026-01-01","3"]}"#.utf8))
        _ = try await h.client.send("POST", "/_emulator/faults", body: Data(#"{"request":1,"status":500}"#.utf8))
        let failed = try await h.get("/v4/spreadsheets/\(id)")
        let rows = try await h.client.send("GET", "/_emulator/spreadsheets/\(id)/tabs/T")
        #expect(failed.status == 500)
        #expect(try rows.json()["rows"] == [["date", "amount"], [46023, 3], [46037, .number("12.5")]])
        #expect(h.emulator.counters.totalRequests == 1)
        await h.stop()
    }
}
