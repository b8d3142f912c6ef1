import SheetValues

/// Streams a worksheet part through a patch: rows the patch leaves alone are copied byte for
/// byte, changed cells are replaced (style kept), deleted rows dropped and the rows below them
/// renumbered with every row reference in the part moved along.
struct WorksheetPatcher {
    let patch: WorksheetPatch
    /// Writes the new cells; its prefix becomes the worksheet's own when `run` finds it.
    private(set) var cells: PatchedCell
    private(set) var report = WorksheetPatchReport()
    private(set) var usedDateStyle = false
    private var shifter: ReferenceShifter { ReferenceShifter(sheet: patch.sheet, shift: patch.shift) }
    /// Shared formulas by `si`: the master's row (old number) and text.
    private var masters: [String: (row: Int, text: String, ref: String?)] = [:]
    /// Masters whose row was deleted, waiting for the first child left to take over.
    private var orphaned: Set<String> = []
    /// The row written last at or above the table's end: what an appended row copies.
    private var above: (row: Int, xml: RowXML)?

    /// Rows (old numbers, ascending) whose values the patch changes, deletes or adds.
    private let touchedRows: [Int]
    /// This sheet's formulas (`StaleFormulas.key`, old numbers) that depend on what the push
    /// changes, in any sheet, through any chain of formulas; and their rows.
    let stale: Set<Int>
    private let staleRows: Set<Int>
    /// The other sheets whose rows the same push moves: this sheet's references to them follow.
    let others: [ReferenceShifter]
    /// The lowercased names of `others`, as bytes, plain and XML-escaped.
    private let otherNames: [[UInt8]]
    /// Shared formulas that read a sheet in `others`, by `si`: where the master is and its text
    /// as written. Their cells each get their own formula, since the rows they read no longer
    /// move together with the cells.
    var unshared: [String: (row: Int, column: Int, text: String)] = [:]

    init(patch: WorksheetPatch, cells: PatchedCell, stale: Set<Int> = [], others: [ReferenceShifter] = []) {
        self.patch = patch
        self.cells = cells
        touchedRows = Set(patch.cells.keys).union(patch.shift.deleted).sorted()
        self.stale = stale
        staleRows = Set(stale.map { $0 >> 15 })
        self.others = others.filter { $0.shift.movesRows && $0.sheet.lowercased() != patch.sheet.lowercased() }
        otherNames = Array(Set(self.others.flatMap { [$0.sheet.lowercased(), XMLEntities.escape($0.sheet).lowercased()] }))
            .map { Array($0.utf8) }
    }

    /// Where the stream is: before `<sheetData>`, among its rows, or past them.
    private enum Phase { case head, rows, tail }
    private var phase = Phase.head
    /// Bytes fed but not yet written: the head until `<sheetData>` is complete, then at most the
    /// row that straddles two chunks, then the part after `</sheetData>` (merged cells, links,
    /// validation: ranges to move, never cells).
    private var buffer: [UInt8] = []
    /// The worksheet's own namespace prefix (`""` or `"x:"`), known once `<sheetData>` is seen.
    private var prefix = ""
    /// Rows the patch adds or changes that the stream has not reached yet, ascending.
    private var pending: ArraySlice<Int> = []
    /// The number of the last row seen (rows without `r` follow the one before).
    private var implicitRow = 0

    /// Writes the patched part of `bytes` to `out` (the whole part at once).
    mutating func run(_ bytes: [UInt8], to out: ByteSink) throws {
        try feed(bytes, to: out)
        try finish(to: out)
    }

    /// Takes the next chunk of the part and writes out every row it completes, so memory holds
    /// one chunk and one row, whatever the size of the sheet.
    mutating func feed<C: Collection>(_ chunk: C, to out: ByteSink) throws where C.Element == UInt8 {
        buffer.append(contentsOf: chunk)
        try advance(out, final: false)
    }

    /// Writes what is left once the part has been fed whole.
    mutating func finish(to out: ByteSink) throws {
        try advance(out, final: true)
    }

