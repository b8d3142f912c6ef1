import SheetSyncCore
import SheetValues
import TestSupport
import Testing

@testable import Workbook

@Suite struct CSVRoundTripTests {
    private static let pieces = [
        "", ",", "\"", "\"\"", "\r", "\n", "\r\n", "\n\r", "a", "Rent", " ", "x,y", "é", "日本", "🙂", "\u{FEFF}",
        "\t", "=SUM(A1)", "'", "\u{0}", "e\u{301}", "🇩🇪", "1/15/2026", "12.50",
    ]

    private static func string(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }

    private static func cells(_ random: inout SeededRandom) -> [Cell] {
        (0..<Int.random(in: 0...5, using: &random)).map { _ in
            let text = string(&random)
            return text.isEmpty ? .empty : .text(text)
        }
    }

    /// A random file in the form the reader yields (see `CSVFile` on the two layouts bytes
    /// cannot express).
    static func randomFile(_ random: inout SeededRandom) -> CSVFile {
        let header = (0..<Int.random(in: 0...5, using: &random)).map { _ in string(&random) }
        let rows = (0..<Int.random(in: 0...6, using: &random)).map { _ in cells(&random) }
        var file = CSVFile(
            table: Table(header: header, rows: rows),
            hasBOM: Bool.random(using: &random),
            lineEnding: CSVLineEnding.allCases.randomElement(using: &random) ?? .lf,
            endsWithNewline: Bool.random(using: &random)
        )
        normalize(&file)
        return file
    }

    static func normalize(_ file: inout CSVFile) {
        if file.table.rows.last == [] { file.endsWithNewline = true }
        if file.table.rows.isEmpty && !file.endsWithNewline { file.lineEnding = .lf }
    }

    @Test func parsingWhatTheWriterWroteGivesTheSameFile() throws {
        for index in 0..<1_000 {
            let seed = 0x5EED_0000 + UInt64(index)
            var random = SeededRandom(seed: seed)
            let file = Self.randomFile(&random)
            let bytes = CSVWriter.encode(file)
            let parsed = try CSVReader.parse(bytes, source: "seed-\(seed).csv")
            #expect(parsed == file, "round trip failed for seed \(seed): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            if parsed != file { return }
        }
    }

    @Test func randomBytesEitherParseToARewritableFileOrFailWithACSVError() throws {
        let alphabet: [[UInt8]] = [[0x61], [0x2C], [0x22], [0x0D], [0x0A], [0xC3, 0xA9], [0xE9], [0xEF, 0xBB, 0xBF], [0x20]]
        var refused = 0
        for index in 0..<1_000 {
            let seed = 0xF022_0000 + UInt64(index)
            var random = SeededRandom(seed: seed)
            let bytes = (0..<Int.random(in: 0...40, using: &random)).flatMap { _ in
                alphabet.randomElement(using: &random) ?? []
            }
            let file: CSVFile
            do {
                file = try CSVReader.parse(bytes, source: "fuzz.csv")
            } catch is CSVError {
                refused += 1
                continue
            }
            var expected = file
            Self.normalize(&expected)
            #expect(expected == file, "reader yielded an unwritable layout for seed \(seed)")
            let again = try CSVReader.parse(CSVWriter.encode(file), source: "fuzz.csv")
            #expect(again == file, "rewrite changed the file for seed \(seed): \(bytes)")
            if again != file { return }
        }
        // Both outcomes must actually occur, or the alphabet is not testing anything.
        #expect(refused > 50 && refused < 950)
    }
}
