import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct XLSXReaderCellTests {
    @Test func sharedStringsJoinRunsSkipPhoneticsAndKeepEmptyItems() throws {
        let strings = [
            "<t>plain</t>",
            #"<r><t xml:space="preserve">rich </t></r><r><rPr><b/></rPr><t>text</t></r>"#,
            "<t>漢字</t><rPh sb=\"0\" eb=\"2\"><t>かんじ</t></rPh><phoneticPr fontId=\"1\"/>",
            "<t/>",
            "<t>line_x000D_\nbreak _x005F_x0041_ bell_x0007_</t>",
            "<t xml:space=\"preserve\">  spaced  </t>",
        ]
        let cells = (0..<strings.count).map { #"<c r="\#(CellReference.columnLetters($0 + 1))1" t="s"><v>\#($0)</v></c>"# }
        let rows = try PartSet.workbook(sheetData: "<row r=\"1\">\(cells.joined())</row>", sharedStrings: strings).rows()
        #expect(
            rows == [
                [
                    .text("plain"), .text("rich text"), .text("漢字"), .text(""), .text("line\r\nbreak _x0041_ bell\u{7}"),
                    .text("  spaced  "),
                ]
            ])
    }

    @Test func inlineStringsFormulaStringsAndCDATAReadAsText() throws {
        let sheet = """
            <row r="1"><c r="A1" t="inlineStr"><is><t>inline</t></is></c>\
            <c r="B1" t="inlineStr"><is><r><t>a</t></r><r><t xml:space="preserve"> b</t></r></is></c>\
            <c r="C1" t="str"><f>"x"&amp;"y"</f><v>xy</v></c>\
            <c r="D1" t="inlineStr"><is><t><![CDATA[<cdata & more>]]></t></is></c>\
            <c r="E1" t="str"><f>""</f><v></v></c></row>
            """
        #expect(
            try PartSet.workbook(sheetData: sheet).rows() == [
                [.text("inline"), .text("a b"), .text("xy"), .text("<cdata & more>"), .text("")]
            ])
    }

    /// openpyxl writes a formula without its result (`<v/>`, or no `<v>`): that is no empty cell. A
    /// formula whose saved result is the empty string (`t="str"`) is one.
    @Test func aFormulaWithNoSavedResultIsNotReadAsAnEmptyCell() throws {
        let sheet = """
            <row r="1"><c r="A1"><f>SUM(B2:B3)</f><v></v></c><c r="B1"><f>1+1</f></c>\
            <c r="C1"><f>1+1</f><v>2</v></c><c r="D1" t="str"><f>""</f><v></v></c></row>
            """
        let unsaved = Cell.error(Cell.formulaWithoutResult)
        #expect(try PartSet.workbook(sheetData: sheet).rows() == [[unsaved, unsaved, .number("2"), .text("")]])
    }

    @Test func textWithoutXMLSpacePreserveLosesOuterWhiteSpace() throws {
        let strings = ["<t>  trimmed \n</t>", "<r><t> a </t></r><r><t xml:space=\"preserve\"> b </t></r>", "<t> </t>"]
        let sheet = """
            <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>\
            <c r="D1" t="inlineStr"><is><t>  inline  </t></is></c>\
            <c r="E1" t="inlineStr"><is><t xml:space="preserve">  kept  </t></is></c></row>
            """
        #expect(
            try PartSet.workbook(sheetData: sheet, sharedStrings: strings).rows() == [
                [
                    .text("trimmed"), .text("a b "), .text(""), .text("inline"), .text("  kept  "),
                ]
            ])
    }

    @Test func numbersReadAsASpreadsheetShowsThemAtFifteenDigits() throws {
        let sheet = """
            <row r="1"><c r="A1"><v>0.1</v></c><c r="B1" t="n"><v>1.5E-3</v></c>\
            <c r="C1"><v>56969.955000000002</v></c><c r="D1"><v>-0</v></c><c r="E1"><v>12345678901234567890</v></c></row>
            """
        #expect(
            try PartSet.workbook(sheetData: sheet).rows() == [
                [
                    .number("0.1"), .number("0.0015"), .number("56969.955"), .number("0"),
                    .number("12345678901234600000"),
                ]
            ])
    }

    @Test func booleansErrorsAndEmptyCellsAreTyped() throws {
        let sheet = """
            <row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1" t="b"><v>0</v></c><c r="C1" t="e"><v>#N/A</v></c>\
            <c r="D1" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="E1" s="0"/><c r="F1"><f>A1</f></c><c r="G1" t="b"><v>true</v></c></row>
            """
        #expect(
            try PartSet.workbook(sheetData: sheet).rows() == [
                [
                    .bool(true), .bool(false), .error("#N/A"), .error("#DIV/0!"), .empty, .error(Cell.formulaWithoutResult),
                    .bool(true),
                ]
            ])
    }

    @Test func isoDateCellsBecomeSerials() throws {
        let sheet = """
            <row r="1"><c r="A1" t="d"><v>2024-03-05</v></c><c r="B1" t="d"><v>2024-03-05T12:00:00Z</v></c>\
            <c r="C1" t="d"><v>1900-03-01T00:00:00</v></c><c r="D1" t="d"><v>not a date</v></c></row>
            """
        #expect(
            try PartSet.workbook(sheetData: sheet).rows() == [
                [
                    .dateSerial("45356"), .dateSerial("45356.5"), .dateSerial("61"), .text("not a date"),
                ]
            ])
    }

    @Test func rowsAndCellsWithoutReferencesTakeTheNextPosition() throws {
        let sheet = """
            <row><c t="inlineStr"><is><t>a</t></is></c><c><v>1</v></c></row>\
            <row><c r="C2"><v>2</v></c><c><v>3</v></c></row>\
            <row r="5"><c><v>5</v></c></row><row><c r="B6"><v>6</v></c></row>
            """
        #expect(
            try PartSet.workbook(sheetData: sheet).rows() == [
                [.text("a"), .number("1")], [.empty, .empty, .number("2"), .number("3")], [], [], [.number("5")],
                [.empty, .number("6")],
            ])
    }

    @Test func missingRowsStayAsEmptyRowsAndTrailingEmptiesAreDropped() throws {
        let sheet = """
            <row r="1"><c r="A1"><v>1</v></c><c r="Z1" s="3"/></row>\
            <row r="4"><c r="B4"><v>4</v></c></row>\
            <row r="7" customHeight="1"><c r="A7" s="2"/></row><row r="9"/>
            """
        #expect(try PartSet.workbook(sheetData: sheet).rows() == [[.number("1")], [], [], [.empty, .number("4")]])
    }

    @Test func cellsOutsideSheetDataAreIgnored() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace(
            "xl/worksheets/sheet1.xml",
            #"<worksheet xmlns="\#(PartSet.main)"><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData><extLst><ext><row r="5"><c r="B5"><v>9</v></c></row></ext></extLst></worksheet>"#
        )
        #expect(try set.rows() == [[.number("1")]])
    }

    @Test func aSharedStringIndexOutsideTheTableIsAnErrorNamingTheCell() throws {
        let set = PartSet.workbook(sheetData: #"<row r="3"><c r="B3" t="s"><v>7</v></c></row>"#, sharedStrings: ["<t>only</t>"])
        let error = try #require(throws: XLSXError.self) { try set.rows() }
        #expect(error.kind == .malformedPart)
        #expect(
            error.description == "book.xlsx: part 'xl/worksheets/sheet1.xml' cell B3 refers to shared string '7', but the table holds 1")
    }

    @Test func aCellReferenceOutsideTheGridIsRefused() throws {
        let set = PartSet.workbook(sheetData: #"<row r="1"><c r="XFE1"><v>1</v></c></row>"#)
        let error = try #require(throws: XLSXError.self) { try set.rows() }
        #expect(error.description.contains("cell reference 'XFE1' outside the grid"))
    }
}
