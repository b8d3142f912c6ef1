import SheetValues

/// The common cells of a workbook, read without the tolerant parser.
///
/// A workbook sheetsync wrote holds canonical text (CSV) or typed cells (XLSX) in nearly every
/// cell; those are recognized on their bytes here, and the canonical text is often the cell's own
/// string. The other valid forms people and tools write (`…T08:00:00Z`, `$1,234.50`, `2026/1/5`,
/// `Expense`, upper-case UUIDs) are read on their bytes too (`CanonicalText+Forms.swift`). Each case answers only when `canonicalTolerantly` would give exactly the same text, and
/// returns nil otherwise (so every other cell, and every problem, goes the tolerant way).
extension FieldParser {
    package static func canonicalFast(_ cell: Cell, _ kind: FieldKind, _ forms: LocalForms = .standard) -> String? {
        switch cell {
        case .text(let raw):
            if raw.isEmpty { return "" }
            return canonicalFast(text: raw, kind, forms)
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
            if case .boolean = kind { return b ? FieldRule.trueText : FieldRule.falseText }
            return nil
        case .empty:
            return ""
        case .error:
            return nil
        }
    }

    private static func canonicalFast(text raw: String, _ kind: FieldKind, _ forms: LocalForms) -> String? {
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
            return CanonicalText.anyAmount(raw, forms.decimalSeparator)
        case .date:
            return CanonicalText.anyDate(raw, forms.dateOrder)
        case .timestamp:
            return CanonicalText.anyTimestamp(raw)
        }
    }

    /// Whether a text cell of the (non-empty) bytes `p` has a value `canonicalFast` reads, decided on
    /// the bytes without building the value's text: true only when `canonicalFast(.text(p as a
    /// string), kind)` answers (the `fields` fuzz target checks it). Spaces around a value, and any
    /// form only the tolerant parser reads, answer false.
    package static func readsFast(_ p: UnsafeBufferPointer<UInt8>, _ rule: FastRule) -> Bool {
        switch rule.form {
        case .any:
            return true
        case .uuid:
            return CanonicalText.uuidDigits(p) != nil
        case .enumeration:
            guard p.count < 16, CanonicalText.isASCIIWord(p) else { return false }
            return rule.words.contains(FastRule.packed(p))
        case .boolean:
            return CanonicalText.booleanValue(p) != nil
        case .integer:
            return CanonicalText.plainInteger(p).map(rule.range.contains) ?? false
        case .amount:
            return CanonicalText.amountForm(p, rule.forms.decimalSeparator) != nil
        case .date:
            return CanonicalText.anyLocalDate(p, rule.forms.dateOrder) != nil
        case .timestamp:
            return Timestamp.milliseconds(iso: p) != nil
        }
    }

    /// Appends to `out` the bytes of `canonicalFast(.text(p as a string), kind)` for a non-empty cell
    /// `readsFast` accepts, and returns false (`out` as it was) when that gives nil. The forms people
    /// and other tools write most (a value already canonical, `…:30Z` for `…:30.000Z`) are copied
    /// on their bytes; any other goes through `canonicalFast` itself (the `fields` fuzz target and
    /// `PlainLoadTests` check that both ways agree).
    package static func appendCanonical(
        _ p: UnsafeBufferPointer<UInt8>, _ kind: FieldKind, _ forms: LocalForms = .standard, to out: inout [UInt8]
    ) -> Bool {
        guard let first = p.first, let last = p.last else { return true }
        let asIs: Bool
        switch kind {
        case .freeText:
            asIs = true
        case .text:
            asIs = first < 0x80 && last < 0x80 && first != 0x20 && first != 0x09 && last != 0x20 && last != 0x09
        case .uuid:
            asIs = RowKey.uuidBits(p) != nil
        case .enumeration:
            asIs = p.count < 16 && CanonicalText.isASCIIWord(p) && !p.contains(where: { $0 &- 65 < 26 })
        case .integer:
            asIs = p.count == 1 || first != UInt8(ascii: "0")
        case .date:
            asIs = p.count == 10 && p[4] == UInt8(ascii: "-") && p[7] == UInt8(ascii: "-")
        case .timestamp:
            if p.count == 20, last == UInt8(ascii: "Z"), p[10] == UInt8(ascii: "T"), p[16] == UInt8(ascii: ":"),
                CanonicalText.isDigit(p[17]), p[17] < UInt8(ascii: "6"), CanonicalText.isDigit(p[18]),
                Timestamp.milliseconds(iso: p) != nil
            {
                // Whole seconds with a `Z`: the canonical text with `.000` before the `Z`.
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[0..<19]))
                out.append(contentsOf: [UInt8(ascii: "."), 0x30, 0x30, 0x30, UInt8(ascii: "Z")])
                return true
            }
            asIs = p.count == 24 && CanonicalText.isTimestamp(p)
        case .amount, .boolean:
            asIs = false
        }
        if asIs {
            out.append(contentsOf: p)
            return true
        }
        guard var text = canonicalFast(text: String(decoding: p, as: UTF8.self), kind, forms) else { return false }
        text.withUTF8 { out.append(contentsOf: $0) }
        return true
    }

    /// A field kind as `readsFast` checks it, in plain values (no array to retain per cell).
    package struct FastRule: Sendable {
        enum Form: Sendable { case any, uuid, enumeration, boolean, integer, amount, date, timestamp }
        var form: Form
        var range: ClosedRange<Int> = 0...0
        /// An enumeration's values, lowercase, each `packed`.
        var words = InlineWords()
        /// How dates and amounts typed as text read.
        var forms = LocalForms.standard

        /// Nil for an enumeration `InlineWords` cannot hold (more than four values, or one of 16 bytes or more).
        package init?(_ kind: FieldKind, _ forms: LocalForms = .standard) {
            self.forms = forms
            switch kind {
            case .freeText, .text: form = .any
            case .uuid: form = .uuid
            case .enumeration(let values):
                form = .enumeration
                for value in values {
                    guard value.utf8.count < 16, value.utf8.allSatisfy({ $0 < 0x80 }), words.count < 4 else { return nil }
                    let word = Array(value.utf8).withUnsafeBufferPointer(Self.packed)
                    words.append(word)
                }
            case .boolean: form = .boolean
            case .integer(let range):
                form = .integer
                self.range = range
            case .amount: form = .amount
            case .date: form = .date
            case .timestamp: form = .timestamp
            }
        }

        /// An ASCII word of fewer than 16 bytes, lowercased, with its length, in 128 bits.
        static func packed(_ p: UnsafeBufferPointer<UInt8>) -> UInt128 {
            var word = UInt128(p.count)
            for (i, b) in p.enumerated() { word |= UInt128(b &- 65 < 26 ? b | 0x20 : b) << (8 * (i + 1)) }
            return word
        }
    }

    /// Up to four packed words, inline.
    struct InlineWords: Sendable {
        private var slots: (UInt128, UInt128, UInt128, UInt128) = (0, 0, 0, 0)
        private(set) var count = 0

        mutating func append(_ word: UInt128) {
            switch count {
            case 0: slots.0 = word
            case 1: slots.1 = word
            case 2: slots.2 = word
            default: slots.3 = word
            }
            count += 1
        }

        func contains(_ word: UInt128) -> Bool {
            (count > 0 && slots.0 == word) || (count > 1 && slots.1 == word) || (count > 2 && slots.2 == word)
                || (count > 3 && slots.3 == word)
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
