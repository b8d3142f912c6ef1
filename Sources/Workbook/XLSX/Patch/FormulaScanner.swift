import Foundation

/// Streams a worksheet part and hands over each formula cell with its position and text, a
/// shared formula's other cells with their master's text and place, so a caller can fill it.
///
/// Rows without a formula are skipped at byte level; memory holds one chunk and one row.
struct FormulaScanner {
    /// One formula cell: where it is and what it reads from.
    struct Found {
        var row: Int
        var column: Int
        /// The formula's text (unescaped); for a shared formula's other cells, the master's.
        var text: String
        /// Where `text` is written: the cell itself, or the shared formula's master.
        var writtenAt: (row: Int, column: Int)
        /// The shared formula's `si` when the cell is part of one.
        var sharedIndex: String?
    }

    /// Whether `part` spells `f>` anywhere: every sheet with a formula has a closing `</f>` (or
    /// `</x:f>`), and escaped text never holds a bare `>` after an `f`. A search through the
    /// inflated bytes, far cheaper than reading rows, spares the sheets without formulas.
    static func mayHoldFormulas(_ package: XLSXPackage, _ part: String) throws -> Bool {
        var found = false
        var last: UInt8 = 0
        try package.stream(part) { chunk in
            guard !found, let base = chunk.baseAddress, chunk.count > 0 else { return }
            if last == UInt8(ascii: "f"), chunk[0] == UInt8(ascii: ">") { found = true }
            var position = 0
            while !found, position < chunk.count - 1,
                let hit = memchr(base + position, Int32(UInt8(ascii: "f")), chunk.count - 1 - position)
            {
                let index = base.distance(to: UnsafeRawPointer(hit))
                found = chunk[index + 1] == UInt8(ascii: ">")
                position = index + 1
            }
            last = chunk[chunk.count - 1]
        }
        return found
    }

    private var buffer: [UInt8] = []
    private var prefix: String?
    private var implicitRow = 0
    private var masters: [String: (row: Int, column: Int, text: String)] = [:]
    private var done = false

    mutating func feed<C: Collection>(_ chunk: C, _ found: (Found) throws -> Void) rethrows where C.Element == UInt8 {
        guard !done else { return }
        buffer.append(contentsOf: chunk)
        try advance(final: false, found)
    }

    mutating func finish(_ found: (Found) throws -> Void) rethrows {
        guard !done else { return }
        try advance(final: true, found)
        buffer = []
    }

    private mutating func advance(final: Bool, _ found: (Found) throws -> Void) rethrows {
        var xml = XMLBytes(bytes: buffer)
        if prefix == nil {
            guard let (sheetPrefix, start) = xml.firstElement(localName: "sheetData") else { return }
            prefix = sheetPrefix
            buffer = Array(buffer[start...])
            xml = XMLBytes(bytes: buffer)
        }
        let prefix = prefix ?? ""
        let rowClosing = Array("</\(prefix)row>".utf8)
        let formulaOpen = Array("<\(prefix)f".utf8)
        let dataEnd = Array("</\(prefix)sheetData".utf8)
        var position = 0
        while let rowStart = xml.startTag("\(prefix)row", from: position) {
            if xml.find(dataEnd, from: position, to: rowStart) != nil {
                done = true
                break
            }
            guard let (tagEnd, selfClosing) = xml.tagEnd(from: rowStart) else { break }
            let end: Int
            if selfClosing {
                end = tagEnd
            } else if let close = xml.find(rowClosing, from: tagEnd) {
                end = close + rowClosing.count
            } else {
                break
            }
            let attributes = TagAttributes(tag: Substring(xml.string(rowStart..<tagEnd)))
            let number = attributes["r"].flatMap { Int($0) } ?? implicitRow + 1
            implicitRow = number
            if !selfClosing, xml.find(formulaOpen, from: tagEnd, to: end) != nil {
                try cells(RowXML(buffer[rowStart..<end], prefix: prefix), row: number, found)
            }
            position = end
        }
        if !done, xml.find(dataEnd, from: position) != nil { done = true }
        buffer = done || final ? [] : Array(buffer[position...])
    }

    private mutating func cells(_ xml: RowXML, row: Int, _ found: (Found) throws -> Void) rethrows {
        for cell in xml.cells {
            guard let formula = cell.formula(prefix: prefix ?? "") else { continue }
            let text = XMLEntities.unescape(formula.text)
            let si = formula.attributes["t"] == "shared" ? formula.attributes["si"] : nil
            if let si, !text.isEmpty { masters[si] = (row, cell.column, text) }
            if let si, text.isEmpty {
                guard let master = masters[si] else { continue }
                try found(Found(row: row, column: cell.column, text: master.text, writtenAt: (master.row, master.column), sharedIndex: si))
            } else if !text.isEmpty {
                try found(Found(row: row, column: cell.column, text: text, writtenAt: (row, cell.column), sharedIndex: si))
            }
        }
    }
}
