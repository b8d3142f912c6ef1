import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct XLSXSafetyTests {
    @Test func aDoctypeIsRefusedBeforeAnyEntityIsDeclared() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace(
            "xl/worksheets/sheet1.xml",
            """
            <?xml version="1.0"?>
            <!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <worksheet xmlns="\(PartSet.main)"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&b;</t></is></c></row></sheetData></worksheet>
            """)
        let error = try #require(throws: XLSXError.self) { try set.rows() }
        #expect(error.kind == .doctypeRefused)
        #expect(error.description == "book.xlsx: part 'xl/worksheets/sheet1.xml' declares a DOCTYPE (refused)")
    }

    @Test func anExternalDoctypeIsRefusedToo() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace(
            "xl/workbook.xml",
            #"<!DOCTYPE workbook SYSTEM "http://127.0.0.1:9/evil.dtd"><workbook xmlns="\#(PartSet.main)"/>"#)
        let error = try #require(throws: XLSXError.self) { try set.readRows() }
        #expect(error.description == "book.xlsx: part 'xl/workbook.xml' declares a DOCTYPE (refused)")
    }

    @Test func anUndeclaredEntityIsMalformedNotSubstituted() throws {
        let set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1" t="inlineStr"><is><t>&xxe;</t></is></c></row>"#)
        let error = try #require(throws: XLSXError.self) { try set.rows() }
        #expect(error.kind == .malformedPart)
        #expect(error.description.contains("xxe"))
    }

    @Test func predefinedAndCharacterReferencesAreDecodedInTextAndAttributes() throws {
        var set = PartSet.workbook(
            sheetData: #"<row r="1"><c r="A1" t="inlineStr"><is><t>&lt;a&gt; &amp; &#x263A; &#38;</t></is></c></row>"#)
        set.replace(
            "xl/workbook.xml",
            #"<workbook xmlns="\#(PartSet.main)" xmlns:r="\#(PartSet.rels)"><sheets><sheet name="R&amp;D &quot;&#38;&quot;" sheetId="1" r:id="rId1"/></sheets></workbook>"#
        )
        #expect(try set.readRows() == [XLSXRawSheet(name: "R&D \"&\"", rows: [[.text("<a> & ☺ &")]])])
    }

    @Test func aHighlyCompressedPartIsRefusedAsAZipBomb() throws {
        var set = PartSet.workbook(sheetData: "")
        let padding = String(repeating: " ", count: 16 * 1024 * 1024)
        set.replace("xl/worksheets/sheet1.xml", #"<worksheet xmlns="\#(PartSet.main)">\#(padding)<sheetData/></worksheet>"#)
        let error = try #require(throws: XLSXError.self) { try set.rows() }
        #expect(error.kind == .compressionRatioExceeded)
        #expect(error.description.hasPrefix("book.xlsx: part 'xl/worksheets/sheet1.xml' inflates more than 1000× its compressed size"))
    }

    @Test func theRatioGuardSparesSmallPartsAndOrdinaryCompression() throws {
        let rows = (1...3000).map { #"<row r="\#($0)"><c r="A\#($0)"><v>\#($0 * 7919 % 10007)</v></c></row>"# }
        let read = try PartSet.workbook(sheetData: rows.joined()).rows()
        #expect(read.count == 3000)
        #expect(read[2999] == [.number(String(3000 * 7919 % 10007))])
    }

    @Test func aPartLargerThanTheCapIsRefusedBeforeItIsInflated() throws {
        let rows = (1...200).map { #"<row r="\#($0)"><c r="A\#($0)"><v>\#($0)</v></c></row>"# }
        let url = try PartSet.workbook(sheetData: rows.joined()).write()
        let limits = XLSXLimits(maximumPartBytes: 4096)
        let error = try #require(throws: XLSXError.self) { try XLSXReader.read(contentsOf: url, limits: limits) }
        #expect(error.kind == .partTooLarge)
        #expect(error.description.hasPrefix("book.xlsx: part 'xl/worksheets/sheet1.xml' declares "))
        #expect(error.description.hasSuffix(" bytes inflated, past the 4096-byte limit (refused)"))
    }

    @Test func tooManyPartsAreRefused() throws {
        var set = PartSet.workbook(sheetData: "")
        for index in 0..<20 { set.add("customXml/item\(index).xml", "<a/>") }
        let url = try set.write()
        let error = try #require(throws: XLSXError.self) {
            try XLSXReader.read(contentsOf: url, limits: XLSXLimits(maximumParts: 10))
        }
        #expect(error.description == "book.xlsx: holds more than 10 parts (refused)")
    }

    @Test(arguments: ["../evil.xml", "/etc/evil.xml", "xl/../../evil.xml", "C:/evil.xml", "xl\\..\\..\\evil.xml"])
    func entryNamesThatLeaveThePackageAreRefused(name: String) throws {
        var set = PartSet.workbook(sheetData: "")
        set.add(name, "<a/>")
        let error = try #require(throws: XLSXError.self) { try set.readRows() }
        #expect(error.kind == .unsafePath)
        #expect(error.description == "book.xlsx: part '\(name)' has a name outside the package (refused)")
    }

    @Test(arguments: ["../../evil.xml", "file:///etc/passwd", "C:\\evil.xml", "//host/share/evil.xml"])
    func relationshipTargetsThatLeaveThePackageAreRefused(target: String) throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace("xl/_rels/workbook.xml.rels", PartSet.relationships([("rId1", "worksheet", target)]))
        let error = try #require(throws: XLSXError.self) { try set.readRows() }
        #expect(error.kind == .unsafePath)
        #expect(
            error.description.hasPrefix(
                "book.xlsx: part 'xl/_rels/workbook.xml.rels' has a worksheet relationship 'rId1' whose target '\(target)' lies outside the package: "
            ), "\(error)")
        #expect(error.description.hasSuffix(" (refused: sheetsync would follow it)"), "\(error)")
    }

    @Test func externalTargetsAreIgnoredNotFollowed() throws {
        var set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1"><v>1</v></c></row>"#)
        set.replace(
            "xl/_rels/workbook.xml.rels",
            PartSet.relationships([("rId1", "worksheet", "worksheets/sheet1.xml")]).replacingOccurrences(
                of: "</Relationships>",
                with:
                    #"<Relationship Id="x" Type="\#(PartSet.rels)/externalLink" Target="file:///etc/passwd" TargetMode="External"/></Relationships>"#
            ))
        #expect(try set.rows() == [[.number("1")]])
    }
}
