import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct CSVReaderTests {
    private func parse(_ text: String) throws -> CSVFile {
        try CSVReader.parse(Array(text.utf8), source: "Test.csv")
    }

    @Test func firstRecordIsTheHeaderAndTheRestAreTextCells() throws {
        let file = try parse("name,amount\nRent,900\nFood,12.5\n")
        #expect(file.table.header == ["name", "amount"])
        #expect(file.table.rows == [[.text("Rent"), .text("900")], [.text("Food"), .text("12.5")]])
    }

    @Test func emptyFieldsBecomeEmptyCellsWhetherQuotedOrNot() throws {
        let file = try parse("a,b,c\n,\"\",x\nx,,\n")
        #expect(file.table.rows == [[.empty, .empty, .text("x")], [.text("x"), .empty, .empty]])
    }

    @Test func quotedFieldsKeepCommasDoubledQuotesAndEmbeddedLineBreaks() throws {
        let file = try parse("h\n\"a,b\"\n\"say \"\"hi\"\"\"\n\"one\ntwo\"\n\"cr\rlf\r\nend\"\n")
        #expect(
            file.table.rows == [
                [.text("a,b")], [.text("say \"hi\"")], [.text("one\ntwo")], [.text("cr\rlf\r\nend")],
            ])
    }

    @Test func crlfEndingsAreSeenAndNotFusedIntoCharacters() throws {
        let file = try parse("a,b\r\n1,2\r\n")
        #expect(file.lineEnding == .crlf)
        #expect(file.table.header == ["a", "b"])
        #expect(file.table.rows == [[.text("1"), .text("2")]])
    }

    @Test func aLoneCarriageReturnEndsARecord() throws {
        let file = try parse("a\r1\r2")
        #expect(file.lineEnding == .cr)
        #expect(file.table.rows == [[.text("1")], [.text("2")]])
        #expect(!file.endsWithNewline)
    }

    /// In a file whose lines end with LF or CRLF, a lone CR with more of the line after it is a stray
    /// character that cuts a row in two: both parts are marked damaged (held back), never read as rows.
    /// A CR just before the line end (CR CR LF, as some writers end every line) or at the very end of
    /// the file cuts nothing, and a file whose lines end with CR reads as before.
    @Test func aStrayCarriageReturnInsideARowMarksBothPartsDamaged() throws {
        let cut = try parse("id,note\n1,Lunch\r with Sam,x\n2,fine\n")
        #expect(cut.table.rows.count == 3)
        #expect(cut.table.damagedRows[0]?.contains("carriage return (\\r) on its own inside this row (line 2)") == true)
        #expect(cut.table.damagedRows[1]?.contains("the rest of row 2") == true)
        #expect(cut.table.damagedRows[2] == nil)
        let crlf = try parse("id,note\r\n1,a\rb\r\n2,c\r\n")
        #expect(crlf.table.damagedRows.keys.sorted() == [0, 1])
        for harmless in ["id,note\r\r\n1,a\r\r\n2,b\r\r\n", "id,note\n1,a\n2,b\r", "id,note\r1,a\r2,b\r", "id,note\n1,\"a\rb\"\n"] {
            #expect(try parse(harmless).table.damagedRows.isEmpty, "\(harmless.debugDescription)")
        }
    }

    @Test func lineEndingIsTheFirstOneOutsideQuotesAndLfWhenThereIsNone() throws {
        #expect(try parse("\"x\r\ny\"\na\r\n").lineEnding == .lf)
        #expect(try parse("only,header").lineEnding == .lf)
    }

    @Test func finalLineWithAndWithoutNewlineReadsTheSameRows() throws {
        let with = try parse("h\nx\n")
        let without = try parse("h\nx")
        #expect(with.table == without.table)
        #expect(with.endsWithNewline)
        #expect(!without.endsWithNewline)
    }

    @Test func trailingCommaAtEndOfFileIsAnEmptyLastField() throws {
        #expect(try parse("h\nx,").table.rows == [[.text("x"), .empty]])
    }

    @Test func byteOrderMarkIsRemovedFromTheHeaderAndRemembered() throws {
        let file = try CSVReader.parse([0xEF, 0xBB, 0xBF] + Array("id,note\n".utf8), source: "T.csv")
        #expect(file.hasBOM)
        #expect(file.table.header == ["id", "note"])
        #expect(try !parse("id\n").hasBOM)
    }

    @Test func blankLinesAreKeptAsRowsOfZeroCells() throws {
        let file = try parse("h\n\nx\r\n\r\n")
        #expect(file.table.rows == [[], [.text("x")], []])
    }

    @Test func aQuotedEmptyFieldAloneIsOneEmptyCellNotABlankLine() throws {
        #expect(try parse("h\n\"\"\n").table.rows == [[.empty]])
    }

    @Test func quoteInsideAnUnquotedFieldIsKeptLiterally() throws {
        let file = try parse("h\n5\" screen,a\"b\"\n")
        #expect(file.table.rows == [[.text("5\" screen"), .text("a\"b\"")]])
    }

    @Test func textAfterAClosingQuoteIsKeptLikePythonsCsvModule() throws {
        #expect(try parse("h\n\"ab\"c\"d,e\n").table.rows == [[.text("abc\"d"), .text("e")]])
    }

    @Test func emptyInputIsAnEmptyHeaderAndNoRows() throws {
        let file = try parse("")
        #expect(file.table == Table(header: []))
        #expect(!file.endsWithNewline)
    }

    @Test func multibyteTextIsDecodedAsUTF8() throws {
        let file = try parse("note\nCafé 日本 🙂\n")
        #expect(file.table.rows == [[.text("Café 日本 🙂")]])
    }

    @Test func rowsMayBeShorterOrLongerThanTheHeader() throws {
        #expect(try parse("a,b\n1\n1,2,3\n").table.rows == [[.text("1")], [.text("1"), .text("2"), .text("3")]])
    }

    @Test func spacesAndFormulaLikeTextAreKeptVerbatim() throws {
        #expect(try parse("h\n  x ,=SUM(A1)\n").table.rows == [[.text("  x "), .text("=SUM(A1)")]])
    }
}
