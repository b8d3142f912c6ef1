import Foundation

extension XLSXWriter {
    /// Writes `sheets` into a copy of `original` at `url`, keeping every other part verbatim.
    ///
    /// A sheet whose name (ignoring case) exists in `original` has its cells replaced, inside the
    /// original's own frame (frozen panes, column widths, drop-down lists, conditional formats: see
    /// `SheetFrame`); any other is added after the existing sheets. The user's other sheets, shared
    /// strings, styles and theme survive byte for byte. The replaced sheets' own relationships
    /// (comments, hyperlinks, drawings, tables) and the formula calculation chain are dropped: they
    /// would point into cells that changed, and Excel rebuilds the chain itself. The date styles are
    /// found in, or added to, the styles part.
    public static func write(
        _ sheets: [XLSXSheet], to url: URL, preservingOtherSheetsFrom original: URL, limits: XLSXLimits = .default
    ) throws {
        let file = url.lastPathComponent
        let (package, layout) = try openOriginal(original, writingTo: url, newSheets: sheets, limits: limits)
        var plan = try PreservingPlan(package: package, layout: layout, sheets: sheets)
        try plan.prepareParts()

        let writer = try PackageWriter(url: url)
        for name in package.entryNames where !plan.dropped.contains(name) {
            if let sheet = plan.replaced[name] {
                let columns = ColumnWidths.element(ColumnWidths.measure(sheet.table))
                let frame = try SheetFrame.read(from: package, part: name, columns: columns)
                let worksheet = WorksheetXMLWriter(
                    sheet: sheet, styles: plan.dateStyles, file: file, part: name,
                    uses1904: layout.uses1904DateSystem, frame: frame)
                try writer.add(name) { try worksheet.write(to: $0) }
            } else {
                try writer.add(name, editedIn: plan, from: package)
            }
        }
        for (name, text) in plan.addedParts {
            try writer.add(name, text: text)
        }
        for (name, sheet) in plan.addedSheets {
            let worksheet = WorksheetXMLWriter(
                sheet: sheet, styles: plan.dateStyles, file: file, part: name, uses1904: layout.uses1904DateSystem)
            try writer.add(name) { try worksheet.write(to: $0) }
        }
        try writer.finish()
    }
}

extension XLSXWriter {
    /// The package a copy is made from, refused when it is the file being written, and the names
    /// of the sheets to write checked.
    static func openOriginal(_ original: URL, writingTo url: URL, newSheets: [XLSXSheet], limits: XLSXLimits) throws
        -> (XLSXPackage, WorkbookLayout)
    {
        let file = url.lastPathComponent
        guard url.standardizedFileURL.resolvingSymlinksInPath() != original.standardizedFileURL.resolvingSymlinksInPath() else {
            throw XLSXError(.cannotWrite, file: file, "cannot be written over the workbook it is copied from")
        }
        try SheetNameRules.validate(newSheets.map(\.name), file: file)
        let package = try XLSXPackage(url: original, limits: limits)
        return (package, try WorkbookLayout.load(from: package))
    }
}

/// What a preserving write changes: parts replaced, edited, added and dropped.
struct PreservingPlan {
    let package: XLSXPackage
    let layout: WorkbookLayout
    let sheets: [XLSXSheet]

    private(set) var replaced: [String: XLSXSheet] = [:]
    private(set) var addedSheets: [(String, XLSXSheet)] = []
    private(set) var newSheets: [(name: String, part: String)] = []
    private(set) var edited: [String: String] = [:]
    private(set) var addedParts: [(String, String)] = []
    private(set) var dropped: Set<String> = []
    private(set) var dateStyles = PackageParts.freshDateStyles
    /// The styles part with the date styles added, until a patch knows it needs them.
    var pendingStylesEdit: (part: String, text: String)?
    /// Whether the date styles are added only when `commitStylesEdit` is called.
    var deferStylesEdit = false
    /// Relationships and content-type overrides that the added parts need.
    private(set) var pendingRelationships: [(id: String, type: String, target: String)] = []
    private var usedRelationshipIDs: Set<String> = []
    var pendingOverrides: [(part: String, contentType: String)] = []

    init(package: XLSXPackage, layout: WorkbookLayout, sheets: [XLSXSheet]) throws {
        self.package = package
        self.layout = layout
        self.sheets = sheets
        usedRelationshipIDs = Set(layout.workbookRelationships.map(\.id))
        let folder = layout.workbookPart.split(separator: "/").dropLast().joined(separator: "/")
        let base = folder.isEmpty ? "" : folder + "/"
        var taken = Set(package.entryNames.map { $0.lowercased() })
        var number = 1
        for sheet in sheets {
            if let existing = layout.sheets.first(where: { $0.name.lowercased() == sheet.name.lowercased() }) {
                guard let part = existing.part else {
                    throw XLSXError(
                        .invalidSheetName, file: package.fileName, part: layout.workbookPart,
                        "lists '\(existing.name)' as a chart or dialog sheet, which cannot be replaced by a worksheet")
                }
                replaced[part] = sheet
                dropped.insert(PartPath.relationshipsPart(of: part))
            } else {
                while taken.contains("\(base)worksheets/sheet\(number).xml".lowercased()) { number += 1 }
                let part = "\(base)worksheets/sheet\(number).xml"
                taken.insert(part.lowercased())
                addedSheets.append((part, sheet))
                newSheets.append((sheet.name, part))
            }
        }
    }

    mutating func prepareParts() throws {
        // Followed: the chain's part is dropped, so its target must be a part of this package.
        let calcChain = try layout.workbookRelationships.first { $0.isType("calcChain") }?.followed(file: package.fileName)
        if let calcChain { dropped.insert(calcChain) }
        try prepareStyles()
        try editWorkbook()
        try editWorkbookRelationships(droppingCalcChain: calcChain != nil)
        try editContentTypes(droppingCalcChain: calcChain)
    }

    /// Adds a workbook relationship with a fresh id, which it returns.
    mutating func addRelationship(type: String, target: String) -> String {
        var number = usedRelationshipIDs.count + 1
        while usedRelationshipIDs.contains("rId\(number)") { number += 1 }
        let id = "rId\(number)"
        usedRelationshipIDs.insert(id)
        pendingRelationships.append((id, type, target))
        return id
    }

    mutating func markEdited(_ part: String, _ text: String) { edited[part] = text }
    mutating func commitStylesEdit() {
        if let pending = pendingStylesEdit { markEdited(pending.part, pending.text) }
    }
    mutating func markAdded(_ part: String, _ text: String) { addedParts.append((part, text)) }
    mutating func useDateStyles(_ styles: DateStyles) { dateStyles = styles }

    /// The workbook part's folder with a trailing slash (`xl/`), or `""` at the package root.
    var workbookFolder: String {
        let folder = layout.workbookPart.split(separator: "/").dropLast().joined(separator: "/")
        return folder.isEmpty ? "" : folder + "/"
    }

    func text(of part: String) throws -> String {
        let data = try package.data(part)
        guard let text = String(data: data, encoding: .utf8) else {
            throw XLSXError(.malformedPart, file: package.fileName, part: part, "is not UTF-8 and cannot be edited")
        }
        return text
    }

    func refuse(_ part: String, _ message: String) -> XLSXError {
        XLSXError(.malformedPart, file: package.fileName, part: part, message)
    }
}
