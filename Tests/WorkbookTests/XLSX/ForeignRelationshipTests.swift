import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// Only the relationships sheetsync follows are judged. LibreOffice re-saves a workbook with
/// a `customXml` part linking it from `_rels/.rels` as `../customXml/item1.xml`, outside the package:
/// such a link, which sheetsync never follows, is ignored when reading and kept byte for byte on a push,
/// while a link sheetsync does follow (the workbook, a sheet, shared strings, styles, the calculation
/// chain; a sheet's comments, notes and tables on a push that moves rows) stays refused when it leaves
/// the package.
@Suite struct ForeignRelationshipTests {
    static let customXmlType = "customXml"

    /// A one-sheet workbook whose package relationships also link customXml parts as LibreOffice does.
    static func libreOfficeStyle(sheetData: String = #"<row r="1"><c r="A1"><v>1</v></c></row>"#) -> PartSet {
        var set = PartSet.workbook(sheetData: sheetData)
        set.replace(
            "_rels/.rels",
            PartSet.relationships([
                ("rId1", "officeDocument", "xl/workbook.xml"), ("rId5", customXmlType, "../customXml/item1.xml"),
                ("rId6", customXmlType, "../customXml/item2.xml"),
            ]))
        set.add("customXml/item1.xml", #"<b:Sources xmlns:b="urn:example"/>"#)
        set.add("customXml/item2.xml", #"<labels xmlns="urn:example"><label id="1"/></labels>"#)
        set.add(
            "customXml/_rels/item1.xml.rels", PartSet.relationships([("rId1", "customXmlProps", "itemProps1.xml")]))
        set.add("customXml/itemProps1.xml", #"<ds:datastoreItem xmlns:ds="urn:example"/>"#)
        return set
    }

    @Test func aLinkOutsideThePackageThatSheetsyncDoesNotFollowIsIgnoredWhenReading() throws {
        #expect(try Self.libreOfficeStyle().rows() == [[.number("1")]])
    }

    @Test(arguments: ["../../customXml/item1.xml", "/etc/passwd", "file:///etc/passwd", "C:\\evil.xml", ""])
    func anUnfollowedLinkInTheWorkbooksRelationshipsIsIgnoredToo(target: String) throws {
        var set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1"><v>1</v></c></row>"#)
        set.replace(
            "xl/_rels/workbook.xml.rels",
            PartSet.relationships([
                ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId7", "theme", target), ("rId8", Self.customXmlType, target),
            ]))
        #expect(try set.rows() == [[.number("1")]])
    }

    @Test func aPushCopiesTheUnfollowedLinksAndTheirPartsByteForByte() throws {
        let sheet =
            #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>"#
            + #"<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c></row>"#
            + #"<row r="3"><c r="A3" t="inlineStr"><is><t>b</t></is></c></row>"#
        var set = Self.libreOfficeStyle(sheetData: sheet)
        // A sheet with a drawing linked from outside the package (not followed) and notes inside it (followed).
        set.add(
            "xl/worksheets/_rels/sheet1.xml.rels",
            PartSet.relationships([("rId1", "drawing", "../../../drawings/drawing1.xml"), ("rId2", "comments", "../comments1.xml")]))
        set.add(
            "xl/comments1.xml",
            #"<comments xmlns="\#(PartSet.main)"><authors><author>me</author></authors><commentList>"#
                + #"<comment ref="A3" authorId="0"><text><t>note</t></text></comment></commentList></comments>"#)
        let original = try set.write()
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        var changes = TableChanges()
        changes.deletedRows = [0]
        try XLSXWriter.patch(
            original, to: url, patches: [WorksheetPatch(sheet: "Sheet1", changes: changes, dataRowCount: 2, ledgerColumns: [1])],
            adding: [])

        let old = try XLSXPackage(url: original)
        let new = try XLSXPackage(url: url)
        for part in [
            "_rels/.rels", "customXml/item1.xml", "customXml/item2.xml", "customXml/_rels/item1.xml.rels", "customXml/itemProps1.xml",
            "xl/worksheets/_rels/sheet1.xml.rels",
        ] {
            #expect(try new.data(part) == old.data(part), "\(part) changed")
        }
        // The followed link was followed: the note moved up with its row.
        #expect(String(decoding: try new.data("xl/comments1.xml"), as: UTF8.self).contains(#"ref="A2""#))
        #expect(try XLSXReader.readRows(contentsOf: url).first?.rows == [[.text("id")], [.text("b")]])
    }

    @Test func aPreservingWriteCopiesThemToo() throws {
        let original = try Self.libreOfficeStyle().write()
        let url = try XLSXTestFiles.scratch("written.xlsx")
        let sheet = XLSXSheet(name: "Receipts", table: Table(header: ["receiptId"], rows: [[.text("r1")]]))
        try XLSXWriter.write([sheet], to: url, preservingOtherSheetsFrom: original)
        let old = try XLSXPackage(url: original)
        let new = try XLSXPackage(url: url)
        for part in ["_rels/.rels", "customXml/item1.xml", "customXml/item2.xml", "customXml/_rels/item1.xml.rels"] {
            #expect(try new.data(part) == old.data(part), "\(part) changed")
        }
        #expect(try XLSXReader.sheetNames(contentsOf: url) == ["Sheet1", "Receipts"])
    }

    // MARK: links sheetsync follows stay refused

    @Test(arguments: [
        ("_rels/.rels", "officeDocument", "../xl/workbook.xml"),
        ("xl/_rels/workbook.xml.rels", "worksheet", "../../worksheets/sheet1.xml"),
        ("xl/_rels/workbook.xml.rels", "sharedStrings", "../../sharedStrings.xml"),
        ("xl/_rels/workbook.xml.rels", "styles", "file:///styles.xml"),
    ])
    func aLinkSheetsyncFollowsOutOfThePackageIsRefused(relsPart: String, type: String, target: String) throws {
        var set = Self.libreOfficeStyle()
        switch type {
        case "officeDocument": set.replace(relsPart, PartSet.relationships([("rIdX", type, target)]))
        case "worksheet": set.replace(relsPart, PartSet.relationships([("rId1", type, target)]))
        default:
            set.replace(relsPart, PartSet.relationships([("rId1", "worksheet", "worksheets/sheet1.xml"), ("rIdX", type, target)]))
        }
        let error = try #require(throws: XLSXError.self) { try set.readRows() }
        #expect(error.kind == .unsafePath)
        #expect(error.part == relsPart)
        #expect(error.message.contains("\(type) relationship"), "\(error)")
        #expect(error.message.contains("'\(target)'"), "\(error)")
        #expect(error.message.contains("outside the package"), "\(error)")
        #expect(error.message.contains("refused"), "\(error)")
    }

    @Test func theCalculationChainIsFollowedByAPushSoItsLinkMustStayInside() throws {
        var set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>"#)
        set.replace(
            "xl/_rels/workbook.xml.rels",
            PartSet.relationships([("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId5", "calcChain", "../../calcChain.xml")]))
        let original = try set.write()
        // Reading does not go there.
        #expect(try XLSXReader.readRows(contentsOf: original).count == 1)
        let error = try #require(throws: XLSXError.self) {
            try XLSXWriter.patch(original, to: XLSXTestFiles.scratch("pushed.xlsx"), patches: [], adding: [])
        }
        #expect(error.kind == .unsafePath)
        #expect(error.message.contains("calcChain relationship 'rId5'"), "\(error)")
    }

    @Test(arguments: ["comments", "table", "vmlDrawing"])
    func aSheetsNotesAndTablesAreFollowedWhenRowsMoveSoTheirLinksMustStayInside(type: String) throws {
        let sheet = #"<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>"#
        var set = PartSet.workbook(sheetData: sheet)
        set.add("xl/worksheets/_rels/sheet1.xml.rels", PartSet.relationships([("rId1", type, "../../../x.xml")]))
        let original = try set.write()
        #expect(try XLSXReader.readRows(contentsOf: original).first?.rows.count == 2)
        var changes = TableChanges()
        changes.deletedRows = [0]
        let error = try #require(throws: XLSXError.self) {
            try XLSXWriter.patch(
                original, to: XLSXTestFiles.scratch("pushed.xlsx"),
                patches: [WorksheetPatch(sheet: "Sheet1", changes: changes, dataRowCount: 1, ledgerColumns: [1])], adding: [])
        }
        #expect(error.kind == .unsafePath)
        #expect(error.part == "xl/worksheets/_rels/sheet1.xml.rels")
        #expect(error.message.contains("'../../../x.xml'"), "\(error)")
    }

    // MARK: a real file

    /// PhpSpreadsheet's `grouped_images.xlsx`, saved by LibreOffice 25.8: a real file sheetsync refused.
    @Test func phpSpreadsheetsLibreOfficeSaveReadsAndAPushKeepsItsCustomXmlByteForByte() throws {
        let original = try XLSXTestFiles.fixture("phpspreadsheet-grouped_images.xlsx")
        let rels = String(decoding: try XLSXPackage(url: original).data("_rels/.rels"), as: UTF8.self)
        #expect(rels.contains(#"Target="../customXml/item1.xml""#))
        #expect(try XLSXReader.sheetNames(contentsOf: original) == ["LMNP_page garde"])
        _ = try XLSXReader.readRows(contentsOf: original)

        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        let ledger = XLSXSheet(name: "Transactions", table: Table(header: ["id", "amount"], rows: [[.text("t1"), .number("12.5")]]))
        try XLSXWriter.write([ledger], to: url, preservingOtherSheetsFrom: original)
        let old = try XLSXPackage(url: original)
        let new = try XLSXPackage(url: url)
        let edited: Set<String> = ["xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml", "xl/styles.xml"]
        for name in old.entryNames where !edited.contains(name) {
            #expect(try new.data(name) == old.data(name), "part \(name) changed")
        }
        #expect(try XLSXReader.read(contentsOf: url, sheets: ["Transactions"]) == [ledger])
    }
}
