import Interchange
import Testing

@Suite struct JSONValueTests {
    @Test func roundTripKeepsKeyOrderAndValues() throws {
        let text = #"{"b":1,"a":[true,false,null,"x"],"c":{"z":-0.5,"y":"é"}}"#
        let value = try JSONValue.parse(text)
        #expect(value.serializedString() == text)
        #expect(value["b"] == .number("1"))
        #expect(value["c"]?.objectValue?.keys == ["z", "y"])
    }

    @Test func bigAndPreciseNumbersStayExactText() throws {
        let text = #"[12345678901234567890123,0.1000000000000000055511151231257827,-12.10,1E+400,3e-7]"#
        let value = try JSONValue.parse(text)
        #expect(
            value.arrayValue?.map(\.numberText) == [
                "12345678901234567890123", "0.1000000000000000055511151231257827", "-12.10", "1E+400", "3e-7",
            ])
        #expect(value.serializedString() == text)
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let value = try JSONValue.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00\u0001""#)
        #expect(value == .string("a\"b\\c/d\n\té😀\u{01}"))
    }

    @Test func serializerEscapesControlCharactersAndQuotes() throws {
        let original = JSONValue.string("line1\nline2\t\"q\" \\ \u{01}\u{7F} 😀 =HYPERLINK(\"x\")")
        let text = original.serializedString()
        #expect(text == #""line1\nline2\t\"q\" \\ \u0001\u007f 😀 =HYPERLINK(\"x\")""#)
        #expect(try JSONValue.parse(text) == original)
    }

    @Test(arguments: [3, 15, 16, 17, 40])
    func objectsOfAnySizeFindReplaceAndRemoveTheirMembers(_ size: Int) {
        var object = JSONObject((0..<size).map { ("k\($0)", JSONValue.integer($0)) })
        #expect(object.count == size)
        #expect((0..<size).allSatisfy { object["k\($0)"] == .integer($0) })
        #expect(object["missing"] == nil)
        object["k0"] = "replaced"
        #expect(object.keys.first == "k0" && object["k0"] == "replaced")
        object["k1"] = nil
        object["added"] = true
        #expect(object.count == size)
        #expect(object["k1"] == nil && object["added"] == true && object.keys.last == "added")
        #expect((2..<size).allSatisfy { object["k\($0)"] == .integer($0) })
        let parsed = try? JSONValue.parse(JSONValue.object(object).serializedString())
        #expect(parsed == .object(object))
    }

    @Test func prettyTextIndentsAsGoogleServesIt() throws {
        let value = try JSONValue.parse(#"{"b":[1,{"x":"é\n"},[]],"a":{},"c":null}"#)
        let pretty = value.prettySerializedString()
        #expect(pretty == "{\n  \"b\": [\n    1,\n    {\n      \"x\": \"é\\n\"\n    },\n    []\n  ],\n  \"a\": {},\n  \"c\": null\n}")
        #expect(try JSONValue.parse(pretty) == value)
        #expect(JSONValue.array([]).prettySerializedString() == "[]")
        #expect(JSONValue.string("s").prettySerializedString() == #""s""#)
    }

    @Test func loneSurrogatesAreRejected() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ud83d""#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ude00""#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ud83d\u0041""#) }
    }

    @Test(arguments: ["01", "1.", ".5", "-", "1e", "+1", "0x10", "NaN", "1.5e+"])
    func invalidNumbersAreRejected(_ literal: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(literal) }
        #expect(JSONValue.decimal(literal) == nil)
    }

    @Test func errorsNameTheByteOffset() {
        do {
            _ = try JSONValue.parse(#"{"a": 1,}"#)
            Issue.record("expected a parse error")
        } catch {
            #expect(error.offset == 8)
            #expect(error.description.contains("byte 8"))
        }
    }

    @Test func trailingGarbageAndTruncationAreRejected() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[1] x") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":"#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("\"abc") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("\"a\nb\"") }
    }

    @Test func deepNestingIsRefusedNotCrashing() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    @Test func objectMembersCanBeReplacedAndRemovedInPlace() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = "two"
        object["a"] = nil
        object["d"] = .null
        #expect(object.keys == ["b", "c", "d"])
        #expect(JSONValue.object(object).serializedString() == #"{"b":"two","c":3,"d":null}"#)
    }

    @Test func intValueReadsInt64Strings() {
        #expect(JSONValue.string("1234").intValue == 1234)
        #expect(JSONValue.number("7").intValue == 7)
        #expect(JSONValue.number("7.5").intValue == nil)
    }
}
