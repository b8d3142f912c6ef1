import Foundation
import Interchange
import SheetsEmulator
import Testing

@Suite struct EmulatorMetadataTests {
    /// Tags rows 2…4 of `T` (keys k1…k3) with ROW metadata through the API.
    private func tagRows(_ h: EmulatorHarness, _ id: String) async throws {
        let requests = (1...3).map { i in
            """
            {"createDeveloperMetadata":{"developerMetadata":{"metadataKey":"rowKey","metadataValue":"k\(i)","visibility":"DOCUMENT",
            "location":{"dimensionRange":{"sheetId":0,"dimension":"ROWS","startIndex":\(i),"endIndex":\(i + 1)}}}}}
            """
        }
        let response = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate", json: #"{"requests":["# + requests.joined(separator: ",") + "]}")
        #expect(response.status == 200)
    }

    private func rowOf(_ key: String, _ h: EmulatorHarness, _ id: String) throws -> Int? {
        try h.emulator.developerMetadata(spreadsheetId: id).first { $0.value == key }?.index
    }

    @Test func developerMetadataFollowsItsRowThroughInsertDeleteAndSort() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["key", "amount"], ["k1", "30"], ["k2", "10"], ["k3", "20"]]])
        try await tagRows(h, id)
        try h.emulator.insertRow(spreadsheetId: id, tab: "T", at: 1, typed: ["k0", "5"])
        #expect(try [rowOf("k1", h, id), rowOf("k2", h, id), rowOf("k3", h, id)] == [2, 3, 4])
        try h.emulator.deleteRow(spreadsheetId: id, tab: "T", at: 2)
        #expect(try rowOf("k1", h, id) == nil)
        #expect(try [rowOf("k2", h, id), rowOf("k3", h, id)] == [2, 3])
        try h.emulator.sortTab(spreadsheetId: id, tab: "T", byColumn: 1, ascending: false)
        #expect(
            try h.emulator.rows(spreadsheetId: id, tab: "T").map { $0.first } == [
                .string("key"), .string("k3"), .string("k2"), .string("k0"),
            ])
        #expect(try [rowOf("k3", h, id), rowOf("k2", h, id)] == [1, 2])
        await h.stop()
    }

    @Test func searchFindsRowMetadataAtItsCurrentPosition() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["key"], ["k1"], ["k2"], ["k3"]]])
        try await tagRows(h, id)
        try h.emulator.sortTab(spreadsheetId: id, tab: "T", byColumn: 0, ascending: false)
        let response = try await h.post(
            "/v4/spreadsheets/\(id)/developerMetadata:search",
            json: """
                {"dataFilters":[{"developerMetadataLookup":{"metadataKey":"rowKey","metadataValue":"k1"}}]}
                """)
        let found = try response.json()["matchedDeveloperMetadata"]?.arrayValue?.first?["developerMetadata"]
        #expect(found?["location"]?["dimensionRange"]?["startIndex"] == 3)
        #expect(found?["location"]?["locationType"] == "ROW")
        await h.stop()
    }

    @Test func writesByDataFilterLandOnTheTaggedRowAfterASort() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["key", "note"], ["k1", "a"], ["k2", "b"], ["k3", "c"]]])
        try await tagRows(h, id)
        try h.emulator.sortTab(spreadsheetId: id, tab: "T", byColumn: 0, ascending: false)
        let response = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdateByDataFilter",
            json: """
                {"valueInputOption":"RAW","data":[{"dataFilter":{"developerMetadataLookup":{"metadataKey":"rowKey","metadataValue":"k1"}},
                "values":[["k1","edited"]]}]}
                """)
        #expect(response.status == 200)
        #expect(try response.json()["responses"]?.arrayValue?.first?["updatedRange"] == "'T'!A4:B4", "\(response.text)")
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "T").last == [.string("k1"), .string("edited")])
        await h.stop()
    }

    @Test func deleteDimensionAndDeleteMetadataRemoveEntries() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["key"], ["k1"], ["k2"], ["k3"]]])
        try await tagRows(h, id)
        let response = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json: """
                {"requests":[{"deleteDimension":{"range":{"sheetId":0,"dimension":"ROWS","startIndex":1,"endIndex":2}}},
                {"deleteDeveloperMetadata":{"dataFilter":{"developerMetadataLookup":{"metadataValue":"k3"}}}}]}
                """)
        let replies = try response.json()["replies"]?.arrayValue ?? []
        #expect(replies.last?["deleteDeveloperMetadata"]?["deletedDeveloperMetadata"]?.arrayValue?.count == 1)
        #expect(try h.emulator.developerMetadata(spreadsheetId: id).map(\.value) == ["k2"])
        #expect(try rowOf("k2", h, id) == 1)
        await h.stop()
    }

    @Test func aFailingRequestLeavesTheWholeBatchUnapplied() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["key"], ["k1"]]])
        let response = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json: """
                {"requests":[{"insertDimension":{"range":{"sheetId":0,"dimension":"ROWS","startIndex":1,"endIndex":2}}},
                {"deleteSheet":{"sheetId":12345}}]}
                """)
        #expect(response.status == 400)
        #expect(try response.json()["error"]?["message"]?.stringValue?.hasPrefix("Invalid requests[1].deleteSheet") == true)
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "T") == [[.string("key")], [.string("k1")]])
        await h.stop()
    }

    @Test func updateCellsWritesValuesAndNumberFormatsUnderTheMask() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["date"], ["old"]]])
        let response = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json: """
                {"requests":[{"updateCells":{"start":{"sheetId":0,"rowIndex":1,"columnIndex":0},"fields":"userEnteredValue,userEnteredFormat.numberFormat",
                "rows":[{"values":[{"userEnteredValue":{"numberValue":46037},"userEnteredFormat":{"numberFormat":{"type":"DATE","pattern":"yyyy-mm-dd"}}}]}]}},
                {"repeatCell":{"range":{"sheetId":0,"startRowIndex":2,"endRowIndex":3,"startColumnIndex":0,"endColumnIndex":1},
                "cell":{"userEnteredValue":{"stringValue":"r"}},"fields":"userEnteredValue"}}]}
                """)
        let formatted = try await h.get("/v4/spreadsheets/\(id)/values/T!A2:A3")
        #expect(response.status == 200)
        #expect(try formatted.json()["values"] == [["2026-01-15"], ["r"]])
        await h.stop()
    }

    @Test func getHonoursFieldsForSheetPropertiesAndMetadata() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["key"], ["k1"], ["k2"], ["k3"]]])
        try await tagRows(h, id)
        let response = try await h.get(
            "/v4/spreadsheets/\(id)", [("fields", "spreadsheetId,sheets(properties(sheetId,title),developerMetadata)")])
        let json = try response.json()
        #expect(json.objectValue?.keys == ["spreadsheetId", "sheets"])
        #expect(json["sheets"]?.arrayValue?.first?["properties"] == ["sheetId": 0, "title": "T"])
        #expect(json["sheets"]?.arrayValue?.first?["developerMetadata"]?.arrayValue?.count == 3)
        await h.stop()
    }
}
