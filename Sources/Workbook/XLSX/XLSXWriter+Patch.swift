import Foundation

extension XLSXWriter {
    /// Writes a copy of `original` at `url` with `patches` carried out on its existing sheets and
    /// `added` appended as new sheets; every part nothing changes is copied as it was.
    ///
    /// Worksheets are patched cell by cell (see `WorksheetPatcher`); the comments, drawings' VML
    /// anchors, tables and defined names that point into rows that move are moved with them, and so
    /// are the formulas of other sheets (other patched sheets included), charts and pivot caches
    /// that name the moved sheet. Every formula that depends on a changed cell, directly or
    /// through other formulas, loses its cached result (`StaleFormulas`); the calculation chain
    /// is dropped and `fullCalcOnLoad` set, so formulas recompute on open. A
    /// styles part is edited only when a date lands in a cell whose style shows no date.
    @discardableResult
    public static func patch(
        _ original: URL, to url: URL, patches: [WorksheetPatch], adding added: [XLSXSheet], limits: XLSXLimits = .default
    ) throws -> WorksheetPatchReport {
        let (package, layout) = try XLSXWriter.openOriginal(original, writingTo: url, newSheets: added, limits: limits)
        var plan = try PreservingPlan(package: package, layout: layout, sheets: added)
        plan.deferStylesEdit = added.isEmpty
        try plan.prepareParts()
        let kinds = try styleKinds(package, layout)

        // Which formulas depend on what the push changes, found once for the whole workbook.
        let stale = try StaleFormulas.find(package: package, layout: layout, patches: patches)
        let moving = patches.filter(\.shift.movesRows).map { ReferenceShifter(sheet: $0.sheet, shift: $0.shift) }
        var report = WorksheetPatchReport()
        let writer = try PackageWriter(url: url)
        var patchedParts: [String: URL] = [:]
        var usedDateStyle = false
        for patch in patches {
            let part = try worksheetPart(patch.sheet, of: package, layout)
            let cells = PatchedCell(
                prefix: "", uses1904: layout.uses1904DateSystem, dateStyle: plan.dateStyles.date,
                isDateStyle: { $0 < kinds.count && kinds[$0] == .date })
            var patcher = WorksheetPatcher(patch: patch, cells: cells, stale: stale.cells(ofSheet: patch.sheet), others: moving)
            patchedParts[part] = try stream(part, of: package, through: &patcher, into: writer)
            report.replacedFormulas += patcher.report.replacedFormulas
            usedDateStyle = usedDateStyle || patcher.usedDateStyle
            try RelatedParts.edit(package: package, sheetPart: part, patch: patch, plan: &plan)
        }
        if usedDateStyle { plan.commitStylesEdit() }
        try CrossSheetReferences.edit(
            package: package, patches: patches, skipping: Set(patchedParts.keys), stale: stale, plan: &plan)
        try WorkbookCalculation.edit(&plan, patches: patches)
        try writeParts(of: package, patched: patchedParts, plan: plan, uses1904: layout.uses1904DateSystem, file: url, into: writer)
        return report
    }

    /// The part of the worksheet named `sheet` (in any case).
    private static func worksheetPart(_ sheet: String, of package: XLSXPackage, _ layout: WorkbookLayout) throws -> String {
        guard let found = layout.sheets.first(where: { $0.name.lowercased() == sheet.lowercased() }), let part = found.part else {
            throw XLSXError(.missingPart, file: package.fileName, "has no worksheet '\(sheet)' to patch")
        }
        return part
    }

    /// Streams worksheet `part` through `patcher` into a scratch file of `writer`, and returns the file.
    private static func stream(_ part: String, of package: XLSXPackage, through patcher: inout WorksheetPatcher, into writer: PackageWriter)
        throws -> URL
    {
        do {
            // The part streams through chunk by chunk: memory holds a chunk and a row, not the sheet.
            return try writer.scratchFile(for: part) { sink in
                try package.stream(part) { try patcher.feed($0, to: sink) }
                try patcher.finish(to: sink)
            }
        } catch let problem as WorksheetProblem {
            throw XLSXError(.malformedPart, file: package.fileName, part: part, problem.message)
        }
    }

    /// Writes the new package: every part of the original the plan keeps (patched, edited or as it
    /// was), then the parts and sheets it adds.
    private static func writeParts(
        of package: XLSXPackage, patched: [String: URL], plan: PreservingPlan, uses1904: Bool, file url: URL, into writer: PackageWriter
    ) throws {
        for name in package.entryNames where !plan.dropped.contains(name) {
            if let file = patched[name] {
                try writer.add(name, file: file)
            } else {
                try writer.add(name, editedIn: plan, from: package)
            }
        }
        for (name, text) in plan.addedParts { try writer.add(name, text: text) }
        for (name, sheet) in plan.addedSheets {
            let worksheet = WorksheetXMLWriter(
                sheet: sheet, styles: plan.dateStyles, file: url.lastPathComponent, part: name, uses1904: uses1904)
            try writer.add(name) { try worksheet.write(to: $0) }
        }
        try writer.finish()
    }

    static func styleKinds(_ package: XLSXPackage, _ layout: WorkbookLayout) throws -> [NumberFormatKind] {
        guard let part = layout.stylesPart, package.contains(part) else { return [] }
        let handler = StylesHandler()
        try package.parse(part, with: handler)
        return handler.kinds
    }
}