    private mutating func advance(_ out: ByteSink, final: Bool) throws {
        if phase == .head {
            let xml = XMLBytes(bytes: buffer)
            guard let (found, start) = xml.firstElement(localName: "sheetData"), let (openEnd, empty) = xml.tagEnd(from: start)
            else {
                if final { throw WorksheetProblem(message: "has no <sheetData> element") }
                return
            }
            prefix = found
            cells = PatchedCell(prefix: prefix, uses1904: cells.uses1904, dateStyle: cells.dateStyle, isDateStyle: cells.isDateStyle)
            pending = patch.cells.keys.sorted()[...]
            out.append(bytes: SheetReferences(shifter: shifter, others: others).edit(xml.string(0..<start)).utf8)
            if empty {
                out.append(bytes: (xml.string(start..<(openEnd - 2)) + ">").utf8)
                try writePendingRows(out)
                out.append(bytes: Array("</\(prefix)sheetData>".utf8))
            } else {
                out.append(bytes: buffer[start..<openEnd])
            }
            buffer = Array(buffer[openEnd...])
            phase = empty ? .tail : .rows
        }
        if phase == .rows { try rows(out, final: final) }
        if phase == .tail, final {
            out.append(bytes: SheetReferences(shifter: shifter, others: others).edit(String(decoding: buffer, as: UTF8.self)).utf8)
            buffer = []
        }
    }

    /// Writes the complete rows in the buffer; keeps the incomplete one for the next chunk.
    private mutating func rows(_ out: ByteSink, final: Bool) throws {
        let xml = XMLBytes(bytes: buffer)
        let closing = Array("</\(prefix)sheetData>".utf8)
        let rowClosing = Array("</\(prefix)row>".utf8)
        var position = 0
        var bodyEnd: Int?
        while true {
            guard let rowStart = xml.startTag("\(prefix)row", from: position) else {
                bodyEnd = xml.find(closing, from: position)
                break
            }
            if let end = xml.find(closing, from: position, to: rowStart) {
                bodyEnd = end
                break
            }
            guard let (tagEnd, selfClosing) = xml.tagEnd(from: rowStart) else { break }
            let end: Int
            if selfClosing {
                end = tagEnd
            } else if let close = xml.find(rowClosing, from: tagEnd) {
                end = close + rowClosing.count
            } else if final {
                end = buffer.count
            } else {
                break
            }
            let attributes = TagAttributes(tag: Substring(xml.string(rowStart..<tagEnd)))
            let number = attributes["r"].flatMap { Int($0) } ?? implicitRow + 1
            implicitRow = number
            out.append(bytes: buffer[position..<rowStart])
            while let next = pending.first, next < number {
                out.append(bytes: try newRow(next, prefix: prefix).utf8)
                pending.removeFirst()
            }
            if pending.first == number { pending.removeFirst() }
            out.append(bytes: try row(buffer[rowStart..<end], number: number, prefix: prefix).utf8)
            try out.flushIfFull()
            position = end
        }
        if let bodyEnd {
            out.append(bytes: buffer[position..<bodyEnd])
            try writePendingRows(out)
            buffer = Array(buffer[bodyEnd...])
            phase = .tail
        } else if final {
            // No </sheetData>: what is left goes out as it came, the new rows after it.
            out.append(bytes: buffer[position...])
            try writePendingRows(out)
            buffer = []
            phase = .tail
        } else {
            buffer = Array(buffer[position...])
        }
    }

    private mutating func writePendingRows(_ out: ByteSink) throws {
        for next in pending { out.append(bytes: try newRow(next, prefix: prefix).utf8) }
        pending = []
    }

