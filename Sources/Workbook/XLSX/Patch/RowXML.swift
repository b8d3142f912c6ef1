import Foundation

/// One `<row>` element taken apart into its cells, for a row that a patch changes; every part of
/// it that the patch leaves alone is written back as it was.
struct RowXML {
    /// One `<c>` element: its attributes, its content (nil for `<c/>`) and its column.
    struct CellXML {
        var attributes: TagAttributes
        var inner: String?
        var column: Int
    }

    enum Item {
        case cell(CellXML)
        /// Whitespace or any other child, verbatim.
        case other(String)
    }

    var prefix: String
    var attributes: TagAttributes
    var items: [Item]

    /// Parses the row element in `bytes` (from its `<` to just past its end).
    init(_ bytes: ArraySlice<UInt8>, prefix: String) {
        let xml = XMLBytes(bytes: Array(bytes))
        self.prefix = prefix
        guard let (startEnd, selfClosing) = xml.tagEnd(from: 0) else {
            attributes = TagAttributes()
            items = []
            return
        }
        attributes = TagAttributes(tag: Substring(xml.string(0..<startEnd)))
        items = []
        guard !selfClosing else { return }
        let closing = Array("</\(prefix)c>".utf8)
        let rowEnd = xml.find(Array("</\(prefix)row".utf8), from: startEnd) ?? xml.bytes.count
        var position = startEnd
        var column = 0
        while let cellStart = xml.startTag("\(prefix)c", from: position, to: rowEnd) {
            if cellStart > position { items.append(.other(xml.string(position..<cellStart))) }
            guard let (tagEnd, empty) = xml.tagEnd(from: cellStart) else { break }
            let cellAttributes = TagAttributes(tag: Substring(xml.string(cellStart..<tagEnd)))
            column =
                cellAttributes["r"].flatMap { A1Range.cell($0.filter { $0 != "$" })?.column }
                .flatMap(CellReference.columnNumber) ?? column + 1
            if empty {
                items.append(.cell(CellXML(attributes: cellAttributes, inner: nil, column: column)))
                position = tagEnd
            } else {
                let end = xml.find(closing, from: tagEnd, to: rowEnd) ?? rowEnd
                items.append(.cell(CellXML(attributes: cellAttributes, inner: xml.string(tagEnd..<end), column: column)))
                position = min(end + closing.count, rowEnd)
            }
        }
        if position < rowEnd { items.append(.other(xml.string(position..<rowEnd))) }
    }

    init(prefix: String, attributes: TagAttributes) {
        self.prefix = prefix
        self.attributes = attributes
        self.items = []
    }

    var cells: [CellXML] {
        items.compactMap { if case .cell(let cell) = $0 { return cell } else { return nil } }
    }

    /// Replaces the cell in `column`, or inserts it in column order.
    mutating func set(_ cell: CellXML) {
        if let index = items.firstIndex(where: { if case .cell(let c) = $0 { return c.column == cell.column } else { return false } }) {
            items[index] = .cell(cell)
            return
        }
        let index = items.firstIndex { if case .cell(let c) = $0 { return c.column > cell.column } else { return false } }
        items.insert(.cell(cell), at: index ?? items.endIndex)
    }

    var text: String {
        var out = "<\(prefix)row\(attributes.text)"
        guard !items.isEmpty else { return out + "/>" }
        out += ">"
        for item in items {
            switch item {
            case .other(let text): out += text
            case .cell(let cell):
                out += "<\(prefix)c\(cell.attributes.text)"
                out += cell.inner.map { ">\($0)</\(prefix)c>" } ?? "/>"
            }
        }
        return out + "</\(prefix)row>"
    }
}

extension RowXML.CellXML {
    /// The cell's `<f>` element: its attributes and text (escaped), nil when it has none.
    func formula(prefix: String) -> (attributes: TagAttributes, text: String, range: Range<String.Index>)? {
        guard let inner, let start = inner.range(of: "<\(prefix)f") else { return nil }
        let afterName = inner[start.upperBound...]
        guard let next = afterName.first, next == " " || next == ">" || next == "/" else { return nil }
        guard let tagClose = afterName.firstIndex(of: ">") else { return nil }
        let tag = inner[start.lowerBound...tagClose]
        let attributes = TagAttributes(tag: tag)
        if tag.hasSuffix("/>") { return (attributes, "", start.lowerBound..<inner.index(after: tagClose)) }
        let closing = "</\(prefix)f>"
        guard let end = inner.range(of: closing, range: inner.index(after: tagClose)..<inner.endIndex) else { return nil }
        return (attributes, String(inner[inner.index(after: tagClose)..<end.lowerBound]), start.lowerBound..<end.upperBound)
    }
}
