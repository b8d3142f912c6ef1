import SheetSyncCore

/// Streams a worksheet part through a patch: rows the patch leaves alone are copied byte for
/// byte, changed cells are replaced (style kept), deleted rows dropped and the rows below them
/// renumbered with every row reference in the part moved along.
struct WorksheetPatcher {
    let patch: WorksheetPatch
    let cells: PatchedCell
    private(set) var report = WorksheetPatchReport()
    private(set) var usedDateStyle = false
    private var shifter: ReferenceShifter { ReferenceShifter(sheet: patch.sheet, shift: patch.shift) }
    /// Shared formulas by `si`: the master's row (old number) and text.
    private var masters: [String: (row: Int, text: String, ref: String?)] = [:]
    /// Masters whose row was deleted, waiting for the first child left to take over.
    private var orphaned: Set<String> = []
    /// The row written last at or above the table's end: what an appended row copies.
    private var above: (row: Int, xml: RowXML)?

    init(patch: WorksheetPatch, cells: PatchedCell) {
        self.patch = patch
        self.cells = cells
    }

    mutating func run(_ bytes: [UInt8]) throws -> [UInt8] {
        let xml = XMLBytes(bytes: bytes)
        guard let (prefix, start) = xml.firstElement(localName: "sheetData"), let (openEnd, empty) = xml.tagEnd(from: start)
        else { throw WorksheetProblem(message: "has no <sheetData> element") }
        let references = SheetReferences(shifter: shifter)
        var out = Array(references.edit(xml.string(0..<start)).utf8)
        let closing = Array("</\(prefix)sheetData>".utf8)
        let bodyEnd = empty ? openEnd : (xml.find(closing, from: openEnd) ?? bytes.count)
        if empty {
            out += Array(xml.string(start..<(openEnd - 2)).utf8) + Array(">".utf8)
        } else {
            out += bytes[start..<openEnd]
        }
        var pending = patch.cells.keys.sorted()[...]
        var position = openEnd
        var implicitRow = 0
        while !empty, let rowStart = xml.startTag("\(prefix)row", from: position, to: bodyEnd) {
            guard let (tagEnd, selfClosing) = xml.tagEnd(from: rowStart) else { break }
            let end =
                selfClosing
                ? tagEnd
                : (xml.find(Array("</\(prefix)row>".utf8), from: tagEnd, to: bodyEnd).map { $0 + prefix.utf8.count + 6 } ?? bodyEnd)
            let attributes = TagAttributes(tag: Substring(xml.string(rowStart..<tagEnd)))
            let number = attributes["r"].flatMap { Int($0) } ?? implicitRow + 1
            implicitRow = number
            out += bytes[position..<rowStart]
            while let next = pending.first, next < number {
                out += Array(try newRow(next, prefix: prefix).utf8)
                pending.removeFirst()
            }
            if pending.first == number { pending.removeFirst() }
            let slice = bytes[rowStart..<end]
            out += Array(try row(slice, number: number, prefix: prefix).utf8)
            position = end
        }
        out += bytes[position..<bodyEnd]
        for next in pending { out += Array(try newRow(next, prefix: prefix).utf8) }
        if empty {
            out += closing
            out += Array(references.edit(xml.string(openEnd..<bytes.count)).utf8)
        } else {
            out += Array(references.edit(xml.string(bodyEnd..<bytes.count)).utf8)
        }
        return out
    }

    /// The row element as it goes out: the same bytes when nothing in it changes.
    private mutating func row(_ slice: ArraySlice<UInt8>, number: Int, prefix: String) throws -> String {
        let bytes = XMLBytes(bytes: Array(slice))
        let hasMaster = bytes.find(Array("\"shared\"".utf8), from: 0) != nil && bytes.find(Array(" ref=".utf8), from: 0) != nil
        let changes = patch.cells[number]
        let isTemplate = number == patch.shift.lastDataRow && !patch.appendedRows.isEmpty
        guard changes != nil || patch.shift.movesRows || hasMaster || isTemplate else {
            return String(decoding: slice, as: UTF8.self)
        }
        var xml = RowXML(slice, prefix: prefix)
        if hasMaster { noteMasters(xml, row: number) }
        guard let newNumber = patch.shift.row(number) else { return "" }
        if patch.shift.movesRows { try move(&xml, from: number, to: newNumber) }
        if let changes { try apply(changes, to: &xml, row: newNumber, appended: patch.appendedRows.contains(number)) }
        if number <= patch.shift.lastDataRow || patch.appendedRows.contains(number) { above = (newNumber, xml) }
        return changes == nil && !patch.shift.movesRows ? String(decoding: slice, as: UTF8.self) : xml.text
    }

