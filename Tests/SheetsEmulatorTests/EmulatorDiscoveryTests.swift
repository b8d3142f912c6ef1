import Foundation
import Interchange
import SheetsEmulator
import Testing

@Suite struct EmulatorDiscoveryTests {
    @Test func validRequestsPassTheDiscoveryCheck() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": [["date", "amount"]]])
        let read = try await h.get(
            "/v4/spreadsheets/\(id)/values:batchGet",
            [
                ("ranges", "Transactions!A1:B"), ("ranges", "'Transactions'!A:A"), ("valueRenderOption", "UNFORMATTED_VALUE"),
                ("dateTimeRenderOption", "SERIAL_NUMBER"), ("majorDimension", "ROWS"), ("fields", "valueRanges(range,values)"),
            ])
        let write = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: """
                {"valueInputOption":"RAW","data":[{"range":"Transactions!A2:B2","majorDimension":"ROWS","values":[[46037,12.5]]}]}
                """)
        let structure = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json: """
                {"requests":[{"insertDimension":{"range":{"sheetId":0,"dimension":"ROWS","startIndex":1,"endIndex":2},
                "inheritFromBefore":true}}]}
                """)
        #expect(read.status == 200)
        #expect(write.status == 200)
        #expect(structure.status == 200)
        #expect(h.emulator.violations.isEmpty)
        await h.stop()
    }

    @Test func nestedFieldMasksSelectOnlyTheNamedMembers() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": [["x"]]])
        let response = try await h.get(
            "/v4/spreadsheets/\(id)",
            [
                ("fields", "spreadsheetId,properties.title,sheets.properties(sheetId,title,index,gridProperties)")
            ])
        let json = try response.json()
        #expect(json["properties"] == ["title": "Expenses"])
        #expect(
            json["sheets"] == [
                [
                    "properties": [
                        "sheetId": 0, "title": "Transactions", "index": 0, "gridProperties": ["rowCount": 1000, "columnCount": 26],
                    ]
                ]
            ])
        #expect(h.emulator.violations.isEmpty)
        await h.stop()
    }

    @Test func unknownQueryParameterIsRejectedAndRecorded() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": []])
        let response = try await h.get("/v4/spreadsheets/\(id)/values:batchGet", [("ranges", "Transactions"), ("renderOption", "FORMULA")])
        #expect(response.status == 400)
        #expect(try response.json()["error"]?["message"]?.stringValue?.contains("Unknown name \"renderOption\"") == true)
        #expect(h.emulator.violations.map(\.endpoint) == ["sheets.spreadsheets.values.batchGet"])
        await h.stop()
    }

    @Test func unknownBodyFieldIsRejectedWithItsPath() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": []])
        let response = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: """
                {"valueInputOption":"RAW","data":[{"range":"Transactions!A1","values":[[1]],"valueInputOption":"RAW"}]}
                """)
        #expect(response.status == 400)
        #expect(h.emulator.violations.count == 1)
        #expect(h.emulator.violations.first?.message.contains("Unknown name \"valueInputOption\" at 'data[0]'") == true)
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "Transactions").isEmpty)
        await h.stop()
    }

    @Test func wrongEnumValueInQueryOrBodyIsRejected() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": []])
        let query = try await h.get("/v4/spreadsheets/\(id)/values:batchGet", [("ranges", "Transactions"), ("valueRenderOption", "RAW")])
        let body = try await h.post("/v4/spreadsheets/\(id)/values:batchUpdate", json: #"{"valueInputOption":"TYPED","data":[]}"#)
        #expect(query.status == 400)
        #expect(body.status == 400)
        #expect(h.emulator.violations.count == 2)
        #expect(h.emulator.violations.allSatisfy { $0.message.contains("TYPE_ENUM") })
        await h.stop()
    }

    @Test func pathOutsideTheDiscoveryDocumentsIsAViolation() async throws {
        let h = try await EmulatorHarness.start()
        let response = try await h.get("/v4/spreadsheets/abc/values:batchFetch")
        #expect(response.status == 404)
        #expect(h.emulator.violations.count == 1)
        await h.stop()
    }

    @Test func uploadPathsFromMediaUploadAreKnownAndNeedUploadType() async throws {
        let h = try await EmulatorHarness.start()
        let response = try await h.client.send("POST", "/upload/drive/v3/files", headers: h.auth, body: Data("x".utf8))
        #expect(response.status == 400)
        #expect(h.emulator.violations.first?.endpoint == "drive.files.create")
        await h.stop()
    }

    @Test func requestsWithoutAValidTokenGetGoogles401() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": []])
        let response = try await h.client.send("GET", "/v4/spreadsheets/\(id)", headers: [("Authorization", "Bearer nope")])
        #expect(response.status == 401)
        #expect(try response.json()["error"]?["status"]?.stringValue == "UNAUTHENTICATED")
        #expect(response.headers["www-authenticate"] != nil)
        await h.stop()
    }
}
