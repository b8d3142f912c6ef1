import Foundation

/// References from the rest of the workbook into a sheet whose rows move: a Summary sheet's
/// `=SUM(Transactions!F2:F10)`, a chart's series `Transactions!$F$2:$F$10`, a pivot cache's
/// source range. Only references that name the moved sheet change; everything else in the part,
/// its own cell and range addresses included, stays as it was.
///
/// Like the formulas inside the moved sheet, these follow deletions (a deleted cell becomes
/// `#REF!`) but do not grow with appended rows: Excel leaves `SUM(F2:F10)` alone when a row is
/// added below row 10, and so does a push. Defined names, which the autofilter uses, do grow.
struct CrossSheetReferences {
    let shifter: ReferenceShifter

    /// Elements whose text is a formula: cells' `f`, validation's `formula1`/`formula2`,
    /// conditional formats' `formula`, charts' `c:f`.
    static let formulas: Set<String> = ["formula", "formula1", "formula2", "f"]

    /// Whether a part of this name can hold references into another sheet.
    static func mayReferToSheets(_ part: String) -> Bool {
        let lower = part.lowercased()
        guard lower.hasSuffix(".xml") else { return false }
        return lower.contains("/worksheets/") || lower.contains("/charts/") || lower.contains("/pivotcache/")
    }

    /// Edits every part other than `patched` that can refer to a patched sheet: references follow
    /// moved rows, and worksheets' formulas that name a patched sheet, or that `stale` lists (a
    /// chain of formulas ending in a changed cell), lose their stale cached result.
    static func edit(
        package: XLSXPackage, patches: [WorksheetPatch], skipping patched: Set<String>, stale: StaleFormulas,
        plan: inout PreservingPlan
    ) throws {
        let moving = patches.filter(\.shift.movesRows).map {
            CrossSheetReferences(shifter: ReferenceShifter(sheet: $0.sheet, shift: $0.shift))
        }
        let named = Set(patches.map { $0.sheet.lowercased() })
        guard !named.isEmpty else { return }
        let needles = named.map { Array($0.utf8) }
        for name in package.entryNames where !patched.contains(name) && !plan.dropped.contains(name) && mayReferToSheets(name) {
            let isWorksheet = name.lowercased().contains("/worksheets/")
            guard !moving.isEmpty || isWorksheet else { continue }
            let staleCells = plan.layout.sheets.first { $0.part == name }.map { stale.cells(ofSheet: $0.name) } ?? []
            // A part that never spells a patched sheet's name, and has no stale formula, is left
            // unread: a large sheet of the user's is scanned in chunks, not loaded.
            guard try plan.edited[name] != nil || !staleCells.isEmpty || mentions(package, name, needles) else { continue }
            let original = try plan.edited[name] ?? plan.text(of: name)
            var text = moving.reduce(original) { $1.edit($0) }
            if isWorksheet { text = StaleCachedValues.edit(text, naming: named, stale: staleCells) }
            if text != original { plan.markEdited(name, text) }
        }
    }

    /// Whether `part`, with ASCII letters lowercased, holds one of `needles` (lowercased names).
    static func mentions(_ package: XLSXPackage, _ part: String, _ needles: [[UInt8]]) throws -> Bool {
        let overlap = max(0, (needles.map(\.count).max() ?? 1) - 1)
        var found = false
        var window: [UInt8] = []
        try package.stream(part) { chunk in
            guard !found else { return }
            window.append(contentsOf: chunk)
            for index in window.indices where window[index] >= 0x41 && window[index] <= 0x5A { window[index] |= 0x20 }
            let bytes = XMLBytes(bytes: window)
            found = needles.contains { bytes.find($0, from: 0) != nil }
            window = Array(window.suffix(overlap))
        }
        return found
    }

    /// `text` with the formulas and pivot sources that name the moved sheet moved.
    func edit(_ text: String) -> String {
        guard shifter.shift.movesRows, mentionsSheet(text) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[open...close]
            rest = rest[rest.index(after: close)...]
            let name = SheetReferences.localName(tag)
            if Self.formulas.contains(name), !tag.hasPrefix("</"), !tag.hasSuffix("/>"), let end = rest.range(of: "</") {
                out += tag
                let formula = XMLEntities.unescape(String(rest[..<end.lowerBound]))
                let moved = shifter.formula(formula, inSheet: false)
                out += moved == formula ? String(rest[..<end.lowerBound]) : XMLEntities.escape(moved)
                rest = rest[end.lowerBound...]
            } else if name == "worksheetSource", !tag.hasPrefix("</") {
                out += pivotSource(tag)
            } else {
                out += tag
            }
        }
        return out + rest
    }

    /// A pivot cache's `<worksheetSource ref="A1:F10" sheet="Transactions"/>`: its range grows and
    /// shrinks with the sheet, as the source of a pivot table does in Excel.
    private func pivotSource(_ tag: Substring) -> String {
        var attributes = TagAttributes(tag: tag)
        guard let sheet = attributes["sheet"], XMLEntities.unescape(sheet).lowercased() == shifter.sheet.lowercased(),
            let ref = attributes["ref"], let moved = shifter.rangeList(ref, grows: true), moved != ref
        else { return String(tag) }
        attributes["ref"] = moved
        let head = tag.prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" && $0 != ">" && $0 != "/" }
        return head + attributes.text + (tag.hasSuffix("/>") ? "/>" : ">")
    }

    /// A cheap look before the walk: a part that never spells the sheet's name cannot refer to it.
    private func mentionsSheet(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains(shifter.sheet.lowercased()) || lower.contains(XMLEntities.escape(shifter.sheet).lowercased())
    }
}