    /// The row element as it goes out: the same bytes when nothing in it changes.
    private mutating func row(_ slice: ArraySlice<UInt8>, number: Int, prefix: String) throws -> String {
        let bytes = XMLBytes(bytes: Array(slice))
        let hasMaster = bytes.find(Array("\"shared\"".utf8), from: 0) != nil && bytes.find(Array(" ref=".utf8), from: 0) != nil
        let changes = patch.cells[number]
        let isTemplate = number == patch.shift.lastDataRow && !patch.appendedRows.isEmpty
        let hasFormula = bytes.find(Array("<\(prefix)f".utf8), from: 0) != nil
        let mayBeStale =
            hasFormula && !patch.frozenRows.contains(number) && (!touchedRows.isEmpty || staleRows.contains(number))
        // A shared formula's other cells hold no text: they go with their master when it reads `others`.
        let readsOthers =
            hasFormula && (namesOthers(slice) || (!unshared.isEmpty && bytes.find(Array("\"shared\"".utf8), from: 0) != nil))
        guard changes != nil || patch.shift.movesRows || hasMaster || isTemplate || mayBeStale || readsOthers else {
            return String(decoding: slice, as: UTF8.self)
        }
        var xml = RowXML(slice, prefix: prefix)
        if hasMaster { noteMasters(xml, row: number) }
        let dropped = mayBeStale && changes == nil && dropStaleResults(&xml, row: number)
        guard let newNumber = patch.shift.row(number) else { return "" }
        if patch.shift.movesRows { try move(&xml, from: number, to: newNumber) }
        let movedOthers = readsOthers && moveReferencesToOthers(&xml, row: number)
        if let changes { try apply(changes, to: &xml, row: newNumber, appended: patch.appendedRows.contains(number)) }
        if number <= patch.shift.lastDataRow || patch.appendedRows.contains(number) { above = (newNumber, xml) }
        let same = changes == nil && !patch.shift.movesRows && !dropped && !movedOthers
        return same ? String(decoding: slice, as: UTF8.self) : xml.text
    }

    /// Whether the row's bytes spell the name of a sheet in `others` (any case): a cheap look
    /// before its formulas are read.
    private func namesOthers(_ slice: ArraySlice<UInt8>) -> Bool {
        guard !otherNames.isEmpty else { return false }
        let lowered = XMLBytes(bytes: slice.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        return otherNames.contains { lowered.find($0, from: 0) != nil }
    }

    /// Drops the cached results of the row's formulas that read a row the patch changes, adds or
    /// deletes (a running balance, a subtotal), so a spreadsheet that trusts cached results
    /// recomputes them; whether any went. Formulas are read as written, before rows move.
    private mutating func dropStaleResults(_ xml: inout RowXML, row: Int) -> Bool {
        var dropped = false
        for cell in xml.cells {
            guard let formula = cell.formula(prefix: cells.prefix) else { continue }
            if stale.contains(StaleFormulas.key(row: row, column: cell.column)) {
                dropped = drop(cell, in: &xml) || dropped
                continue
            }
            var text = XMLEntities.unescape(formula.text)
            if text.isEmpty, formula.attributes["t"] == "shared", let si = formula.attributes["si"], let master = masters[si] {
                guard !patch.shift.movesRows else { continue }
                text = ReferenceShifter.translate(master.text, rows: row - master.row)
            }
            guard !text.isEmpty, readsTouchedRows(text) else { continue }
            dropped = drop(cell, in: &xml) || dropped
        }
        return dropped
    }

    /// Drops a formula cell's cached result; whether it had one (a row whose formulas had none
    /// is copied as it was).
    private func drop(_ cell: RowXML.CellXML, in xml: inout RowXML) -> Bool {
        let moved = StaleCachedValues.dropped(cell, prefix: cells.prefix)
        guard moved.inner != cell.inner || moved.attributes != cell.attributes else { return false }
        xml.set(moved)
        return true
    }

    /// Whether a formula of this sheet reads a row in `touchedRows`, or a whole column.
    private func readsTouchedRows(_ text: String) -> Bool {
        var hit = false
        _ = FormulaReferences.rewrite(text) { qualifier, range in
            guard qualifier.map({ ReferenceShifter.sheetName($0).lowercased() == patch.sheet.lowercased() }) ?? true else { return nil }
            let first = min(range.start.row, range.end?.row ?? range.start.row)
            let last = max(range.start.row, range.end?.row ?? range.start.row)
            var low = 0
            var high = touchedRows.count
            while low < high {
                let mid = (low + high) / 2
                if touchedRows[mid] < first { low = mid + 1 } else { high = mid }
            }
            if low < touchedRows.count, touchedRows[low] <= last { hit = true }
            return nil
        }
        return hit || text.contains(/(^|[^A-Za-z0-9_.!$])\$?[A-Z]{1,3}:\$?[A-Z]{1,3}($|[^A-Za-z0-9_(])/)
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
        // The row's other formulas (a Total column) may depend on what changed: their cached results go.
        for cell in xml.cells where changes[cell.column] == nil && !appended && cell.formula(prefix: cells.prefix) != nil {
            xml.set(StaleCachedValues.dropped(cell, prefix: cells.prefix))
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
