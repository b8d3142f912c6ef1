import Foundation
import Interchange
import SheetsEmulator
import Testing

/// The emulator refuses what Google refuses, with Google's status and message: payload size,
/// grid bounds, cell size, spreadsheet size, service-account storage; and answers as Google answers.
@Suite struct EmulatorLimitsTests {
    static func message(_ response: RawResponse) throws -> String? { try response.json()["error"]?["message"]?.stringValue }

    @Test func aBodyOverTenMebibytesIsRefusedWithGooglesMessage() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": []])
        let note = String(repeating: "x", count: 40_000)
        let rows = Array(repeating: #"{"values":[{"userEnteredValue":{"stringValue":"\#(note)"}}]}"#, count: 270).joined(separator: ",")
        let body =
            #"{"requests":[{"updateCells":{"start":{"sheetId":0,"rowIndex":0,"columnIndex":0},"rows":[\#(rows)],"fields":"userEnteredValue"}}]}"#
        #expect(body.utf8.count > 10_485_760)
        let refused = try await h.post("/v4/spreadsheets/\(id):batchUpdate", json: body)
        #expect(refused.status == 400)
        #expect(try refused.json()["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
        #expect(try Self.message(refused) == "Request payload size exceeds the limit: 10485760 bytes.")
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "T").isEmpty)
        await h.stop()
    }

    @Test func writesPastTheGridAreRefusedOnEveryPathAndOnlyAppendsGrowIt() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["Transactions": [["id"]]])
        let added = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate", json: #"{"requests":[{"addSheet":{"properties":{"title":"New"}}}]}"#)
        #expect(added.status == 200)
        #expect(try h.emulator.gridSize(spreadsheetId: id, tab: "New") == (1000, 26))
        let cells = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json:
                #"{"requests":[{"updateCells":{"start":{"sheetId":0,"rowIndex":1000,"columnIndex":0},"rows":[{"values":[{"userEnteredValue":{"stringValue":"x"}}]}],"fields":"userEnteredValue"}}]}"#
        )
        #expect(cells.status == 400)
        #expect(
            try Self.message(cells)?.contains("Range ('Transactions'!A1001) exceeds grid limits. Max rows: 1000, max columns: 26") == true)
        let values = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: #"{"valueInputOption":"RAW","data":[{"range":"Transactions!A1001","values":[["x"]]}]}"#)
        #expect(values.status == 400)
        #expect(try Self.message(values)?.contains("exceeds grid limits. Max rows: 1000, max columns: 26") == true)
        #expect(try h.emulator.gridSize(spreadsheetId: id, tab: "Transactions") == (1000, 26))
        let grown = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json:
                #"{"requests":[{"appendDimension":{"sheetId":0,"dimension":"ROWS","length":5}},{"updateCells":{"start":{"sheetId":0,"rowIndex":1000,"columnIndex":0},"rows":[{"values":[{"userEnteredValue":{"stringValue":"x"}}]}],"fields":"userEnteredValue"}}]}"#
        )
        #expect(grown.status == 200)
        #expect(try h.emulator.gridSize(spreadsheetId: id, tab: "Transactions") == (1005, 26))
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "Transactions").last == [.string("x")])
        await h.stop()
    }

    @Test func valuesAppendWritesAfterTheLastRowWithDataAndGrowsTheGrid() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["h"], ["a"], ["b"]]])
        let appended = try await h.post(
            "/v4/spreadsheets/\(id)/values/T!A1:append", [("valueInputOption", "RAW")], json: #"{"values":[["c"],["d"]]}"#)
        #expect(appended.status == 200)
        #expect(
            try h.emulator.rows(spreadsheetId: id, tab: "T") == [
                [.string("h")], [.string("a")], [.string("b")], [.string("c")], [.string("d")],
            ])
        await h.stop()
    }

    @Test func aCellOverFiftyThousandCharactersIsRefusedAndTheBatchChangesNothing() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": []])
        let long = String(repeating: "é", count: 50_001)
        let refused = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json:
                #"{"requests":[{"updateCells":{"start":{"sheetId":0,"rowIndex":0,"columnIndex":0},"rows":[{"values":[{"userEnteredValue":{"stringValue":"ok"}}]},{"values":[{"userEnteredValue":{"stringValue":"\#(long)"}}]}],"fields":"userEnteredValue"}}]}"#
        )
        #expect(refused.status == 400)
        #expect(
            try Self.message(refused)?.contains("Your input contains more than the maximum of 50000 characters in a single cell.") == true)
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "T").isEmpty)
        let values = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: #"{"valueInputOption":"RAW","data":[{"range":"T!A1","values":[["\#(long)"]]}]}"#)
        #expect(values.status == 400)
        let fits = String(repeating: "é", count: 50_000)
        let accepted = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate",
            json: #"{"valueInputOption":"RAW","data":[{"range":"T!A1","values":[["\#(fits)"]]}]}"#)
        #expect(accepted.status == 200)
        await h.stop()
    }

    @Test func growingASpreadsheetPastTenMillionCellsIsRefused() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.emulator.createSpreadsheet(title: "Big", tabs: [EmulatedTab(name: "Big", rowCount: 384_000, columnCount: 26)])
        let refused = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate",
            json: #"{"requests":[{"appendDimension":{"sheetId":0,"dimension":"ROWS","length":1000}}]}"#)
        #expect(refused.status == 400)
        #expect(try Self.message(refused)?.contains("above the limit of 10000000 cells") == true)
        let added = try await h.post(
            "/v4/spreadsheets/\(id):batchUpdate", json: #"{"requests":[{"addSheet":{"properties":{"title":"More"}}}]}"#)
        #expect(added.status == 400)
        #expect(try h.emulator.tabNames(spreadsheetId: id) == ["Big"])
        #expect(try h.emulator.gridSize(spreadsheetId: id, tab: "Big") == (384_000, 26))
        await h.stop()
    }

    @Test func aRangedGetAnswersWithTheNamedTabsOnly() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["A": [["1"]], "B": [["2"]], "C": [["3"]]])
        let ranged = try await h.get("/v4/spreadsheets/\(id)", [("ranges", "B!A1"), ("fields", "sheets.properties.title")])
        #expect(try ranged.json()["sheets"]?.arrayValue?.compactMap { $0["properties"]?["title"]?.stringValue } == ["B"])
        let whole = try await h.get("/v4/spreadsheets/\(id)", [("fields", "sheets.properties.title")])
        #expect(try whole.json()["sheets"]?.arrayValue?.count == 3)
        await h.stop()
    }

    @Test func prettyPrintFalseAnswersCompactJSON() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["A": [["1"]]])
        let pretty = try await h.get("/v4/spreadsheets/\(id)")
        let compact = try await h.get("/v4/spreadsheets/\(id)", [("prettyPrint", "false")])
        #expect(pretty.text.contains("\n"))
        #expect(!compact.text.contains("\n"))
        #expect(try compact.json() == pretty.json())
        await h.stop()
    }

    @Test func serviceAccountsAreRefusedStorageWhenSwitchedOnButMayMakeFolders() async throws {
        let h = try await EmulatorHarness.start()
        let account = try h.emulator.makeServiceAccount()
        let token = h.emulator.issueAccessToken(subject: account.email)
        let auth = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
        h.emulator.refuseServiceAccountStorage()
        let sheet = try await h.client.send("POST", "/v4/spreadsheets", headers: auth, body: Data(#"{"properties":{"title":"x"}}"#.utf8))
        #expect(sheet.status == 403)
        #expect(try sheet.json()["error"]?["status"]?.stringValue == "PERMISSION_DENIED")
        let file = try await h.client.send(
            "POST", "/drive/v3/files", headers: auth, body: Data(#"{"name":"x.jpg","mimeType":"image/jpeg"}"#.utf8))
        #expect(file.status == 403)
        #expect(try file.json()["error"]?["errors"]?.arrayValue?.first?["reason"]?.stringValue == "storageQuotaExceeded")
        let folder = try await h.client.send(
            "POST", "/drive/v3/files", headers: auth, body: Data(#"{"name":"F","mimeType":"application/vnd.google-apps.folder"}"#.utf8))
        #expect(folder.status == 200)
        h.emulator.refuseServiceAccountStorage(false)
        let allowed = try await h.client.send("POST", "/v4/spreadsheets", headers: auth, body: Data(#"{"properties":{"title":"x"}}"#.utf8))
        #expect(allowed.status == 200)
        await h.stop()
    }
}
