import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct XLSXPreservingWriterTests {
    static let ledger = XLSXSheet(
        name: "Types",
        table: Table(header: ["id", "date"], rows: [[.text("n1"), .dateSerial("45400")], [.text("n2"), .dateSerial("45400.5")]]))
    static let added = XLSXSheet(name: "Receipts", table: Table(header: ["receiptId"], rows: [[.text("r1")]]))

    @Test func otherSheetsAndPartsSurviveByteForByte() throws {
        let original = try XLSXTestFiles.fixture("openpyxl-types.xlsx")
        let url = try XLSXTestFiles.scratch("push.xlsx")
        try XLSXWriter.write([Self.ledger, Self.added], to: url, preservingOtherSheetsFrom: original)

        let before = try XLSXReader.read(contentsOf: original)
        let after = try XLSXReader.read(contentsOf: url)
        #expect(after.map(\.name) == ["Types", "R&D ü", "Hidden", "Receipts"])
        #expect(after[0] == Self.ledger)
        #expect(after[1] == before[1])
        #expect(after[2] == before[2])
        #expect(after[3] == Self.added)

        let old = try XLSXPackage(url: original)
        let new = try XLSXPackage(url: url)
        let edited: Set<String> = [
            "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml", "xl/styles.xml", "xl/worksheets/sheet1.xml",
        ]
        for name in old.entryNames where !edited.contains(name) {
            #expect(try new.data(name) == old.data(name), "part \(name) changed")
        }
        #expect(new.entryNames.last == "xl/worksheets/sheet4.xml")
    }

    @Test func aSecondPushReusesTheDateStylesItAdded() throws {
        let first = try XLSXTestFiles.scratch("first.xlsx")
        let second = try XLSXTestFiles.scratch("second.xlsx")
        try XLSXWriter.write([Self.ledger], to: first, preservingOtherSheetsFrom: XLSXTestFiles.fixture("xlsxwriter-formats.xlsx"))
        try XLSXWriter.write([Self.ledger], to: second, preservingOtherSheetsFrom: first)
        let styles = try XLSXPackage(url: first).data("xl/styles.xml")
        #expect(try XLSXPackage(url: second).data("xl/styles.xml") == styles)
        #expect(try XLSXReader.read(contentsOf: second, sheets: ["Types"]) == [Self.ledger])
        // The original's own date formats still read as they did.
        let formats = try #require(XLSXReader.read(contentsOf: second, sheets: ["Formats"]).first)
        #expect(formats.table.rows[1] == [.text("google date"), .dateSerial("45356")])
    }

    @Test func theCalcChainAndTheReplacedSheetsRelationshipsAreDropped() throws {
        var set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>"#)
        set.replace(
            "xl/_rels/workbook.xml.rels",
            PartSet.relationships([("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId5", "calcChain", "calcChain.xml")]))
        set.add("xl/calcChain.xml", #"<calcChain xmlns="\#(PartSet.main)"><c r="A1" i="1"/></calcChain>"#)
        set.add("xl/worksheets/_rels/sheet1.xml.rels", PartSet.relationships([("rId1", "comments", "../comments1.xml")]))
        set.add("xl/comments1.xml", #"<comments xmlns="\#(PartSet.main)"/>"#)
        set.replace(
            "[Content_Types].xml",
            PartSet.contentTypes.replacingOccurrences(
                of: "</Types>",
                with:
                    #"<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/></Types>"#
            ))
        let url = try XLSXTestFiles.scratch("push.xlsx")
        let sheet = XLSXSheet(name: "Sheet1", table: Table(header: ["fresh"]))
        try XLSXWriter.write([sheet], to: url, preservingOtherSheetsFrom: set.write())

        let package = try XLSXPackage(url: url)
        #expect(!package.contains("xl/calcChain.xml"))
        #expect(!package.contains("xl/worksheets/_rels/sheet1.xml.rels"))
        #expect(!String(decoding: try package.data("xl/_rels/workbook.xml.rels"), as: UTF8.self).contains("calcChain"))
        #expect(!String(decoding: try package.data("[Content_Types].xml"), as: UTF8.self).contains("calcChain"))
        #expect(try XLSXReader.read(contentsOf: url) == [sheet])
    }

    @Test func aWorkbookWithoutStylesGetsAStylesPart() throws {
        let url = try XLSXTestFiles.scratch("push.xlsx")
        try XLSXWriter.write([Self.ledger], to: url, preservingOtherSheetsFrom: PartSet.workbook(sheetData: "").write())
        let read = try XLSXReader.read(contentsOf: url)
        #expect(read.map(\.name) == ["Sheet1", "Types"])
        #expect(read[1] == Self.ledger)
        let types = String(decoding: try XLSXPackage(url: url).data("[Content_Types].xml"), as: UTF8.self)
        #expect(types.contains(#"PartName="/xl/styles.xml""#))
    }

    @Test func strictAndPrefixedWorkbooksGetMatchingAdditions() throws {
        let main = XLSXReaderPackageTests.strictMain
        let rels = XLSXReaderPackageTests.strictRels
        var set = PartSet()
        set.add("[Content_Types].xml", PartSet.contentTypes)
        set.add("_rels/.rels", PartSet.relationships([("rId1", "officeDocument", "xl/workbook.xml")], typeBase: rels))
        set.add(
            "xl/workbook.xml",
            #"<x:workbook xmlns:x="\#(main)" xmlns:rel="\#(rels)"><x:sheets><x:sheet name="Old" sheetId="3" rel:id="rId1"/></x:sheets></x:workbook>"#
        )
        set.add("xl/_rels/workbook.xml.rels", PartSet.relationships([("rId1", "worksheet", "worksheets/sheet1.xml")], typeBase: rels))
        set.add("xl/worksheets/sheet1.xml", #"<x:worksheet xmlns:x="\#(main)"><x:sheetData/></x:worksheet>"#)
        let url = try XLSXTestFiles.scratch("push.xlsx")
        try XLSXWriter.write([Self.added], to: url, preservingOtherSheetsFrom: set.write())

        let package = try XLSXPackage(url: url)
        let workbook = String(decoding: try package.data("xl/workbook.xml"), as: UTF8.self)
        #expect(workbook.contains(#"<x:sheet name="Receipts" sheetId="4" rel:id="rId3"/>"#))
        let relationships = String(decoding: try package.data("xl/_rels/workbook.xml.rels"), as: UTF8.self)
        #expect(relationships.contains(#"Type="\#(rels)/worksheet" Target="worksheets/sheet2.xml""#))
        #expect(try XLSXReader.read(contentsOf: url).map(\.name) == ["Old", "Receipts"])
    }

    @Test func aSheetNameMatchingIgnoringCaseReplacesThatSheet() throws {
        let url = try XLSXTestFiles.scratch("push.xlsx")
        var lower = Self.ledger
        lower.name = "types"
        try XLSXWriter.write([lower], to: url, preservingOtherSheetsFrom: XLSXTestFiles.fixture("openpyxl-types.xlsx"))
        let read = try XLSXReader.read(contentsOf: url)
        #expect(read.map(\.name) == ["Types", "R&D ü", "Hidden"])
        #expect(read[0].table == Self.ledger.table)
    }

    @Test func theReplacedSheetKeepsItsFrameButNotItsRelationships() throws {
        let url = try XLSXTestFiles.scratch("push.xlsx")
        let sheet = XLSXSheet(
            name: "Transactions",
            table: Table(
                header: ["id", "date", "category", "amount"], rows: [[.text("t9"), .dateSerial("45400"), .text("Rent"), .number("5")]]))
        let original = try XLSXTestFiles.fixture("openpyxl-formatted.xlsx")
        try XLSXWriter.write([sheet], to: url, preservingOtherSheetsFrom: original)

        let package = try XLSXPackage(url: url)
        let xml = String(decoding: try package.data("xl/worksheets/sheet1.xml"), as: UTF8.self)
        #expect(xml.contains(#"<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen" />"#))
        #expect(xml.contains(#"<col width="40" customWidth="1" min="1" max="1" />"#))
        #expect(xml.contains(#"<dataValidation sqref="C2:C1000""#))
        #expect(xml.contains(#"<conditionalFormatting sqref="D2:D1000">"#))
        #expect(xml.contains(#"<pageMargins "#))
        for gone in ["<hyperlinks", "legacyDrawing", "<dimension", "relationships"] {
            #expect(!xml.contains(gone), "\(gone) should be gone")
        }
        #expect(!package.contains("xl/worksheets/_rels/sheet1.xml.rels"))
        let read = try XLSXReader.read(contentsOf: url)
        #expect(read.first == sheet)
        #expect(read.last == XLSXSheet(name: "Notes", table: Table(header: ["my own notes"])))
    }

    @Test func datesWrittenIntoA1904WorkbookAreStoredInItsSystem() throws {
        let url = try XLSXTestFiles.scratch("push.xlsx")
        let mac = XLSXSheet(name: "Mac", table: Table(header: ["date"], rows: [[.dateSerial("45356")], [.dateSerial("45356.5")]]))
        try XLSXWriter.write([mac, Self.added], to: url, preservingOtherSheetsFrom: XLSXTestFiles.fixture("openpyxl-1904.xlsx"))
        let xml = String(decoding: try XLSXPackage(url: url).data("xl/worksheets/sheet1.xml"), as: UTF8.self)
        #expect(xml.contains("<v>43894</v>"))
        #expect(xml.contains("<v>43894.5</v>"))
        #expect(try XLSXReader.read(contentsOf: url) == [mac, Self.added])
    }

    @Test func printerSettingsLoseOnlyTheirRelationshipId() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace(
            "xl/worksheets/sheet1.xml",
            #"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="\#(PartSet.main)" xmlns:r="\#(PartSet.rels)"><dimension ref="A1:Z99"/><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData><pageSetup orientation="landscape" r:id="rId1"/></worksheet>"#
        )
        set.add(
            "xl/worksheets/_rels/sheet1.xml.rels",
            PartSet.relationships([("rId1", "printerSettings", "../printerSettings/printerSettings1.bin")]))
        let url = try XLSXTestFiles.scratch("push.xlsx")
        let sheet = XLSXSheet(name: "Sheet1", table: Table(header: ["a"], rows: [[.number("2")]]))
        try XLSXWriter.write([sheet], to: url, preservingOtherSheetsFrom: set.write())
        let xml = String(decoding: try XLSXPackage(url: url).data("xl/worksheets/sheet1.xml"), as: UTF8.self)
        #expect(xml.hasSuffix(#"</sheetData><pageSetup orientation="landscape"/></worksheet>"#))
        #expect(xml.contains(#"<cols><col min="1" max="1" width="8" customWidth="1"/></cols><sheetData>"#))
        #expect(!xml.contains("<dimension"))
        #expect(try XLSXReader.read(contentsOf: url) == [sheet])
    }

    @Test func aFrameThatCannotBeKeptSafelyGivesWayToAFreshOne() throws {
        let main = PartSet.main
        let prefixed =
            #"<x:worksheet xmlns:x="\#(main)"><x:sheetViews><x:sheetView workbookViewId="0"/></x:sheetViews><x:sheetData/></x:worksheet>"#
        let slicer =
            #"<worksheet xmlns="\#(main)" xmlns:r="\#(PartSet.rels)"><sheetData/><extLst><ext uri="x"><slicerList><slicer r:id="rId4"/></slicerList></ext></extLst></worksheet>"#
        for original in [prefixed, slicer] {
            var set = PartSet.workbook(sheetData: "")
            set.replace("xl/worksheets/sheet1.xml", original)
            let url = try XLSXTestFiles.scratch("push.xlsx")
            let sheet = XLSXSheet(name: "Sheet1", table: Table(header: ["a"], rows: [[.number("1")]]))
            try XLSXWriter.write([sheet], to: url, preservingOtherSheetsFrom: set.write())
            let xml = String(decoding: try XLSXPackage(url: url).data("xl/worksheets/sheet1.xml"), as: UTF8.self)
            #expect(xml.hasPrefix("<?xml"))
            #expect(!xml.contains("x:sheetView") && !xml.contains("slicer"))
            #expect(try XLSXReader.read(contentsOf: url) == [sheet])
        }
    }

    @Test func writingOverTheOriginalItselfIsRefused() throws {
        let url = try XLSXTestFiles.scratch("book.xlsx")
        try FileManager.default.copyItem(at: XLSXTestFiles.fixture("openpyxl-types.xlsx"), to: url)
        let error = try #require(throws: XLSXError.self) {
            try XLSXWriter.write([Self.ledger], to: url, preservingOtherSheetsFrom: url)
        }
        #expect(error.description == "book.xlsx: cannot be written over the workbook it is copied from")
        #expect(try XLSXReader.sheetNames(contentsOf: url) == ["Types", "R&D ü", "Hidden"])
    }

    @Test func anUnsafeOriginalIsRefusedBeforeAnythingIsWritten() throws {
        var set = PartSet.workbook(sheetData: "")
        set.add("../escape.xml", "<a/>")
        let url = try XLSXTestFiles.scratch("push.xlsx")
        let error = try #require(throws: XLSXError.self) {
            try XLSXWriter.write([Self.ledger], to: url, preservingOtherSheetsFrom: set.write())
        }
        #expect(error.kind == .unsafePath)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
