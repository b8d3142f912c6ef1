/// The common cells of a workbook, read without the tolerant parser.
///
/// A workbook sheetsync wrote holds canonical text (CSV) or typed cells (XLSX) in nearly every
/// cell; those are recognized on their bytes here, and the canonical text is often the cell's own
/// string. The other valid forms people and tools write (`…T08:00:00Z`, `$1,234.50`, `2026/1/5`,
/// `Expense`, upper-case UUIDs) are read on their bytes too (`CanonicalText+Forms.swift`). Each case answers only when `canonicalTolerantly` would give exactly the same text, and
/// returns nil otherwise (so every other cell, and every problem, goes the tolerant way).
extension FieldParser {
    static func canonicalFast(_ cell: Cell, _ kind: FieldKind) -> String? {
        switch cell {
        case .text(let raw):
            if raw.isEmpty { return "" }
            return canonicalFast(text: raw, kind)
        case .number(let raw):
            switch kind {
            case .amount: return CanonicalText.plainAmount(raw)
            case .integer(let range): return plainInteger(raw, range)
            case .date: return serialDate(raw)
            default: return nil
            }
        case .dateSerial(let raw):
            if case .date = kind { return serialDate(raw) }
            return nil
        case .bool(let b):
            if case .boolean = kind { return b ? "TRUE" : "FALSE" }
            return nil
        case .empty:
            return ""
        case .error:
            return nil
        }
    }

    private static func canonicalFast(text raw: String, _ kind: FieldKind) -> String? {
        switch kind {
        case .freeText:
            return raw
        case .text:
            return raw.trimmingSpaces()
        case .uuid:
            return CanonicalText.anyUUID(raw)
        case .enumeration(let values):
            guard let word = CanonicalText.lowercasedASCIIWord(raw) else { return nil }
            return values.contains(word) ? word : nil
        case .boolean:
            return CanonicalText.anyBoolean(raw)
        case .integer(let range):
            return plainInteger(raw, range)
        case .amount:
            return CanonicalText.anyAmount(raw)
        case .date:
            return CanonicalText.anyDate(raw)
        case .timestamp:
            return CanonicalText.anyTimestamp(raw)
        }
    }

    /// Digits only, in range: the number in decimal (the cell's own string unless it has leading zeros).
    private static func plainInteger(_ raw: String, _ range: ClosedRange<Int>) -> String? {
        guard let n = CanonicalText.plainInteger(raw), range.contains(n) else { return nil }
        return raw.utf8.count == 1 || raw.utf8.first != UInt8(ascii: "0") ? raw : String(n)
    }

    /// A whole-day serial (digits only) as its `YYYY-MM-DD`, as `date(_:)` reads it.
    private static func serialDate(_ raw: String) -> String? {
        guard let whole = CanonicalText.plainInteger(raw), whole <= lastSerial else { return nil }
        let day = LocalDate(spreadsheetSerial: whole)
        return CanonicalText.date(year: day.year, month: day.month, day: day.day) ?? day.description
    }
}
