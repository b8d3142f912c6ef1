import SheetValues

/// A cell's `t` attribute.
enum CellType: Equatable {
    case number, sharedString, boolean, error, formulaString, inlineString, isoDate
    case unknown

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch bytes.count {
        case 1:
            switch bytes[0] {
            case UInt8(ascii: "n"): self = .number
            case UInt8(ascii: "s"): self = .sharedString
            case UInt8(ascii: "b"): self = .boolean
            case UInt8(ascii: "e"): self = .error
            case UInt8(ascii: "d"): self = .isoDate
            default: self = .unknown
            }
        case 3 where bytes.equals("str"): self = .formulaString
        case 9 where bytes.equals("inlineStr"): self = .inlineString
        default: self = .unknown
        }
    }
}

/// What turning a stored value into a `Cell` needs: the shared strings, each style's number
/// format kind and the date system.
struct WorksheetContext {
    var sharedStrings: [String]
    var styleKinds: [NumberFormatKind]
    var uses1904: Bool

    /// The cell for a stored value; `text` is nil when the cell has no `<v>` or `<is>`.
    func cell(type: CellType, style: Int, text: [UInt8]?, column: Int, row: Int) throws -> Cell {
        guard let text else { return .empty }
        switch type {
        case .number, .unknown:
            let trimmed = Self.trimmed(text)
            if trimmed.isEmpty { return .empty }
            let spelled = String(decoding: trimmed, as: UTF8.self)
            guard NumberText.isValid(trimmed) else { return .text(spelled) }
            // A double as the spreadsheet shows it: 15 significant digits (`91.06999999999999` is 91.07).
            let value = DisplayedNumber.canonical(spelled)
            let kind = style < styleKinds.count ? styleKinds[style] : .number
            if kind == .date { return .dateSerial(DateSerial.normalized(value, uses1904: uses1904)) }
            return .number(value)
        case .sharedString:
            let trimmed = Self.trimmed(text)
            // `<c t="s"><v/></c>`: some writers spell an empty cell this way.
            if trimmed.isEmpty { return .empty }
            guard let index = Self.parseIndex(trimmed), index < sharedStrings.count else {
                let place = CellReference.name(column: column, row: row)
                throw WorksheetProblem(
                    message: "cell \(place) refers to shared string '\(String(decoding: trimmed, as: UTF8.self))', "
                        + "but the table holds \(sharedStrings.count)")
            }
            return .text(sharedStrings[index])
        case .boolean:
            switch String(decoding: Self.trimmed(text), as: UTF8.self).lowercased() {
            case "1", "true": return .bool(true)
            case "0", "false": return .bool(false)
            case let other:
                let place = CellReference.name(column: column, row: row)
                throw WorksheetProblem(message: "cell \(place) is a boolean holding '\(other)'")
            }
        case .error:
            return .error(String(decoding: Self.trimmed(text), as: UTF8.self))
        case .formulaString, .inlineString:
            return .text(OOXMLEscape.unescape(text))
        case .isoDate:
            let value = String(decoding: Self.trimmed(text), as: UTF8.self)
            if value.isEmpty { return .empty }
            return DateSerial.fromISO8601(value).map(Cell.dateSerial) ?? .text(value)
        }
    }

    static func parseIndex<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var slice = bytes[...]
        while let first = slice.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D {
            slice = slice.dropFirst()
        }
        while let last = slice.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D {
            slice = slice.dropLast()
        }
        return slice
    }
}

/// The lexical form of an xsd:double as SpreadsheetML stores numbers: `-12`, `0.5`, `1.5E-3`.
enum NumberText {
    static func isValid<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var iterator = bytes.makeIterator()
        var byte = iterator.next()
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") { byte = iterator.next() }
        var digits = 0
        while let b = byte, b >= 0x30, b <= 0x39 { digits += 1; byte = iterator.next() }
        if byte == UInt8(ascii: ".") {
            byte = iterator.next()
            while let b = byte, b >= 0x30, b <= 0x39 { digits += 1; byte = iterator.next() }
        }
        guard digits > 0 else { return false }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            byte = iterator.next()
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") { byte = iterator.next() }
            var exponentDigits = 0
            while let b = byte, b >= 0x30, b <= 0x39 { exponentDigits += 1; byte = iterator.next() }
            guard exponentDigits > 0 else { return false }
        }
        return byte == nil
    }
}
