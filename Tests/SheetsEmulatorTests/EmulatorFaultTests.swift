import Foundation
import Interchange
import SheetsEmulator
import Testing

@Suite struct EmulatorFaultTests {
    @Test func faultAtRequestNReturnsItsStatusWithRetryAfter() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": []])
        h.emulator.resetCounters()
        h.emulator.injectFault(.status(429, retryAfter: 7), atRequest: 2)
        let first = try await h.get("/v4/spreadsheets/\(id)")
        let second = try await h.get("/v4/spreadsheets/\(id)")
        let third = try await h.get("/v4/spreadsheets/\(id)")
        #expect([first.status, second.status, third.status] as [Int] == [200, 429, 200])
        #expect(second.headers["retry-after"] == "7")
        #expect(try second.json()["error"]?["status"] == "RESOURCE_EXHAUSTED")
        await h.stop()
    }

    @Test func faultAfterTheEffectAppliesTheWriteButLosesTheAnswer() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": []])
        h.emulator.injectFault(.status(503), at: .endpoint("sheets.spreadsheets.values.batchUpdate", occurrence: 1), phase: .afterEffect)
        let write = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate", json: #"{"valueInputOption":"RAW","data":[{"range":"T!A1","values":[["x"]]}]}"#)
        #expect(write.status == 503)
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "T") == [[.string("x")]])
        await h.stop()
    }

    @Test func faultBeforeTheEffectChangesNothing() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": []])
        h.emulator.resetCounters()
        h.emulator.injectFault(.rateLimitExceeded, atRequest: 1)
        let write = try await h.post(
            "/v4/spreadsheets/\(id)/values:batchUpdate", json: #"{"valueInputOption":"RAW","data":[{"range":"T!A1","values":[["x"]]}]}"#)
        #expect(write.status == 403)
        #expect(try write.json()["error"]?["errors"]?.arrayValue?.first?["reason"] == "rateLimitExceeded")
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "T").isEmpty)
        await h.stop()
    }

    @Test func truncatedAndResetAnswersBreakTheConnection() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["x"]]])
        h.emulator.resetCounters()
        h.emulator.injectFault(.truncateBody(keepingBytes: 20), atRequest: 1)
        h.emulator.injectFault(.resetConnection, atRequest: 2)
        let truncated = try await h.get("/v4/spreadsheets/\(id)")
        #expect(truncated.truncated)
        #expect(truncated.body.count == 20)
        await #expect(throws: RawHTTPError.noResponse(reset: true)) { try await h.get("/v4/spreadsheets/\(id)") }
        #expect(h.emulator.requestLog.map(\.status) == [200, nil])
        await h.stop()
    }

    @Test func countersCountRequestsPerEndpointAndBytes() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["x"]]])
        h.emulator.resetCounters()
        let json = #"{"valueInputOption":"RAW","data":[{"range":"T!A2","values":[["y"]]}]}"#
        let read = try await h.get("/v4/spreadsheets/\(id)/values:batchGet", [("ranges", "T")])
        _ = try await h.get("/v4/spreadsheets/\(id)/values:batchGet", [("ranges", "T")])
        let write = try await h.post("/v4/spreadsheets/\(id)/values:batchUpdate", json: json)
        let counters = h.emulator.counters
        #expect(counters.totalRequests == 3)
        #expect(counters.requests("sheets.spreadsheets.values.batchGet") == 2)
        #expect(counters.requests("sheets.spreadsheets.values.batchUpdate") == 1)
        #expect(counters.requestBytes == json.utf8.count)
        #expect(counters.responseBytes == 2 * read.body.count + write.body.count)
        let log = h.emulator.requestLog
        #expect(log.map(\.number) == [1, 2, 3])
        #expect(log.first?.queryValues("ranges") == ["T"])
        #expect(log.last?.bodyText == json)
        await h.stop()
    }
}
