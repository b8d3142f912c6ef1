import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct CSVWriterTests {
    private func text(_ file: CSVFile) -> String {
        String(decoding: CSVWriter.encode(file), as: UTF8.self)
    }

    @Test func fieldsAreQuotedOnlyWhenTheyHoldACommaQuoteOrLineBreak() {
        let file = CSVFile(
            table: Table(
                header: ["plain", "comma", "quote", "lf", "cr"],
                rows: [[.text("a b"), .text("x,y"), .text("5\" tv"), .text("1\n2"), .text("1\r2")]]
            ))
        #expect(text(file) == "plain,comma,quote,lf,cr\na b,\"x,y\",\"5\"\" tv\",\"1\n2\",\"1\r2\"\n")
    }

    @Test func crlfStyleIsUsedBetweenRecordsButNotInsideFields() {
        let file = CSVFile(
            table: Table(header: ["a"], rows: [[.text("x\ny")], [.text("z")]]), lineEnding: .crlf)
        #expect(text(file) == "a\r\n\"x\ny\"\r\nz\r\n")
    }

    @Test func byteOrderMarkIsWrittenWhenTheFileHadOne() {
        let file = CSVFile(table: Table(header: ["id"]), hasBOM: true)
        #expect(CSVWriter.encode(file) == [0xEF, 0xBB, 0xBF, 0x69, 0x64, 0x0A])
    }

    @Test func missingFinalNewlineStaysMissing() {
        let file = CSVFile(table: Table(header: ["a"], rows: [[.text("1")]]), endsWithNewline: false)
        #expect(text(file) == "a\n1")
    }

    @Test func rowsOfZeroCellsAreWrittenAsBlankLines() {
        let file = CSVFile(table: Table(header: ["a"], rows: [[], [.text("1")], []]), lineEnding: .crlf)
        #expect(text(file) == "a\r\n\r\n1\r\n\r\n")
    }

    @Test func lastBlankRowGetsItsNewlineEvenWhenTheFileHadNone() {
        let file = CSVFile(table: Table(header: ["a"], rows: [[]]), endsWithNewline: false)
        #expect(text(file) == "a\n\n")
    }

    @Test func aLoneEmptyFieldIsQuotedSoItDoesNotReadBackAsABlankLine() {
        let file = CSVFile(table: Table(header: [""], rows: [[.empty], [.empty, .empty]]))
        #expect(text(file) == "\"\"\n\"\"\n,\n")
    }

    @Test func leadingByteOrderMarkCharacterInTheFirstFieldIsQuoted() throws {
        let file = CSVFile(table: Table(header: ["\u{FEFF}id"]))
        #expect(text(file) == "\"\u{FEFF}id\"\n")
        #expect(try CSVReader.parse(CSVWriter.encode(file), source: "T.csv") == file)
    }

    @Test func cellsAreWrittenWithTheirRawText() {
        let file = CSVFile(
            table: Table(
                header: ["n", "b", "d", "e"],
                rows: [[.number("12.50"), .bool(true), .dateSerial("46000.5"), .error("#N/A")]]
            ))
        #expect(text(file) == "n,b,d,e\n12.50,TRUE,46000.5,#N/A\n")
    }

    @Test func streamingWriterProducesTheSameBytesInBoundedChunks() throws {
        let rows = (0..<2_000).map { i in [Cell.text("row \(i)"), .text("note, \"\(i)\""), .empty] }
        let file = CSVFile(table: Table(header: ["a", "b", "c"], rows: rows), hasBOM: true, lineEnding: .crlf)
        var chunks: [[UInt8]] = []
        try CSVWriter.write(file, chunkSize: 1_024) { chunks.append($0) }
        #expect(chunks.count > 10)
        #expect(chunks.dropLast().allSatisfy { $0.count >= 1_024 && $0.count < 1_024 + 64 })
        #expect(chunks.flatMap { $0 } == CSVWriter.encode(file))
    }

    @Test func canonicalInputIsRewrittenByteForByte() throws {
        let input = Array("\u{FEFF}id,note,amount\r\n1,\"a, b\",3\r\n\r\n2,\"x\"\"y\",\r\n3,\"multi\nline\",4".utf8)
        let file = try CSVReader.parse(input, source: "T.csv")
        #expect(CSVWriter.encode(file) == input)
    }
}
