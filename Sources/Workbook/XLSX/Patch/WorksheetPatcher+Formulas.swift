import Foundation

/// Formulas of rows that move: their references follow the rows, and a shared formula whose
/// first cell was deleted passes its text to the next cell that shares it.
extension WorksheetPatcher {
    mutating func noteMasters(_ xml: RowXML, row: Int) {
        for cell in xml.cells {
            guard let formula = cell.formula(prefix: cells.prefix), formula.attributes["t"] == "shared",
                let si = formula.attributes["si"], formula.attributes["ref"] != nil, !formula.text.isEmpty
            else { continue }
            let text = XMLEntities.unescape(formula.text)
            if readsOthers(text) { unshared[si] = (row, cell.column, text) }
            if patch.shift.row(row) == nil {
                setMaster(si, row: row, text: text, ref: formula.attributes["ref"], orphaned: true)
            } else {
                setMaster(si, row: row, text: shifterFormula(text), ref: formula.attributes["ref"], orphaned: false)
            }
        }
    }

    /// Whether a formula names a sheet in `others`.
    func readsOthers(_ text: String) -> Bool {
        var found = false
        _ = FormulaReferences.rewrite(text) { qualifier, _ in
            if let qualifier, others.contains(where: { $0.sheet.lowercased() == ReferenceShifter.sheetName(qualifier).lowercased() }) {
                found = true
            }
            return nil
        }
        return found
    }

    /// Moves the references of the row's formulas into the other sheets whose rows move (the row
    /// itself is already renumbered); a shared formula that reads them becomes each cell's own
    /// formula. Whether any formula changed. `row` is the row's number before the push.
    mutating func moveReferencesToOthers(_ xml: inout RowXML, row: Int) -> Bool {
        var changed = false
        for index in xml.items.indices {
            guard case .cell(var cell) = xml.items[index], let formula = cell.formula(prefix: cells.prefix), let inner = cell.inner
            else { continue }
            var attributes = formula.attributes
            let old = XMLEntities.unescape(formula.text)
            var text: String
            if attributes["t"] == "shared", let si = attributes["si"], let master = unshared[si] {
                text = ReferenceShifter.translate(master.text, rows: row - master.row, columns: cell.column - master.column)
                if patch.shift.movesRows { text = shifterFormula(text) }
                for name in ["t", "si", "ref"] { attributes[name] = nil }
            } else if !old.isEmpty {
                text = old
            } else {
                continue
            }
            text = others.reduce(text) { $1.formula($0, inSheet: false) }
            guard text != old || attributes != formula.attributes else { continue }
            let p = cells.prefix
            cell.inner = inner.replacingCharacters(
                in: formula.range, with: "<\(p)f\(attributes.text)>\(XMLEntities.escape(text))</\(p)f>")
            xml.items[index] = .cell(cell)
            changed = true
        }
        return changed
    }

    /// Renumbers a row that moves from `old` to `new` and moves the references of its formulas.
    mutating func move(_ xml: inout RowXML, from old: Int, to new: Int) throws {
        if xml.attributes["r"] != nil { xml.attributes["r"] = String(new) }
        for index in xml.items.indices {
            guard case .cell(var cell) = xml.items[index] else { continue }
            if cell.attributes["r"] != nil { cell.attributes["r"] = CellReference.name(column: cell.column, row: new) }
            if let formula = cell.formula(prefix: cells.prefix), let inner = cell.inner {
                var attributes = formula.attributes
                var text = XMLEntities.unescape(formula.text)
                if attributes["t"] == "shared", text.isEmpty, let si = attributes["si"], let master = takeOrphan(si) {
                    text = shifterFormula(ReferenceShifter.translate(master.text, rows: old - master.row))
                    attributes["ref"] = master.ref
                } else if !text.isEmpty {
                    text = shifterFormula(text)
                }
                if let ref = attributes["ref"] {
                    attributes["ref"] = shifterRanges(ref) ?? CellReference.name(column: cell.column, row: new)
                }
                let p = cells.prefix
                let element = "<\(p)f\(attributes.text)" + (text.isEmpty ? "/>" : ">\(XMLEntities.escape(text))</\(p)f>")
                cell.inner = inner.replacingCharacters(in: formula.range, with: element)
            }
            xml.items[index] = .cell(cell)
        }
    }
}
