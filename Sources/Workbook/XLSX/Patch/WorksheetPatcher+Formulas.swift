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
            if patch.shift.row(row) == nil {
                setMaster(si, row: row, text: text, ref: formula.attributes["ref"], orphaned: true)
            } else {
                setMaster(si, row: row, text: shifterFormula(text), ref: formula.attributes["ref"], orphaned: false)
            }
        }
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
