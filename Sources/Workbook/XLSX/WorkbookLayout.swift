/// Where the parts of a workbook are, found through relationships the way OPC prescribes:
/// `_rels/.rels` → the office document (the workbook, anywhere in the package) → its relationships.
struct WorkbookLayout {
    struct Sheet: Equatable {
        var name: String
        /// The relationship id in the workbook part (`rId3`).
        var relationshipID: String
        var sheetID: Int
        /// The worksheet part, or nil when the sheet is a chartsheet/dialogsheet (no cells).
        var part: String?
    }

    var workbookPart: String
    var sheets: [Sheet]
    var sharedStringsPart: String?
    var stylesPart: String?
    /// The workbook's relationships, for a writer that adds to them.
    var workbookRelationships: [Relationship]
    var uses1904DateSystem: Bool
    /// Warnings about sheets left out, such as a `<sheet>` with an empty relationship id.
    var warnings: [String] = []

    /// Finds the workbook's parts. Only the relationships it follows are judged: the office document
    /// in `_rels/.rels`; the workbook's sheets, shared strings and styles (and the calculation chain a
    /// push drops). Any other relationship, one whose target lies outside the package included (the
    /// `customXml` link LibreOffice writes into `_rels/.rels`), is left as it is.
    static func load(from package: XLSXPackage) throws -> WorkbookLayout {
        let file = package.fileName
        let workbookPart = try officeDocument(of: package)
        let rels = try package.relationships(of: workbookPart)
        let handler = WorkbookHandler()
        try package.parse(workbookPart, with: handler)
        var warnings: [String] = []
        let sheets = try linked(handler.sheets, in: package, workbookPart: workbookPart, rels: rels, warnings: &warnings)
        return WorkbookLayout(
            workbookPart: workbookPart,
            sheets: sheets,
            sharedStringsPart: try rels.first { $0.isType("sharedStrings") }?.followed(file: file),
            stylesPart: try rels.first { $0.isType("styles") }?.followed(file: file),
            workbookRelationships: rels,
            uses1904DateSystem: handler.date1904,
            warnings: warnings
        )
    }

    /// The workbook part, as `_rels/.rels` names it; it must be in the package.
    private static func officeDocument(of package: XLSXPackage) throws -> String {
        let file = package.fileName
        guard package.contains("_rels/.rels") else { throw PackageIdentity.missingPackageRelationships(package) }
        let packageRels = try package.relationships(of: "")
        guard let office = packageRels.first(where: { $0.isType("officeDocument") }) else {
            throw XLSXError(
                .missingPart, file: file, part: "_rels/.rels",
                "names no workbook part (it has no officeDocument relationship)")
        }
        guard let workbookPart = try office.followed(file: file) else {
            throw XLSXError(
                .missingPart, file: file, part: "_rels/.rels",
                "names no workbook part in the package (its officeDocument relationship points outside it, TargetMode=\"External\")")
        }
        if let other = PackageIdentity.otherFormat(workbookPart: workbookPart) {
            throw XLSXError(.otherFormat, file: file, other)
        }
        guard package.contains(workbookPart) else {
            throw XLSXError(.missingPart, file: file, part: workbookPart, "is missing from the package")
        }
        return workbookPart
    }

    /// The sheets the workbook part lists, each with the worksheet part its relationship points at; a
    /// sheet without a relationship id is left out with a warning.
    private static func linked(
        _ listed: [Sheet], in package: XLSXPackage, workbookPart: String, rels: [Relationship], warnings: inout [String]
    ) throws -> [Sheet] {
        let file = package.fileName
        let relsPart = XLSXPackage.relationshipsPart(of: workbookPart)
        var byID: [String: Relationship] = [:]
        for rel in rels where byID[rel.id] == nil { byID[rel.id] = rel }
        var sheets: [Sheet] = []
        for entry in listed {
            if entry.relationshipID.isEmpty {
                // Some generators list a sheet with r:id="": it has no part, so there is nothing to read.
                warnings.append(
                    "\(file): part '\(workbookPart)' lists sheet '\(entry.name)' with an empty relationship id; skipped")
                continue
            }
            guard package.contains(relsPart) else {
                throw XLSXError(
                    .missingPart, file: file, part: relsPart,
                    "is missing from the package, so no sheet '\(workbookPart)' lists can be found (it would say which part "
                        + "sheet '\(entry.name)', relationship '\(entry.relationshipID)', is)")
            }
            guard let rel = byID[entry.relationshipID] else {
                throw XLSXError(
                    .missingPart, file: file, part: workbookPart,
                    "lists sheet '\(entry.name)' with relationship '\(entry.relationshipID)', which '\(relsPart)' does not define")
            }
            var sheet = entry
            // A chartsheet or dialogsheet has no cells: its link is not followed.
            sheet.part = rel.isType("worksheet") ? try rel.followed(file: file) : nil
            sheets.append(sheet)
        }
        return sheets
    }
}

/// Reads the sheet list and the date system from the workbook part.
final class WorkbookHandler: XMLEventHandler {
    private(set) var sheets: [WorkbookLayout.Sheet] = []
    private(set) var date1904 = false

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
        if name == "sheet" {
            guard let sheetName = attributes.string("name"), let id = attributes.namespacedString("id") else {
                throw WorksheetProblem(message: "has a <sheet> without a name or relationship id")
            }
            let sheetID = attributes.string("sheetId").flatMap { Int($0) } ?? 0
            sheets.append(.init(name: sheetName, relationshipID: id, sheetID: sheetID, part: nil))
        } else if name == "workbookPr" {
            // The attribute's value counts: LibreOffice writes date1904="false".
            if let value = attributes.string("date1904") {
                date1904 = value == "1" || value.lowercased() == "true"
            }
        }
    }

    func endElement(_ name: XMLName) throws {}
    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {}
}
