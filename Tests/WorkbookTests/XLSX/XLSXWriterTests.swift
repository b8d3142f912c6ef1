import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct XLSXWriterTests {
    /// Every kind of cell, with the awkward texts a hand-kept ledger holds.
    static let ledger = XLSXSheet(
        name: "Transactions",
        table: Table(
            header: ["id", "date", "amount", "note", "paid", "createdAt"],
            rows: [
                [
                    .text("a1"), .dateSerial("45356"), .number("12.50"), .text("Fish & <chips>"), .bool(true),
                    .text("2026-11-21T22:31:20.123Z"),
                ],
                [.text("a2"), .dateSerial("45356.75"), .number("-0.1"), .text("  padded\tand\r\nlines  "), .bool(false)],
                [],
                [.text("a4"), .empty, .number("1.5E-3"), .text("literal _x000D_ and bell \u{7}"), .empty, .text("🧾 ünïcødé")],
                [.text("a5"), .dateSerial("2"), .number("123456789012345678901234567890"), .text(""), .empty, .empty, .text("extra")],
            ]))

    @Test func whatIsWrittenReadsBackIdentically() throws {
        let second = XLSXSheet(name: "R&D \"ü\"", table: Table(header: ["only"], rows: [[.number("1")]]))
        let url = try XLSXTestFiles.scratch("out.xlsx")
        try XLSXWriter.write([Self.ledger, second], to: url)
        let read = try XLSXReader.read(contentsOf: url)
        var expected = Self.ledger
        // Empty text is left out like an empty cell; trailing empty cells are not kept.
        expected.table.rows[1] = [.text("a2"), .dateSerial("45356.75"), .number("-0.1"), .text("  padded\tand\r\nlines  "), .bool(false)]
        // A number reads back as the double a spreadsheet shows: 15 significant digits.
        expected.table.rows[0][2] = .number("12.5")
        expected.table.rows[3][2] = .number("0.0015")
        expected.table.rows[4] = [.text("a5"), .dateSerial("2"), .number("1.23456789012346E+29"), .empty, .empty, .empty, .text("extra")]
        #expect(read == [expected, second])
    }

    @Test func errorsAreWrittenAsTextAndALeadingPlusIsDropped() throws {
        let sheet = XLSXSheet(name: "S", table: Table(header: ["h"], rows: [[.error("#N/A"), .number("+5")]]))
        let url = try XLSXTestFiles.scratch("out.xlsx")
        try XLSXWriter.write([sheet], to: url)
        #expect(try XLSXReader.read(contentsOf: url).first?.table.rows == [[.text("#N/A"), .number("5")]])
    }

    /// U+FFFE and U+FFFF are Unicode scalars a note may hold, but XML 1.0 cannot carry them: written
    /// raw they made the sheet unreadable (`xlsx-roundtrip`, crash-f731b982). In a cell they are written
    /// as `_xFFFE_`/`_xFFFF_` and read back; in a sheet name, which has no escape, they are refused.
    @Test func nonCharactersXMLCannotCarryRoundTripInCellsAndAreRefusedInSheetNames() throws {
        let text = "a\u{FFFF}b\u{FFFE}_x0041\u{FFFF}"
        let sheet = XLSXSheet(name: "S", table: Table(header: ["h\u{FFFE}"], rows: [[.text(text)]]))
        let url = try XLSXTestFiles.scratch("out.xlsx")
        try XLSXWriter.write([sheet], to: url)
        #expect(try XLSXReader.read(contentsOf: url) == [sheet])
        let named = XLSXSheet(name: "S\u{FFFF}", table: Table(header: ["h"], rows: []))
        let error = try #require(throws: XLSXError.self) { try XLSXWriter.write([named], to: url) }
        #expect(error.kind == .invalidSheetName)
        #expect(SheetNameRules.problem(with: "S\u{FFFE}") != nil)
    }

    @Test func datesUseTheDateStyleAndTimesOfDayTheDateTimeStyle() throws {
        let url = try XLSXTestFiles.scratch("out.xlsx")
        try XLSXWriter.write([Self.ledger], to: url)
        let package = try XLSXPackage(url: url)
        let sheetXML = String(decoding: try package.data("xl/worksheets/sheet1.xml"), as: UTF8.self)
        #expect(sheetXML.contains(#"<c r="B2" s="1"><v>45356</v></c>"#))
        #expect(sheetXML.contains(#"<c r="B3" s="2"><v>45356.75</v></c>"#))
        #expect(sheetXML.contains(#"<c r="E2" t="b"><v>1</v></c>"#))
        #expect(sheetXML.contains(#"<c r="D3" t="inlineStr"><is><t xml:space="preserve">  padded"#))
        let survey = StylesEditor.Survey()
        try package.parse("xl/styles.xml", with: survey)
        #expect(survey.formats[survey.cellStyles[1].formatID] == "yyyy-mm-dd")
        #expect(survey.formats[survey.cellStyles[2].formatID] == "yyyy-mm-dd hh:mm:ss")
    }

    @Test func datesBeforeMarch1900AreWrittenOnExcelsFictitiousLeapDayScale() throws {
        let serials = ["2", "59.5", "60", "61", "0.25"]
        let sheet = XLSXSheet(name: "Early", table: Table(header: ["d"], rows: serials.map { [.dateSerial($0)] }))
        let url = try XLSXTestFiles.scratch("out.xlsx")
        try XLSXWriter.write([sheet], to: url)
        let sheetXML = String(decoding: try XLSXPackage(url: url).data("xl/worksheets/sheet1.xml"), as: UTF8.self)
        // 1900-01-01 is Excel's serial 1; from 1900-03-01 (61) on both scales agree.
        #expect(sheetXML.contains(#"<c r="A2" s="1"><v>1</v></c>"#))
        #expect(sheetXML.contains(#"<c r="A5" s="1"><v>61</v></c>"#))
        #expect(try XLSXReader.read(contentsOf: url) == [sheet])
    }

    @Test func thePackageHoldsOnlyTheMinimalParts() throws {
        let url = try XLSXTestFiles.scratch("out.xlsx")
        try XLSXWriter.write([Self.ledger, XLSXSheet(name: "Two", table: Table(header: ["x"]))], to: url)
        let package = try XLSXPackage(url: url)
        #expect(
            package.entryNames == [
                "[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml",
                "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml",
            ])
        let types = String(decoding: try package.data("[Content_Types].xml"), as: UTF8.self)
        #expect(types.contains(#"<Override PartName="/xl/worksheets/sheet2.xml""#))
        #expect(try XLSXReader.sheetNames(contentsOf: url) == ["Transactions", "Two"])
    }

    @Test func columnsAreWideEnoughForDatesAndTheHeaderRowIsFrozen() throws {
        let url = try XLSXTestFiles.scratch("out.xlsx")
        try XLSXWriter.write([Self.ledger], to: url)
        let sheetXML = String(decoding: try XLSXPackage(url: url).data("xl/worksheets/sheet1.xml"), as: UTF8.self)
        #expect(sheetXML.contains(#"<col min="2" max="2" width="21" customWidth="1"/>"#))
        #expect(sheetXML.contains(#"<dimension ref="A1:G6"/>"#))
        #expect(sheetXML.contains(#"state="frozen""#))
    }

    @Test(arguments: [
        ("", "sheet name is empty"),
        (String(repeating: "x", count: 32), "sheet name '\(String(repeating: "x", count: 32))' is longer than 31 characters"),
        ("a/b", "sheet name 'a/b' contains '/' (not allowed: [ ] : * ? / \\)"),
        ("Q3?", "sheet name 'Q3?' contains '?' (not allowed: [ ] : * ? / \\)"),
        ("[x]", "sheet name '[x]' contains '[' (not allowed: [ ] : * ? / \\)"),
        ("'quoted", "sheet name ''quoted' begins or ends with an apostrophe"),
        ("History", "sheet name 'History' is reserved by Excel"),
    ])
    func sheetNamesExcelRefusesAreRefused(name: String, message: String) throws {
        let url = try XLSXTestFiles.scratch("out.xlsx")
        let error = try #require(throws: XLSXError.self) {
            try XLSXWriter.write([XLSXSheet(name: name, table: Table(header: ["a"]))], to: url)
        }
        #expect(error.kind == .invalidSheetName)
        #expect(error.description == "out.xlsx: \(message)")
    }

    @Test func aThirtyOneCharacterNameAndOneSheetPerNameIgnoringCase() throws {
        let url = try XLSXTestFiles.scratch("out.xlsx")
        let long = String(repeating: "é", count: 31)
        try XLSXWriter.write([XLSXSheet(name: long, table: Table(header: ["a"]))], to: url)
        #expect(try XLSXReader.sheetNames(contentsOf: url) == [long])
        let error = try #require(throws: XLSXError.self) {
            try XLSXWriter.write(
                [XLSXSheet(name: "Data", table: Table(header: [])), XLSXSheet(name: "DATA", table: Table(header: []))], to: url)
        }
        #expect(error.description == "out.xlsx: two sheets are named 'DATA' (names ignore case)")
        let none = try #require(throws: XLSXError.self) { try XLSXWriter.write([], to: url) }
        #expect(none.description == "out.xlsx: a workbook needs at least one sheet")
    }

    @Test func numberTextThatIsNotANumberIsRefusedNamingTheCell() throws {
        let url = try XLSXTestFiles.scratch("out.xlsx")
        let sheet = XLSXSheet(name: "Money", table: Table(header: ["amount"], rows: [[.number("1")], [.number("12,50")]]))
        let error = try #require(throws: XLSXError.self) { try XLSXWriter.write([sheet], to: url) }
        #expect(error.kind == .invalidCell)
        #expect(
            error.description
                == "out.xlsx: part 'xl/worksheets/sheet1.xml' cannot be written: sheet 'Money' cell A3 holds '12,50', which is not a number"
        )
    }

    @Test func textLongerThanExcelAllowsIsRefused() throws {
        let url = try XLSXTestFiles.scratch("out.xlsx")
        let sheet = XLSXSheet(name: "Notes", table: Table(header: ["note"], rows: [[.text(String(repeating: "n", count: 32_768))]]))
        let error = try #require(throws: XLSXError.self) { try XLSXWriter.write([sheet], to: url) }
        #expect(error.description.hasSuffix("sheet 'Notes' cell A2 holds 32768 characters; Excel allows 32767"))
    }

    @Test func escapesRoundTripThroughTheOOXMLEscapeRules() {
        #expect(OOXMLEscape.escape("a\u{1}b") == "a_x0001_b")
        #expect(OOXMLEscape.escape("_x0041_") == "_x005F_x0041_")
        #expect(OOXMLEscape.unescape(Array(OOXMLEscape.escape("x_x00e9_\u{1F}y").utf8)) == "x_x00e9_\u{1F}y")
        #expect(OOXMLEscape.unescape(Array("_xD83D__xDE00_".utf8)) == "😀")
        #expect(OOXMLEscape.unescape(Array("_x12G4_ _x123_".utf8)) == "_x12G4_ _x123_")
    }

    /// A literal `_xHHHH` followed by a control character: the character's own escape starts with
    /// `_`, so unescaped the two read as `_xHHHH_` (`xlsx-roundtrip`, crash-a527fd74). Every text of
    /// up to seven characters from the troublesome ones reads back as itself.
    @Test func everyShortTextOfEscapeLikePiecesRoundTrips() {
        #expect(OOXMLEscape.unescape(Array(OOXMLEscape.escape("__xee09\u{07}").utf8)) == "__xee09\u{07}")
        let pieces = ["_", "x", "E", "\u{07}", "\u{FFFF}"]
        var texts = [""]
        var wrong: [String] = []
        for _ in 0..<7 {
            texts = texts.flatMap { text in pieces.map { text + $0 } }
            for text in texts where OOXMLEscape.unescape(Array(OOXMLEscape.escape(text).utf8)) != text {
                wrong.append(text.debugDescription)
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) texts, e.g. \(wrong.prefix(5))")
    }
}
