import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct XLSXReaderDateTests {
    /// Styles whose cellXfs index i uses the format ids listed here, with custom formats 164+.
    static func styles(formatIDs: [Int], custom: [(Int, String)] = []) -> String {
        let formats = custom.map { #"<numFmt numFmtId="\#($0.0)" formatCode="\#($0.1)"/>"# }.joined()
        let xfs = formatIDs.map { #"<xf numFmtId="\#($0)" fontId="0" fillId="0" borderId="0" xfId="0"/>"# }.joined()
        return #"<numFmts count="\#(custom.count)">\#(formats)</numFmts>"#
            + #"<cellStyleXfs count="1"><xf numFmtId="22"/></cellStyleXfs><cellXfs count="\#(formatIDs.count)">\#(xfs)</cellXfs>"#
    }

    static func row(_ values: [(style: Int, value: String)]) -> String {
        let cells = values.enumerated().map { index, cell in
            #"<c r="\#(CellReference.columnLetters(index + 1))1" s="\#(cell.style)"><v>\#(cell.value)</v></c>"#
        }
        return "<row r=\"1\">\(cells.joined())</row>"
    }

    @Test func builtInDateFormatsMakeDateSerialsAndDurationStaysANumber() throws {
        let ids = [0, 14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47, 2]
        let set = PartSet.workbook(
            sheetData: Self.row(ids.indices.map { ($0, "45356.5") }), styles: Self.styles(formatIDs: ids))
        let expected: [Cell] = ids.map { id in
            switch id {
            case 14...22, 45, 47: .dateSerial("45356.5")
            default: .number("45356.5")
            }
        }
        #expect(try set.rows() == [expected])
    }

    @Test func customFormatsWithDateTokensOutsideQuotesAndBracketsAreDates() throws {
        let custom: [(Int, String)] = [
            (164, "M/d/yyyy"), (165, "yyyy-mm-dd hh:mm:ss"), (166, "[h]:mm:ss"), (167, "#,##0.00 &quot;days&quot;"),
            (168, "[Red]0.00"), (169, "[$-409]mmmm d, yyyy"), (170, "0.0\\h"), (171, "General"), (172, "0.00E+00"),
            (173, "_(* #,##0_);_(* (#,##0)"), (174, "[mm]:ss"),
        ]
        let ids = custom.map(\.0)
        let set = PartSet.workbook(
            sheetData: Self.row(ids.indices.map { ($0, "45356") }), styles: Self.styles(formatIDs: ids, custom: custom))
        let dates: Set<Int> = [164, 165, 169]
        #expect(try set.rows() == [ids.map { dates.contains($0) ? .dateSerial("45356") : .number("45356") }])
    }

    @Test func aCustomFormatRedefiningABuiltInIdWins() throws {
        let set = PartSet.workbook(
            sheetData: Self.row([(0, "3")]), styles: Self.styles(formatIDs: [14], custom: [(14, "0.00")]))
        #expect(try set.rows() == [[.number("3")]])
    }

    @Test func the1900LeapYearQuirkShiftsSerialsBeforeMarch1900() throws {
        let set = PartSet.workbook(
            sheetData: Self.row([(0, "1"), (0, "59"), (0, "60"), (0, "61"), (0, "0.25"), (0, "1.5")]),
            styles: Self.styles(formatIDs: [14]))
        // Excel's 1 is 1900-01-01, which is day 2 counted from 1899-12-30; from 61 on they agree.
        #expect(
            try set.rows() == [
                [
                    .dateSerial("2"), .dateSerial("60"), .dateSerial("60"), .dateSerial("61"), .dateSerial("0.25"),
                    .dateSerial("2.5"),
                ]
            ])
    }

    @Test func the1904SystemIsConvertedAndItsAttributeValueIsRead() throws {
        let sheet = Self.row([(1, "43891"), (1, "43891.75"), (0, "5")])
        let styles = Self.styles(formatIDs: [0, 14])
        let mac = PartSet.workbook(sheetData: sheet, styles: styles, workbookPr: #"<workbookPr date1904="1"/>"#)
        let macWord = PartSet.workbook(sheetData: sheet, styles: styles, workbookPr: #"<workbookPr date1904="true"/>"#)
        let libreOffice = PartSet.workbook(sheetData: sheet, styles: styles, workbookPr: #"<workbookPr date1904="false"/>"#)
        #expect(try mac.rows() == [[.dateSerial("45353"), .dateSerial("45353.75"), .number("5")]])
        #expect(try macWord.rows() == mac.rows())
        #expect(try libreOffice.rows() == [[.dateSerial("43891"), .dateSerial("43891.75"), .number("5")]])
    }

    @Test func conditionalFormatNumberFormatsDoNotRedefineCellFormats() throws {
        let styles =
            Self.styles(formatIDs: [164], custom: [(164, "yyyy-mm-dd")])
            + #"<dxfs count="1"><dxf><numFmt numFmtId="164" formatCode="0.00"/></dxf></dxfs>"#
        let set = PartSet.workbook(sheetData: Self.row([(0, "45356")]), styles: styles)
        #expect(try set.rows() == [[.dateSerial("45356")]])
    }

    @Test func aStyleIndexPastTheStylesReadsAsAPlainNumber() throws {
        let set = PartSet.workbook(sheetData: Self.row([(9, "45356")]), styles: Self.styles(formatIDs: [14]))
        #expect(try set.rows() == [[.number("45356")]])
    }

    @Test func numberFormatKindClassifiesFormatCodes() {
        #expect(NumberFormatKind.custom("d-mmm-yy") == .date)
        #expect(NumberFormatKind.custom("h:mm AM/PM") == .date)
        #expect(NumberFormatKind.custom("\"Total\" 0") == .number)
        #expect(NumberFormatKind.custom("[hh]:mm:ss") == .duration)
        #expect(NumberFormatKind.custom("@") == .number)
        #expect(NumberFormatKind.custom("*-0") == .number)
        #expect(NumberFormatKind.builtIn(46) == .duration)
        #expect(NumberFormatKind.builtIn(44) == .number)
    }
}