    /// A row the sheet lacks: the header's new columns or an appended record.
    private mutating func newRow(_ number: Int, prefix: String) throws -> String {
        guard let changes = patch.cells[number], let newNumber = patch.shift.row(number) else { return "" }
        var attributes = TagAttributes(pairs: [("r", String(newNumber))])
        if patch.appendedRows.contains(number), let above {
            for name in ["s", "customFormat", "ht", "customHeight"] { attributes[name] = above.xml.attributes[name] }
        }
        var xml = RowXML(prefix: prefix, attributes: attributes)
        try apply(changes, to: &xml, row: newNumber, appended: patch.appendedRows.contains(number))
        if patch.appendedRows.contains(number) { above = (newNumber, xml) }
        return xml.text
    }

    private mutating func apply(_ changes: [Int: Cell], to xml: inout RowXML, row: Int, appended: Bool) throws {
        let existing = Dictionary(xml.cells.map { ($0.column, $0) }, uniquingKeysWith: { a, _ in a })
        let template = appended ? above : nil
        let templateCells = Dictionary((template?.xml.cells ?? []).map { ($0.column, $0) }, uniquingKeysWith: { a, _ in a })
        var columns = Set(changes.keys)
        if appended { columns.formUnion(templateCells.keys) }
        for column in columns.sorted() {
            let style = templateCells[column]?.attributes["s"]
            if let value = changes[column] {
                let old = existing[column]
                if let old, let formula = old.formula(prefix: cells.prefix) {
                    report.replacedFormulas.append(
                        "\(patch.sheet) cell \(CellReference.name(column: column, row: row)): formula "
                            + "'=\(XMLEntities.unescape(formula.text))' replaced by the value '\(value.rawText)'")
                }
                let made = try cells.cell(value, replacing: old, column: column, row: row, style: style)
                usedDateStyle = usedDateStyle || made.usedDateStyle
                xml.set(made.cell)
            } else if existing[column] == nil, let template, let source = templateCells[column], !patch.ledgerColumns.contains(column) {
                xml.set(extended(source, from: template.row, to: row, column: column))
            }
        }
    }

    /// A user column's cell of the row above, carried into a new row: its style, and its formula
    /// moved down as a fill down would move it (the value is left for the spreadsheet to compute).
    private func extended(_ source: RowXML.CellXML, from aboveRow: Int, to row: Int, column: Int) -> RowXML.CellXML {
        var attributes = TagAttributes(pairs: [("r", CellReference.name(column: column, row: row))])
        attributes["s"] = source.attributes["s"]
        guard let text = formulaText(source, row: aboveRow) else {
            return RowXML.CellXML(attributes: attributes, inner: nil, column: column)
        }
        let moved = ReferenceShifter.translate(text, rows: row - aboveRow)
        return RowXML.CellXML(
            attributes: attributes, inner: "<\(cells.prefix)f>\(XMLEntities.escape(moved))</\(cells.prefix)f>", column: column)
    }

    /// The formula of a cell as written at `row` (new numbering), a shared formula's included.
    private func formulaText(_ cell: RowXML.CellXML, row: Int) -> String? {
        guard let formula = cell.formula(prefix: cells.prefix) else { return nil }
        if formula.attributes["t"] == "shared", formula.text.isEmpty, let si = formula.attributes["si"], let master = masters[si] {
            guard let masterRow = patch.shift.row(master.row) else { return nil }
            return ReferenceShifter.translate(master.text, rows: row - masterRow)
        }
        guard formula.attributes["t"] == nil || formula.attributes["t"] == "normal" || formula.attributes["t"] == "shared" else {
            return nil
        }
        return XMLEntities.unescape(formula.text)
    }

    mutating func setMaster(_ si: String, row: Int, text: String, ref: String?, orphaned isOrphan: Bool) {
        masters[si] = (row, text, ref)
        if isOrphan { orphaned.insert(si) }
    }

    mutating func takeOrphan(_ si: String) -> (row: Int, text: String, ref: String?)? {
        guard orphaned.remove(si) != nil, let master = masters[si] else { return nil }
        return master
    }

    func shifterFormula(_ text: String) -> String { shifter.formula(text, inSheet: true) }
    func shifterRanges(_ text: String) -> String? { shifter.rangeList(text, grows: false) }
}
