import Foundation
import Interchange
import Testing

@testable import SheetsEmulator

/// How the emulator reads JSON it is sent: Google's message for a broken body, and Google's
/// lenient reading of whole numbers in integer fields.
@Suite struct EmulatorJSONTests {
    @Test func aBrokenBodyIsRefusedWithGooglesPrefixAndTheByte() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["a"]]])
        let refused = try await h.post("/v4/spreadsheets/\(id):batchUpdate", json: #"{"requests":[}"#)
        #expect(refused.status == 400)
        let error = try refused.json()["error"]
        #expect(error?["status"]?.stringValue == "INVALID_ARGUMENT")
        #expect(error?["message"]?.stringValue == "Invalid JSON payload received. unexpected '}' at byte 13.")
        #expect(try h.emulator.rows(spreadsheetId: id, tab: "T") == [[.string("a")]])
        await h.stop()
    }

    @Test func wholeNumbersWithAFractionOrExponentReadAsIntegers() {
        #expect(JSONValue.number("3").integerValue == 3)
        #expect(JSONValue.number("3.0").integerValue == 3)
        #expect(JSONValue.number("1e3").integerValue == 1000)
        #expect(JSONValue.string("42").integerValue == 42)
        #expect(JSONValue.number("3.5").integerValue == nil)
        #expect(JSONValue.number("1e400").integerValue == nil)
        #expect(JSONValue.string("4.0").integerValue == nil)
    }

    @Test func numbersSentAsTextOrLiteralsReadAsDoubles() {
        #expect(JSONValue.number("12.50").doubleValue == 12.5)
        #expect(JSONValue.string("-3").doubleValue == -3)
        #expect(JSONValue.bool(true).doubleValue == nil)
    }
}
