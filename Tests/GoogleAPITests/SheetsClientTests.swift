import Foundation
import Interchange
import Testing

@testable import GoogleAPI

@Suite struct SheetsClientTests {
    func sheets(_ transport: ScriptedTransport) -> SheetsClient {
        SheetsClient(client: GoogleClient(transport: transport))
    }

    @Test func batchGetAsksForUnformattedSerialRowsWithEncodedRanges() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                [
                    "spreadsheetId": "sid",
                    "valueRanges": [
                        [
                            "range": "'My Tab'!A1:N3", "majorDimension": "ROWS",
                            "values": [["id", "amount"], [], ["x", .number("12.10")]],
                        ],
                        ["range": "Settings!A1:D1000", "majorDimension": "ROWS"],
                    ],
                ])
        ])
        let ranges = try await sheets(transport).batchGetValues(spreadsheetId: "s/id", ranges: ["'My Tab'!A1:N", "Settings!A:D"])
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(request.url.path(percentEncoded: true) == "/v4/spreadsheets/s%2Fid/values:batchGet")
        let query = Fixtures.query(request)
        #expect(query.map(\.0) == ["ranges", "ranges", "valueRenderOption", "dateTimeRenderOption", "majorDimension", "prettyPrint"])
        #expect(query.map(\.1) == ["'My Tab'!A1:N", "Settings!A:D", "UNFORMATTED_VALUE", "SERIAL_NUMBER", "ROWS", "false"])
        #expect(request.url.query(percentEncoded: true)?.hasPrefix("ranges=%27My%20Tab%27%21A1%3AN&") == true)

        #expect(ranges.count == 2)
        #expect(ranges[0].values.count == 3)
        #expect(ranges[0].cell(row: 2, column: 1) == .number("12.10"))
        #expect(ranges[0].cell(row: 1, column: 0) == nil)
        #expect(ranges[0].rectangularRows(width: 3)[1] == ["", "", ""])
        #expect(ranges[1].values.isEmpty)
    }

    @Test func batchGetWithTheWrongNumberOfRangesIsAnError() async throws {
        let transport = ScriptedTransport([.json(200, ["valueRanges": []])])
        await #expect(throws: GoogleAPIError.self) {
            _ = try await sheets(transport).batchGetValues(spreadsheetId: "sid", ranges: ["A!A1"])
        }
    }

    @Test func batchUpdateValuesSendsRawRowsWithExactNumbers() async throws {
        let transport = ScriptedTransport([
            .json(200, ["totalUpdatedCells": 4, "totalUpdatedRows": 2, "responses": [["updatedRange": "'T'!A2:B3"]]])
        ])
        let rows: [[JSONValue]] = [["=HYPERLINK(\"x\")", .number("0.1")], ["text", .number("45678")]]
        let result = try await sheets(transport).batchUpdateValues(spreadsheetId: "sid", data: [(range: "'T'!A2:B3", values: rows)])
        #expect(result.totalUpdatedCells == 4)
        #expect(result.updatedRanges == ["'T'!A2:B3"])
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.isIdempotent)
        #expect(request.url.absoluteString == "https://sheets.googleapis.com/v4/spreadsheets/sid/values:batchUpdate?prettyPrint=false")
        #expect(request.headers["Content-Type"] == "application/json; charset=UTF-8")
        let body = try JSONValue.parse(request.body)
        #expect(body["valueInputOption"] == "RAW")
        #expect(body["data"]?.arrayValue?.first?["values"] == .array(rows.map { .array($0) }))
        #expect(String(decoding: request.body, as: UTF8.self).contains(#"["=HYPERLINK(\"x\")",0.1]"#))
    }

    @Test func spreadsheetBatchUpdateReturnsRepliesAndIsNotIdempotent() async throws {
        let transport = ScriptedTransport([
            .json(200, ["spreadsheetId": "sid", "replies": [[:], ["addSheet": ["properties": ["sheetId": 7]]]]])
        ])
        let requests: [JSONValue] = [["deleteDimension": ["range": ["sheetId": 0, "dimension": "ROWS", "startIndex": 4, "endIndex": 5]]]]
        let replies = try await sheets(transport).batchUpdate(spreadsheetId: "sid", requests: requests)
        #expect(replies.count == 2)
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://sheets.googleapis.com/v4/spreadsheets/sid:batchUpdate?prettyPrint=false")
        #expect(!request.isIdempotent)
        #expect(try JSONValue.parse(request.body) == .object(["requests": .array(requests)]))
    }

    @Test func createMakesOneTabPerTitleAndReadsTheirIds() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                [
                    "spreadsheetId": "new-id", "properties": ["title": "ExpenseTracker"],
                    "sheets": [
                        [
                            "properties": [
                                "sheetId": 0, "title": "Transactions", "index": 0, "gridProperties": ["rowCount": 1000, "columnCount": 26],
                            ]
                        ],
                        ["properties": ["sheetId": 123, "title": "Settings", "index": 1]],
                    ],
                ])
        ])
        let info = try await sheets(transport).create(title: "ExpenseTracker", sheets: ["Transactions", "Settings"])
        #expect(info.spreadsheetId == "new-id")
        #expect(info.sheet(titled: "Settings")?.sheetId == 123)
        #expect(info.sheets.first?.rowCount == 1000)
        let body = try JSONValue.parse(try #require(transport.requests.first).body)
        #expect(
            body == [
                "properties": ["title": "ExpenseTracker"],
                "sheets": [["properties": ["title": "Transactions"]], ["properties": ["title": "Settings"]]],
            ])
    }

    @Test func getPassesTheFieldMask() async throws {
        let transport = ScriptedTransport([.json(200, ["spreadsheetId": "sid"])])
        _ = try await sheets(transport).get(spreadsheetId: "sid", fields: "sheets.properties(sheetId,title)")
        let request = try #require(transport.requests.first)
        #expect(Fixtures.query(request).map(\.1) == ["sheets.properties(sheetId,title)", "false"])
        #expect(request.url.path(percentEncoded: true) == "/v4/spreadsheets/sid")
    }
}
