import Foundation
import ZIPFoundation

/// A small valid workbook (one sheet using shared strings, a date style and every cell type) whose
/// parts the `xlsx-part` target replaces one at a time with the fuzzer's bytes.
public enum FuzzPackage {
    enum Part: CaseIterable {
        case worksheet
        case sharedStrings
        case styles
        case workbook
        case workbookRelationships
        /// The package's own relationships (`_rels/.rels`): the office document link sheetsync follows
        /// and the links it leaves alone (a LibreOffice `customXml` target outside the package).
        case packageRelationships

        var path: String {
            switch self {
            case .worksheet: return "xl/worksheets/sheet1.xml"
            case .sharedStrings: return "xl/sharedStrings.xml"
            case .styles: return "xl/styles.xml"
            case .workbook: return "xl/workbook.xml"
            case .workbookRelationships: return "xl/_rels/workbook.xml.rels"
            case .packageRelationships: return "_rels/.rels"
            }
        }
    }

    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let rels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let pkgRels = "http://schemas.openxmlformats.org/package/2006/relationships"

    /// The valid parts, by path, in archive order.
    static let parts: [(String, String)] = [
        (
            "[Content_Types].xml",
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#
                + #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#
                + #"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#
                + #"<Default Extension="xml" ContentType="application/xml"/>"#
                + #"<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#
                + #"<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#
                + #"<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>"#
                + #"<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#
                + "</Types>"
        ),
        (
            Part.packageRelationships.path,
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="\#(pkgRels)">"#
                + #"<Relationship Id="rId1" Type="\#(rels)/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
        ),
        (
            Part.workbook.path,
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="\#(main)" xmlns:r="\#(rels)">"#
                + #"<workbookPr/><sheets><sheet name="Transactions" sheetId="1" r:id="rId1"/></sheets></workbook>"#
        ),
        (
            Part.workbookRelationships.path,
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="\#(pkgRels)">"#
                + #"<Relationship Id="rId1" Type="\#(rels)/worksheet" Target="worksheets/sheet1.xml"/>"#
                + #"<Relationship Id="rId2" Type="\#(rels)/sharedStrings" Target="sharedStrings.xml"/>"#
                + #"<Relationship Id="rId3" Type="\#(rels)/styles" Target="styles.xml"/></Relationships>"#
        ),
        (
            Part.styles.path,
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="\#(main)">"#
                + #"<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>"#
                + #"<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/>"#
                + #"<xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>"#
        ),
        (
            Part.sharedStrings.path,
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="\#(main)" count="4" uniqueCount="4">"#
                + "<si><t>id</t></si><si><t>date</t></si><si><t xml:space=\"preserve\"> Groceries &amp; more </t></si>"
                + "<si><r><t>rich</t></r><r><rPr><b/></rPr><t>text</t></r></si></sst>"
        ),
        (
            Part.worksheet.path,
            #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="\#(main)"><sheetData>"#
                + #"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>amount</t></is></c>"#
                + #"<c r="D1" t="str"><v>note</v></c><c r="E1" t="s"><v>3</v></c></row>"#
                + #"<row r="2"><c r="A2"><v>1</v></c><c r="B2" s="1"><v>46000</v></c><c r="C2"><v>12.50</v></c>"#
                + #"<c r="D2" t="s"><v>2</v></c><c r="E2" t="b"><v>1</v></c><c r="F2" t="e"><v>#N/A</v></c>"#
                + #"<c r="G2" s="2"><v>46000.5</v></c><c r="H2" t="d"><v>2026-01-02T03:04:05</v></c></row>"#
                + #"<row r="4"><c r="C4"><f>C2*2</f><v>25</v></c></row></sheetData></worksheet>"#
        ),
    ]

    /// The package with the part `selector` picks (an `xlsx-part` input's first byte) replaced by `xml`.
    public static func workbook(selector: UInt8, xml: [UInt8]) -> Data? {
        zip(replacing: Part.allCases[Int(selector) % Part.allCases.count], with: xml)
    }

    /// The package with `part` replaced by `bytes`, stored uncompressed.
    static func zip(replacing part: Part, with bytes: [UInt8]) -> Data? {
        do {
            let archive = try Archive(accessMode: .create)
            for (path, text) in parts {
                let data = path == part.path ? Data(bytes) : Data(text.utf8)
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none
                ) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            return archive.data
        } catch {
            return nil
        }
    }
}
