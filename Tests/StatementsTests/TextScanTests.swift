import Foundation
import Testing

@testable import Statements

/// The scanners read a text by its UTF-8 bytes where `StatementText.scansByBytes` allows it and by its
/// `Character`s otherwise: both readings must give the same records and tags, for every shape of text.
@Suite struct TextScanTests {
    /// Units a statement's text is made of, the ones that decide how it splits among them; the last
    /// ones join a neighbour into one `Character` or equal `;`, so a text holding them is read by `Character`s.
    static let alphabet: [String] = [
        ";", ",", "\t", "\"", " ", "\r", "\n", "\r\n", "<", ">", "/", "!", "?", "&amp;", "a", "Z", "0", "é", "ß", "\u{A0}", "\u{85}",
        "€", "–", "„", "™", "\u{2028}", "\u{301}", "\u{200D}", "\u{37E}", "\u{600}", "e\u{301}", "🇩🇪",
    ]

    /// Texts of random units (the same every run), the corpora the fuzzers grew, and the fixtures.
    static func texts() throws -> [String] {
        var generator = SplitMix(seed: 20_261_128)
        var texts = (0..<4000).map { _ in
            (0..<Int(generator.next() % 24)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for folder in ["Fuzz/corpus/statement-csv", "Fuzz/corpus/ofx", "Tests/StatementsTests/Fixtures/own"] {
            let url = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                let bytes = Array(try Data(contentsOf: url.appendingPathComponent(name)))
                if let (text, _) = StatementText.decode(bytes) { texts.append(text) }
            }
        }
        return texts
    }

    @Test func bytesAndCharactersSplitEveryTextAlike() throws {
        var byBytes = 0
        for text in try Self.texts() where StatementText.scansByBytes(text) {
            byBytes += 1
            for delimiter: Character in [";", ",", "\t"] {
                let units = DelimitedRecords.split(Array(text), delimiter: delimiter, limit: .max)
                let bytes = DelimitedRecords.split(Array(text.utf8), delimiter: delimiter.asciiValue ?? 0, limit: .max)
                #expect(units.map(\.fields) == bytes.map(\.fields), "\(text.debugDescription)")
                #expect(units.map(\.line) == bytes.map(\.line), "\(text.debugDescription)")
                let limited = DelimitedRecords.split(Array(text.utf8), delimiter: delimiter.asciiValue ?? 0, limit: 2)
                #expect(limited.map(\.fields) == Array(units.prefix(2)).map(\.fields))
            }
        }
        #expect(byBytes > 1000)
    }

    @Test func bytesAndCharactersFindTheSameOFXTags() throws {
        for text in try Self.texts() where StatementText.scansByBytes(text) {
            let units = OFXTags(Array(text)).map { "\($0.line) \($0.name)=\($0.value)" }
            let bytes = OFXTags(Array(text.utf8)).map { "\($0.line) \($0.name)=\($0.value)" }
            #expect(units == bytes, "\(text.debugDescription)")
        }
    }

    @Test func aTextWithAJoiningOrEquivalentScalarIsReadByCharacters() {
        for scalar in ["\u{301}", "\u{200D}", "\u{37E}", "\u{600}", "\u{1F1E9}", "\u{FE0F}", "\u{20D7}"] {
            #expect(!StatementText.scansByBytes("a;b" + scalar), "\(scalar.debugDescription)")
        }
        #expect(StatementText.scansByBytes("Brötchen & Kaffee für 3,50 € – „danke“ …\r\n"))
        // U+037E is `;` to `Character`: the split takes it for the delimiter, as it always did.
        #expect(DelimitedRecords.split("a\u{37E}b", delimiter: ";").map(\.fields) == [["a", "b"]])
        #expect(DelimitedRecords.split("a;\u{301}b", delimiter: ";").map(\.fields) == [["a;\u{301}b"]])
    }

    @Test func trimmingWhitespaceIsFoundationsTrim() {
        let scalars = (0..<0x3100).compactMap(Unicode.Scalar.init).map(String.init)
        for edge in scalars + ["", "\r\n"] {
            for text in [edge, edge + "x", "x" + edge, edge + "x" + edge, edge + " x \t" + edge] {
                #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
                #expect(
                    text.trimmingWhitespace(newlines: true) == text.trimmingCharacters(in: .whitespacesAndNewlines),
                    "\(text.debugDescription)")
                #expect(Substring(text).trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
            }
        }
    }

    @Test func windows1252IsReadByItsTable() {
        #expect(StatementText.windows1252([0x80, 0x8A, 0x96, 0x9F, 0x81, 0x84, 0x41, 0xE4, 0xFF, 0x7F]) == "€Š–Ÿ\u{81}„Aäÿ\u{7F}")
        #expect(StatementText.windows1252(Array(0...0x7F)) == String(decoding: Array(0...0x7F), as: UTF8.self))
        #expect(StatementText.windows1252(Array(0xA0...0xFF)).unicodeScalars.map(\.value) == Array(0xA0...0xFF))
    }
}

/// A seeded generator: the same texts every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
