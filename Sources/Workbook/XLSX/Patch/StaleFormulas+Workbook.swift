import Foundation

extension StaleFormulas {
    /// Every formula of the workbook whose cached result `patches` make stale: those that read a
    /// changed, deleted or appended cell, and those that read such a formula, however far the
    /// chain goes and across sheets (a Summary's `=B2*2` beside `=SUM(Transactions!G:G)` where
    /// `G3` is `=F3*2` and F3 changed). Reads each worksheet part once, as a stream.
    static func find(package: XLSXPackage, layout: WorkbookLayout, patches: [WorksheetPatch]) throws -> StaleFormulas {
        var sheetIndex: [String: Int] = [:]
        for (index, sheet) in layout.sheets.enumerated() where sheetIndex[sheet.name.lowercased()] == nil {
            sheetIndex[sheet.name.lowercased()] = index
        }
        let changes = Self.changes(patches, sheetIndex)
        guard !changes.isEmpty else { return StaleFormulas() }
        let names = DefinedNames(workbook: try String(decoding: package.data(layout.workbookPart), as: UTF8.self))
        for sheet in layout.sheets {
            guard let part = sheet.part, package.contains(part) else { continue }
            for relationship in try package.relationships(of: part) where relationship.isType("table") {
                guard let target = try relationship.followed(file: package.fileName), package.contains(target) else { continue }
                names.addTable(String(decoding: try package.data(target), as: UTF8.self), sheet: sheet.name)
            }
        }

        var dependents = FormulaDependents()
        for (index, sheet) in layout.sheets.enumerated() {
            guard let part = sheet.part, package.contains(part), try FormulaScanner.mayHoldFormulas(package, part) else { continue }
            // A shared formula's areas are read once, at its master, then filled to each cell.
            var sharedAreas: [String: [(sheet: Int, area: FormulaArea)]] = [:]
            let resolve = { (areas: [FormulaArea]) -> [(sheet: Int, area: FormulaArea)] in
                areas.compactMap { area in
                    guard let target = area.sheet.map({ sheetIndex[$0.lowercased()] }) ?? index else { return nil }
                    return (target, area)
                }
            }
            var scanner = FormulaScanner()
            let take = { (found: FormulaScanner.Found) in
                let written: [(sheet: Int, area: FormulaArea)]
                if let si = found.sharedIndex, let known = sharedAreas[si],
                    found.writtenAt.row != found.row || found.writtenAt.column != found.column
                {
                    written = known
                } else {
                    written = resolve(FormulaAreas.areas(in: found.text) { names.areas(of: $0, inSheet: index) })
                    if let si = found.sharedIndex { sharedAreas[si] = written }
                }
                let rows = found.row - found.writtenAt.row
                let columns = found.column - found.writtenAt.column
                let areas = written.compactMap { item in item.area.filled(rows: rows, columns: columns).map { (item.sheet, $0) } }
                dependents.add(sheet: index, row: found.row, column: found.column, reading: areas)
            }
            try package.stream(part) { scanner.feed($0, take) }
            scanner.finish(take)
        }
        guard !dependents.isEmpty else { return StaleFormulas() }
        let stale = dependents.closure(of: changes)
        var bySheetName: [String: Set<Int>] = [:]
        for (index, cells) in stale { bySheetName[layout.sheets[index].name.lowercased()] = cells }
        return StaleFormulas(bySheetName: bySheetName)
    }

    /// The cells a push changes, as the sheets had them: written cells one by one, deleted and
    /// appended rows whole (a `SUM(F2:F10)` or an `F:F` reads them).
    private static func changes(_ patches: [WorksheetPatch], _ sheetIndex: [String: Int]) -> [FormulaDependents.Change] {
        var changes: [FormulaDependents.Change] = []
        for patch in patches {
            guard let sheet = sheetIndex[patch.sheet.lowercased()] else { continue }
            for (row, cells) in patch.cells where !patch.appendedRows.contains(row) {
                for column in cells.keys { changes.append(.cell(sheet: sheet, row: row, column: column)) }
            }
            for row in patch.appendedRows.union(patch.shift.deleted) { changes.append(.row(sheet: sheet, row: row)) }
        }
        return changes
    }
}

/// The workbook's defined names (`<definedName name="Amounts">Transactions!$F$2:$F$12</definedName>`),
/// read as the areas they stand for when a formula uses them; a name local to a sheet wins there.
/// Tables answer to their names too, with their whole range (`Ledger[Amount]` reads `Ledger`).
final class DefinedNames {
    private var texts: [String: [(sheet: Int?, text: String)]] = [:]
    private var tables: [String: FormulaArea] = [:]
    private var cache: [String: [FormulaArea]] = [:]
    private var resolving: Set<String> = []

    init(workbook: String) {
        for match in workbook.matches(of: /<(?:[A-Za-z0-9_]+:)?definedName\b([^>]*[^\/])?>([^<]*)</) {
            let attributes = TagAttributes(tag: Substring("<definedName" + String(match.output.1 ?? "") + ">"))
            guard let name = attributes["name"] else { continue }
            let sheet = attributes["localSheetId"].flatMap { Int($0) }
            texts[XMLEntities.unescape(name).lowercased(), default: []].append((sheet, XMLEntities.unescape(String(match.output.2))))
        }
    }

    /// Records a table part's name and range (`<table name="Ledger" displayName="Ledger" ref="A1:F10">`).
    func addTable(_ xml: String, sheet: String) {
        guard let open = xml.firstMatch(of: /<(?:[A-Za-z0-9_]+:)?table\s[^>]*>/) else { return }
        let attributes = TagAttributes(tag: open.output)
        guard let ref = attributes["ref"], let range = A1Range(ref),
            var area = FormulaAreas.area(Array(range.start.text.utf8)[...], range.end.map { Array($0.text.utf8)[...] }, sheet: sheet)
        else { return }
        area.absolute = (true, true, true, true)
        for key in ["displayName", "name"] {
            if let name = attributes[key] { tables[XMLEntities.unescape(name).lowercased()] = area }
        }
    }

    /// The areas `name` stands for in a formula of sheet `sheet` (index); unqualified references
    /// in the name's text are left to the formula's sheet.
    func areas(of name: String, inSheet sheet: Int) -> [FormulaArea] {
        let lower = name.lowercased()
        guard let candidates = texts[lower] else { return tables[lower].map { [$0] } ?? [] }
        let chosen = candidates.first { $0.sheet == sheet } ?? candidates.first { $0.sheet == nil }
        guard let chosen else { return [] }
        let key = "\(chosen.sheet.map(String.init) ?? "")|\(lower)"
        if let known = cache[key] { return known }
        // A name defined through itself reads nothing more.
        guard resolving.insert(key).inserted else { return [] }
        defer { resolving.remove(key) }
        let areas = FormulaAreas.areas(in: chosen.text) { self.areas(of: $0, inSheet: sheet) }.map { area in
            var fixed = area
            fixed.absolute = (true, true, true, true)
            return fixed
        }
        cache[key] = areas
        return areas
    }
}
