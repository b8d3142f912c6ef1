import SheetValues

/// Writes the `<c>` elements a patch puts into a worksheet: the cell's own attributes kept (its
/// style index above all), its type and value replaced.
struct PatchedCell {
    let prefix: String
    let uses1904: Bool
    /// The workbook's style for dates, and whether a style index already formats dates.
    let dateStyle: Int
    let isDateStyle: (Int) -> Bool

    /// `existing` with `value` in it (a new cell at `column` when nil), at row `row`.
    /// Returns the cell and whether the date style had to be used.
    func cell(_ value: Cell, replacing existing: RowXML.CellXML?, column: Int, row: Int, style: String?) throws
        -> (cell: RowXML.CellXML, usedDateStyle: Bool)
    {
        var attributes = existing?.attributes ?? TagAttributes(pairs: [("r", "")])
        attributes["r"] = CellReference.name(column: column, row: row)
        // `t="n"` (a number, the default) stays as written for a number; any other type goes.
        let keepsNumberType = attributes["t"] == "n"
        attributes["t"] = nil
        if existing == nil, let style { attributes["s"] = style }
        var usedDateStyle = false
        let inner: String?
        switch value {
        case .empty:
            inner = nil
        case .number(let text):
            if keepsNumberType { attributes["t"] = "n" }
            inner = "<\(prefix)v>\(try number(text, column, row))</\(prefix)v>"
        case .bool(let flag):
            attributes["t"] = "b"
            inner = "<\(prefix)v>\(flag ? 1 : 0)</\(prefix)v>"
        case .dateSerial(let serial):
            if !(attributes["s"].flatMap { Int($0) }.map(isDateStyle) ?? false) {
                attributes["s"] = String(dateStyle)
                usedDateStyle = true
            }
            if keepsNumberType { attributes["t"] = "n" }
            inner = "<\(prefix)v>\(try number(DateSerial.stored(serial, uses1904: uses1904), column, row))</\(prefix)v>"
        case .text(let text), .error(let text):
            attributes["t"] = "inlineStr"
            let escaped = XMLEntities.escape(OOXMLEscape.mayNeedEscaping(text.utf8) ? OOXMLEscape.escape(text) : text)
            let space = text.first.map { $0.isWhitespace } == true || text.last.map { $0.isWhitespace } == true
            let open = space ? "<\(prefix)t xml:space=\"preserve\">" : "<\(prefix)t>"
            inner = "<\(prefix)is>\(open)\(escaped)</\(prefix)t></\(prefix)is>"
        }
        return (RowXML.CellXML(attributes: attributes, inner: inner, column: column), usedDateStyle)
    }

    private func number(_ text: String, _ column: Int, _ row: Int) throws -> String {
        var utf8 = Substring(text).utf8
        guard NumberText.isValid(utf8) else {
            throw WorksheetProblem(
                message: "cell \(CellReference.name(column: column, row: row)) cannot hold '\(text)', which is not a number")
        }
        if utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        return String(Substring(utf8))
    }
}

/// The five predefined entities and character references of XML text.
enum XMLEntities {
    static func escape(_ text: String) -> String { XMLText.attribute(text) }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) { out.unicodeScalars.append(scalar) } else { out += "&\(entity);" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
