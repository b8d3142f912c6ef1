import Foundation
import SheetSyncCore
import SheetValues
import TestSupport

@testable import Workbook

/// Hand-made packages for the odd cases: a set of parts written to a temporary `.xlsx`.
struct PartSet {
    var parts: [(String, Data)] = []

    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let rels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let packageRels = "http://schemas.openxmlformats.org/package/2006/relationships"

    init() {}

    /// The package of a workbook with sheets `names` (sheet `i` is `xl/worksheets/sheet<i>.xml`, which the
    /// caller adds) and `definedNames` (name, reference).
    static func sheets(_ names: [String], definedNames: [(String, String)] = []) -> PartSet {
        var set = PartSet()
        set.add("[Content_Types].xml", PartSet.contentTypes)
        set.add("_rels/.rels", PartSet.relationships([("rId1", "officeDocument", "xl/workbook.xml")]))
        let sheets = names.enumerated().map { #"<sheet name="\#($1)" sheetId="\#($0 + 1)" r:id="rId\#($0 + 1)"/>"# }.joined()
        let defined = definedNames.map { #"<definedName name="\#($0)">\#($1)</definedName>"# }.joined()
        set.add(
            "xl/workbook.xml",
            #"<workbook xmlns="\#(PartSet.main)" xmlns:r="\#(PartSet.rels)"><sheets>\#(sheets)</sheets>"#
                + (defined.isEmpty ? "" : "<definedNames>\(defined)</definedNames>") + "</workbook>")
        set.add(
            "xl/_rels/workbook.xml.rels",
            PartSet.relationships(names.indices.map { ("rId\($0 + 1)", "worksheet", "worksheets/sheet\($0 + 1).xml") }))
        return set
    }

    /// A minimal Transitional workbook whose single sheet "Sheet1" has `sheetData` as its rows XML.
    static func workbook(
        sheetData: String, sharedStrings: [String]? = nil, styles: String? = nil, workbookPr: String = ""
    ) -> PartSet {
        var set = PartSet()
        set.add("[Content_Types].xml", contentTypes)
        set.add("_rels/.rels", relationships([("rId1", "officeDocument", "xl/workbook.xml")]))
        set.add(
            "xl/workbook.xml",
            #"<workbook xmlns="\#(main)" xmlns:r="\#(rels)">\#(workbookPr)<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#
        )
        var workbookRels = [("rId1", "worksheet", "worksheets/sheet1.xml")]
        if let sharedStrings {
            workbookRels.append(("rId2", "sharedStrings", "sharedStrings.xml"))
            let items = sharedStrings.map { "<si>\($0)</si>" }.joined()
            set.add("xl/sharedStrings.xml", #"<sst xmlns="\#(main)">\#(items)</sst>"#)
        }
        if let styles {
            workbookRels.append(("rId3", "styles", "styles.xml"))
            set.add("xl/styles.xml", #"<styleSheet xmlns="\#(main)">\#(styles)</styleSheet>"#)
        }
        set.add("xl/_rels/workbook.xml.rels", relationships(workbookRels))
        set.add("xl/worksheets/sheet1.xml", #"<worksheet xmlns="\#(main)"><sheetData>\#(sheetData)</sheetData></worksheet>"#)
        return set
    }

    static let contentTypes =
        #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#
        + #"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#
        + #"<Default Extension="xml" ContentType="application/xml"/></Types>"#

    /// A `.rels` part; each relationship is (id, type suffix, target).
    static func relationships(_ items: [(String, String, String)], typeBase: String = rels) -> String {
        let body = items.map { #"<Relationship Id="\#($0.0)" Type="\#(typeBase)/\#($0.1)" Target="\#($0.2)"/>"# }
        return #"<Relationships xmlns="\#(packageRels)">\#(body.joined())</Relationships>"#
    }

    mutating func add(_ name: String, _ text: String) { parts.append((name, Data(text.utf8))) }
    mutating func add(_ name: String, data: Data) { parts.append((name, data)) }

    mutating func replace(_ name: String, _ text: String) {
        parts.removeAll { $0.0 == name }
        add(name, text)
    }

    /// Writes the parts to a fresh temporary file and returns its URL.
    func write(named fileName: String = "book.xlsx") throws -> URL {
        let url = try ScratchFolders.make("xlsx").appendingPathComponent(fileName)
        let writer = try PackageWriter(url: url)
        for (name, data) in parts { try writer.add(name, data: data) }
        try writer.finish()
        return url
    }

    /// Writes the parts and reads every sheet back as raw rows.
    func readRows() throws -> [XLSXRawSheet] {
        try XLSXReader.readRows(contentsOf: write())
    }

    /// The rows of the only sheet.
    func rows() throws -> [[Cell]] {
        try readRows().first?.rows ?? []
    }
}

/// Where the XLSX tests find their fixtures and put the files they write.
enum XLSXTestFiles {
    /// A path named `name` in a fresh scratch folder.
    static func scratch(_ name: String) throws -> URL {
        try ScratchFolders.make("xlsx").appendingPathComponent(name)
    }

    /// A committed fixture workbook.
    static func fixture(_ name: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw FixtureMissing(name: name)
        }
        return url
    }
}

struct FixtureMissing: Error, CustomStringConvertible {
    var name: String
    var description: String { "fixture '\(name)' is not in the test bundle" }
}
