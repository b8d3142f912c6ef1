/// The small fixed parts of a fresh package, as Excel, LibreOffice and Google Sheets expect them.
enum PackageParts {
    static let mainNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let relationshipsNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let worksheetRelationshipType = relationshipsNamespace + "/worksheet"
    static let worksheetContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
    static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"

    /// Style 0 is the default; 1 and 2 are the date and date-time formats worksheets refer to.
    static let freshDateStyles = DateStyles(date: 1, dateTime: 2)
    static let dateFormatCode = "yyyy-mm-dd"
    static let dateTimeFormatCode = "yyyy-mm-dd hh:mm:ss"

    static func contentTypes(sheetCount: Int) -> String {
        var xml = declaration
        xml += #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#
        xml += #"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#
        xml += #"<Default Extension="xml" ContentType="application/xml"/>"#
        xml += #"<Override PartName="/xl/workbook.xml" "#
        xml += #"ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#
        xml += #"<Override PartName="/xl/styles.xml" "#
        xml += #"ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#
        for index in stride(from: 1, through: sheetCount, by: 1) {
            xml += #"<Override PartName="/xl/worksheets/sheet\#(index).xml" ContentType="\#(worksheetContentType)"/>"#
        }
        xml += "</Types>"
        return xml
    }

    static let packageRelationships =
        declaration
        + #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
        + #"<Relationship Id="rId1" Type="\#(relationshipsNamespace)/officeDocument" Target="xl/workbook.xml"/>"#
        + "</Relationships>"

    static func workbook(sheetNames: [String]) -> String {
        var xml = declaration
        xml += #"<workbook xmlns="\#(mainNamespace)" xmlns:r="\#(relationshipsNamespace)">"#
        xml += #"<workbookPr/><bookViews><workbookView activeTab="0"/></bookViews><sheets>"#
        for (index, name) in sheetNames.enumerated() {
            xml += #"<sheet name="\#(XMLText.attribute(name))" sheetId="\#(index + 1)" r:id="rId\#(index + 1)"/>"#
        }
        xml += "</sheets></workbook>"
        return xml
    }

    static func workbookRelationships(sheetCount: Int) -> String {
        var xml = declaration
        xml += #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
        for index in 0..<sheetCount {
            xml += #"<Relationship Id="rId\#(index + 1)" Type="\#(worksheetRelationshipType)" "#
            xml += #"Target="worksheets/sheet\#(index + 1).xml"/>"#
        }
        xml += #"<Relationship Id="rId\#(sheetCount + 1)" Type="\#(relationshipsNamespace)/styles" "#
        xml += #"Target="styles.xml"/>"#
        xml += "</Relationships>"
        return xml
    }

    static let styles =
        declaration
        + #"<styleSheet xmlns="\#(mainNamespace)">"#
        + #"<numFmts count="2"><numFmt numFmtId="164" formatCode="\#(dateFormatCode)"/>"#
        + #"<numFmt numFmtId="165" formatCode="\#(dateTimeFormatCode)"/></numFmts>"#
        + #"<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>"#
        + #"<fills count="2"><fill><patternFill patternType="none"/></fill>"#
        + #"<fill><patternFill patternType="gray125"/></fill></fills>"#
        + #"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#
        + #"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#
        + #"<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#
        + #"<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#
        + #"<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>"#
        + #"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#
        + "</styleSheet>"
}
