/// What a number format makes of a number: a plain number, a date (or date-time), or a duration.
enum NumberFormatKind: Equatable, Sendable {
    case number
    case date
    /// Elapsed time such as `[h]:mm:ss`: a length of time, not a point in it, so read as a number.
    case duration

    /// The kind of a built-in format id (ECMA-376 §18.8.30) that no `<numFmt>` redefines.
    ///
    /// 14–22 are dates and times; 45 (`mm:ss`) and 47 (`mmss.0`) are times of day; 46 (`[h]:mm:ss`)
    /// is a duration. 27–36 and 50–58 are the East Asian locales' built-in date formats, which
    /// Excel in those locales writes without a `<numFmt>` entry.
    static func builtIn(_ id: Int) -> NumberFormatKind {
        switch id {
        case 14...22, 27...36, 45, 47, 50...58: return .date
        case 46: return .duration
        default: return .number
        }
    }

    /// The kind of a custom format code, e.g. Google Sheets' `M/d/yyyy` or `yyyy-mm-dd hh:mm:ss`.
    ///
    /// A date has a date or time token (`y m d h s`) outside quoted text, `[...]` sections, `\`
    /// escapes and the `_`/`*` padding operands; an elapsed-time bracket (`[h]`, `[mm]`, `[ss]`)
    /// makes it a duration. `General`, `0.00E+00` or `#,##0 "days"` stay numbers.
    static func custom(_ code: String) -> NumberFormatKind {
        var hasDateToken = false
        var iterator = code.unicodeScalars.makeIterator()
        var inQuotes = false
        while let scalar = iterator.next() {
            if inQuotes {
                if scalar == "\"" { inQuotes = false }
                continue
            }
            switch scalar {
            case "\"": inQuotes = true
            case "\\", "_", "*": _ = iterator.next()
            case "[":
                var bracket = ""
                while let inner = iterator.next(), inner != "]" { bracket.unicodeScalars.append(inner) }
                if isElapsedTime(bracket) { return .duration }
            case "y", "Y", "m", "M", "d", "D", "h", "H", "s", "S": hasDateToken = true
            default: continue
            }
        }
        return hasDateToken ? .date : .number
    }

    private static func isElapsedTime(_ bracket: String) -> Bool {
        let lower = bracket.lowercased()
        guard let first = lower.first, "hms".contains(first) else { return false }
        return lower.allSatisfy { $0 == first }
    }
}

/// Reads `styles.xml` just far enough to know which cell styles format numbers as dates.
final class StylesHandler: XMLEventHandler {
    private var customFormats: [Int: NumberFormatKind] = [:]
    private var formatIDs: [Int] = []
    private var inCellXfs = false
    /// `<numFmt>` also appears inside `<dxfs>` (conditional formats), with ids of its own.
    private var inNumFmts = false

    /// The kind of each cell style (`s` attribute of a cell), in order.
    var kinds: [NumberFormatKind] {
        formatIDs.map { customFormats[$0] ?? NumberFormatKind.builtIn($0) }
    }

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
        if name == "xf" {
            guard inCellXfs else { return }
            formatIDs.append(attributes.string("numFmtId").flatMap(Int.init) ?? 0)
        } else if name == "numFmt" {
            guard inNumFmts, let id = attributes.string("numFmtId").flatMap(Int.init),
                let code = attributes.string("formatCode")
            else { return }
            customFormats[id] = NumberFormatKind.custom(code)
        } else if name == "cellXfs" {
            inCellXfs = true
        } else if name == "numFmts" {
            inNumFmts = true
        }
    }

    func endElement(_ name: XMLName) throws {
        if name == "cellXfs" { inCellXfs = false }
        if name == "numFmts" { inNumFmts = false }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {}
}
