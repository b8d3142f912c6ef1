import Interchange
import Testing

@testable import GoogleAPI

/// A parse error's byte offset as the line and column an editor shows.
@Suite struct JSONParseErrorLocationTests {
    private func location(_ text: [UInt8]) throws -> (Int, Int) {
        do {
            _ = try JSONValue.parse(text)
        } catch {
            return error.location(in: text)
        }
        Issue.record("parsed: \(text)")
        return (0, 0)
    }

    @Test func linesAndCharacterColumnsAreOneBased() throws {
        #expect(try location(Array("{\n  \"a\": 1\n  \"b\": 2\n}".utf8)) == (3, 3))
        // Each of "é", "€" and "😀" is one column however many bytes it takes.
        #expect(try location(Array("{\"é€😀\": 1,}".utf8)) == (1, 11))
        #expect(try location(Array("[1,\n\t]".utf8)) == (2, 2))
        #expect(try location(Array("".utf8)) == (1, 1))
        // A byte order mark is not a column.
        #expect(try location([0xEF, 0xBB, 0xBF] + Array("{,}".utf8)) == (1, 2))
    }

    @Test func trailingCommasAndCommentsAreRefused() {
        for text in ["{\"a\": 1,}", "[1, 2,]", "{\"a\": 1 // note\n}", "{'a': 1}"] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
        }
    }

    @Test func duplicateKeysAreRefusedOnlyWhenAsked() throws {
        let text = Array("{\"a\": 1,\n \"b\": {\"c\": 1}, \"a\": 2}".utf8)
        #expect(try JSONValue.parse(text)["a"] == .number("2"))
        do {
            _ = try JSONValue.parseRejectingDuplicateKeys(text)
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.message == "duplicate key 'a'")
            #expect(error.location(in: text) == (2, 17))
        }
        #expect(try JSONValue.parseRejectingDuplicateKeys(Array(#"[{"a": 1}, {"a": 2}]"#.utf8)).arrayValue?.count == 2)
    }
}
