import Foundation
import SheetValues

/// Writes XLSX workbooks, streaming each worksheet in chunks.
///
/// Cells: `.text` and `.error` as inline strings, `.number` as numbers (their text verbatim),
/// `.bool` as booleans, `.dateSerial` as numbers styled `yyyy-mm-dd` (or `yyyy-mm-dd hh:mm:ss`
/// when the serial has a time of day). `.empty` and `.text("")` cells are left out.
public enum XLSXWriter {
    /// Writes a fresh package holding `sheets`, in order, to `url` (replacing any file there).
    ///
    /// The caller handles atomic replacement: pass a temporary path beside the destination.
    public static func write(_ sheets: [XLSXSheet], to url: URL) throws {
        let file = url.lastPathComponent
        guard !sheets.isEmpty else { throw XLSXError(.invalidSheetName, file: file, "a workbook needs at least one sheet") }
        try SheetNameRules.validate(sheets.map(\.name), file: file)
        let writer = try PackageWriter(url: url)
        try writer.add("[Content_Types].xml", text: PackageParts.contentTypes(sheetCount: sheets.count))
        try writer.add("_rels/.rels", text: PackageParts.packageRelationships)
        try writer.add("xl/workbook.xml", text: PackageParts.workbook(sheetNames: sheets.map(\.name)))
        try writer.add("xl/_rels/workbook.xml.rels", text: PackageParts.workbookRelationships(sheetCount: sheets.count))
        try writer.add("xl/styles.xml", text: PackageParts.styles)
        for (index, sheet) in sheets.enumerated() {
            let part = "xl/worksheets/sheet\(index + 1).xml"
            let worksheet = WorksheetXMLWriter(
                sheet: sheet, styles: PackageParts.freshDateStyles, file: file, part: part)
            try writer.add(part) { try worksheet.write(to: $0) }
        }
        try writer.finish()
    }
}
