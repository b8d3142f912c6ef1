import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct XLSXReaderPackageTests {
    static let strictMain = "http://purl.oclc.org/ooxml/spreadsheetml/main"
    static let strictRels = "http://purl.oclc.org/ooxml/officeDocument/relationships"

    @Test func aWorkbookAtThePackageRootWithAbsoluteTargetsIsFound() throws {
        var set = PartSet()
        set.add("[Content_Types].xml", PartSet.contentTypes)
        set.add("_rels/.rels", PartSet.relationships([("r1", "officeDocument", "/book.xml")]))
        set.add(
            "book.xml",
            #"<workbook xmlns="\#(PartSet.main)" xmlns:r="\#(PartSet.rels)"><sheets><sheet name="Data" sheetId="4" r:id="s"/></sheets></workbook>"#
        )
        set.add(
            "_rels/book.xml.rels", PartSet.relationships([("s", "worksheet", "/parts/data.xml"), ("t", "sharedStrings", "strings.xml")]))
        set.add("strings.xml", #"<sst xmlns="\#(PartSet.main)"><si><t>hello</t></si></sst>"#)
        set.add(
            "parts/data.xml",
            #"<worksheet xmlns="\#(PartSet.main)"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>"#)
        #expect(try set.readRows() == [XLSXRawSheet(name: "Data", rows: [[.text("hello")]])])
    }

    @Test func strictNamespacesAndPrefixedElementsReadByLocalName() throws {
        var set = PartSet()
        set.add("[Content_Types].xml", PartSet.contentTypes)
        set.add("_rels/.rels", PartSet.relationships([("rId1", "officeDocument", "xl/workbook.xml")], typeBase: Self.strictRels))
        set.add(
            "xl/workbook.xml",
            #"<x:workbook xmlns:x="\#(Self.strictMain)" xmlns:rel="\#(Self.strictRels)" conformance="strict"><x:workbookPr date1904="0"/><x:sheets><x:sheet name="S" sheetId="1" rel:id="rId7"/></x:sheets></x:workbook>"#
        )
        set.add(
            "xl/_rels/workbook.xml.rels",
            PartSet.relationships([("rId7", "worksheet", "sheets/../worksheets/s.xml")], typeBase: Self.strictRels))
        set.add(
            "xl/worksheets/s.xml",
            #"<x:worksheet xmlns:x="\#(Self.strictMain)"><x:sheetData><x:row r="2"><x:c r="B2" t="inlineStr"><x:is><x:t>strict</x:t></x:is></x:c><x:c r="C2"><x:v>7</x:v></x:c></x:row></x:sheetData></x:worksheet>"#
        )
        #expect(try set.rows() == [[], [.empty, .text("strict"), .number("7")]])
    }

    @Test func sheetsComeInWorkbookOrderAndCanBeChosenByNameIgnoringCase() throws {
        var set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1"><v>1</v></c></row>"#)
        set.replace(
            "xl/workbook.xml",
            #"<workbook xmlns="\#(PartSet.main)" xmlns:r="\#(PartSet.rels)"><sheets><sheet name="Zed" sheetId="2" r:id="rId9"/><sheet name="Chart" sheetId="3" r:id="rId8"/><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#
        )
        set.replace(
            "xl/_rels/workbook.xml.rels",
            PartSet.relationships([
                ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId9", "worksheet", "worksheets/zed.xml"),
                ("rId8", "chartsheet", "chartsheets/chart1.xml"),
            ]))
        set.add("xl/worksheets/zed.xml", #"<worksheet xmlns="\#(PartSet.main)"><sheetData/></worksheet>"#)
        let url = try set.write()
        #expect(try XLSXReader.sheetNames(contentsOf: url) == ["Zed", "Sheet1"])
        #expect(try XLSXReader.readRows(contentsOf: url).map(\.name) == ["Zed", "Sheet1"])
        let chosen = try XLSXReader.read(contentsOf: url, sheets: ["sheet1", "Missing"])
        #expect(chosen == [XLSXSheet(name: "Sheet1", table: Table(header: ["1"], rows: []))])
    }

    @Test func theHeaderIsTheFirstRowsTextAndRowsIndexTheirRealRowNumber() throws {
        let sheet = """
            <row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1"><v>2024</v></c></row>\
            <row r="3"><c r="A3" t="inlineStr"><is><t>third</t></is></c></row>
            """
        let read = try XLSXReader.read(contentsOf: PartSet.workbook(sheetData: sheet).write())
        #expect(read == [XLSXSheet(name: "Sheet1", table: Table(header: ["name", "2024"], rows: [[], [.text("third")]]))])
        #expect(Table.sheetRowNumber(ofDataRow: 1) == 3)
    }

    @Test func aSheetWhosePartIsMissingIsAnErrorNamingThePart() throws {
        var set = PartSet.workbook(sheetData: "")
        set.parts.removeAll { $0.0 == "xl/worksheets/sheet1.xml" }
        let error = try #require(throws: XLSXError.self) { try set.readRows() }
        #expect(error.kind == .missingPart)
        #expect(
            error.description
                == "book.xlsx: part 'xl/worksheets/sheet1.xml' is missing from the package (the workbook lists it as sheet 'Sheet1')")
    }

    @Test func aPackageWithoutAnOfficeDocumentRelationshipIsRefused() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace("_rels/.rels", PartSet.relationships([("rId1", "extended-properties", "docProps/app.xml")]))
        let error = try #require(throws: XLSXError.self) { try set.readRows() }
        #expect(error.kind == .missingPart)
        #expect(error.description == "book.xlsx: part '_rels/.rels' names no workbook part (it has no officeDocument relationship)")
    }

    @Test func partNamesMatchIgnoringCaseAsOPCRequires() throws {
        var set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1"><v>1</v></c></row>"#)
        set.replace("xl/_rels/workbook.xml.rels", PartSet.relationships([("rId1", "worksheet", "Worksheets/Sheet1.XML")]))
        #expect(try set.rows() == [[.number("1")]])
    }

    @Test func aFileThatIsNotAZipArchiveIsRefusedClearly() throws {
        let url = try XLSXTestFiles.scratch("notes.xlsx")
        try Data("just text".utf8).write(to: url)
        let error = try #require(throws: XLSXError.self) { try XLSXReader.read(contentsOf: url) }
        #expect(error.kind == .notAPackage)
        #expect(error.description == #"notes.xlsx: is not an XLSX workbook (not a ZIP archive): it begins with "just text""#)
        let missing = try #require(throws: XLSXError.self) {
            try XLSXReader.read(contentsOf: url.deletingLastPathComponent().appendingPathComponent("gone.xlsx"))
        }
        #expect(missing.description == "gone.xlsx: no such file")
    }

    @Test func malformedXMLIsReportedWithThePartAndLine() throws {
        let set = PartSet.workbook(sheetData: "<row r=\"1\">\n<c r=\"A1\"><v>1</v></row>")
        let error = try #require(throws: XLSXError.self) { try set.rows() }
        #expect(error.kind == .malformedPart)
        #expect(error.description.hasPrefix("book.xlsx: part 'xl/worksheets/sheet1.xml' is not well-formed XML at line 2: "))
    }

    @Test func partPathsResolveRelativeAndAbsoluteTargets() throws {
        #expect(try PartPath.resolve(target: "worksheets/sheet1.xml", from: "xl/workbook.xml") == "xl/worksheets/sheet1.xml")
        #expect(try PartPath.resolve(target: "/xl/styles.xml", from: "xl/workbook.xml") == "xl/styles.xml")
        #expect(try PartPath.resolve(target: "../media/a%20b.png", from: "xl/drawings/d.xml") == "xl/media/a b.png")
        #expect(try PartPath.resolve(target: "xl/workbook.xml", from: "") == "xl/workbook.xml")
        #expect(PartPath.relationshipsPart(of: "book.xml") == "_rels/book.xml.rels")
    }
}
