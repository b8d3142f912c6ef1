import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// Workbooks written by openpyxl, XlsxWriter and LibreOffice (scripts/xlsx/make_fixtures.py).
@Suite struct ProducerFixtureTests {
    /// What openpyxl wrote into the "Types" sheet, as every producer's copy must read.
    static func typesRows(formulaResult: Cell, datetime: String) -> [[Cell]] {
        [
            [.text("text"), .text("number"), .text("date"), .text("datetime"), .text("bool"), .text("note")],
            [.text("plain"), .number("12.5"), .dateSerial("45356"), .dateSerial(datetime), .bool(true), .text("  padded  ")],
            [.text("int"), .number("-3"), .dateSerial("2"), .dateSerial("61.25"), .bool(false), .text("multi\nline")],
            [],
            [.text("sparse"), .empty, .empty, .empty, .empty, .text("far")],
            formulaResult == .empty ? [.error("#N/A")] : [.error("#N/A"), formulaResult],
            [.text("exact"), .number("0.1"), .number("123456789012")],
        ]
    }

    @Test func openpyxlTypesReadWithTheirStorageTypes() throws {
        let sheets = try XLSXReader.readRows(contentsOf: XLSXTestFiles.fixture("openpyxl-types.xlsx"))
        #expect(sheets.map(\.name) == ["Types", "R&D ü", "Hidden"])
        // openpyxl stores no cached formula results, so B6 (=1+2) has no value to read: it reads as such.
        #expect(sheets[0].rows == Self.typesRows(formulaResult: .error(Cell.formulaWithoutResult), datetime: "45356.5732638889"))
        #expect(sheets[1].rows == [[.text("name"), .text("value")], [.text("ä & <b>"), .number("1")]])
        #expect(sheets[2].rows == [[.text("secret")]])
    }

    @Test func libreOfficeCopyReadsTheSameWithItsCachedFormulaResult() throws {
        let sheets = try XLSXReader.readRows(contentsOf: XLSXTestFiles.fixture("libreoffice-types.xlsx"))
        #expect(sheets.map(\.name) == ["Types", "R&D ü", "Hidden"])
        // LibreOffice writes its own shortest form of the date-time serial and computes =1+2.
        #expect(sheets[0].rows == Self.typesRows(formulaResult: .number("3"), datetime: "45356.5732638889"))
    }

    @Test(arguments: ["openpyxl-1904.xlsx", "libreoffice-1904.xlsx"])
    func macEpochWorkbooksReadIn1900Serials(name: String) throws {
        let sheet = try #require(XLSXReader.read(contentsOf: XLSXTestFiles.fixture(name)).first)
        #expect(sheet.table.header == ["date", "datetime"])
        #expect(sheet.table.rows == [[.dateSerial("45356"), .dateSerial("45356.5")]])
    }

    @Test func xlsxWriterNumberFormatsDecideDateness() throws {
        let sheet = try #require(XLSXReader.read(contentsOf: XLSXTestFiles.fixture("xlsxwriter-formats.xlsx"), sheets: ["Formats"]).first)
        let byLabel = Dictionary(uniqueKeysWithValues: sheet.table.rows.map { ($0[0].rawText, $0[1]) })
        #expect(byLabel["custom datetime"] == .dateSerial("45356.5"))
        #expect(byLabel["google date"] == .dateSerial("45356"))
        #expect(byLabel["builtin 14"] == .dateSerial("45356"))
        #expect(byLabel["builtin 22"] == .dateSerial("45356.25"))
        #expect(byLabel["builtin 45"] == .dateSerial("0.5"))
        #expect(byLabel["builtin 46 duration"] == .number("1.5"))
        #expect(byLabel["builtin 47"] == .dateSerial("0.25"))
        #expect(byLabel["custom duration"] == .number("2.25"))
        #expect(byLabel["percent"] == .number("0.125"))
        #expect(byLabel["quoted days"] == .number("3"))
        #expect(byLabel["quoted letters"] == .number("7"))
        #expect(byLabel["color"] == .number("-1.5"))
        #expect(byLabel["locale date"] == .dateSerial("45356"))
        #expect(byLabel["general"] == .number("42"))
        #expect(byLabel["escaped"] == .number("5"))
        #expect(byLabel.count == 15)
    }

    @Test func xlsxWriterStringsFormulaResultsAndEscapes() throws {
        let sheet = try #require(XLSXReader.read(contentsOf: XLSXTestFiles.fixture("xlsxwriter-formats.xlsx"), sheets: ["Strings"]).first)
        #expect(sheet.table.header == ["kind", "value"])
        #expect(
            sheet.table.rows == [
                [.text("rich"), .text("plain bold tail")],
                [.text("spaces"), .text("  both ends  ")],
                [.text("crlf"), .text("line1\r\nline2")],
                [.text("escape literal"), .text("_x000D_ stays")],
                [.text("bool"), .bool(true)],
                [.text("formula string"), .text("ab")],
                [.text("formula error"), .error("#N/A")],
                [.text("control"), .text("bell\u{7}here")],
            ])
    }

    @Test func xlsxWriterConstantMemoryInlineStringsRead() throws {
        let sheet = try #require(XLSXReader.read(contentsOf: XLSXTestFiles.fixture("xlsxwriter-inline.xlsx")).first)
        #expect(sheet.name == "Inline")
        #expect(sheet.table.header == ["id", "date", "amount"])
        #expect(sheet.table.rows.count == 50)
        #expect(sheet.table.rows.first == [.text("row1"), .dateSerial("45293"), .number("1.25")])
        #expect(sheet.table.rows.last == [.text("row50"), .dateSerial("45342"), .number("62.5")])
    }
}
