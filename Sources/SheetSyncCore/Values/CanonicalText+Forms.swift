/// Byte-level readers for the other valid forms people and other tools write: upper-case UUIDs
/// and braces, `2026/1/5` and `1/15/2026` dates, `…T08:00:00Z` or `+01:00` timestamps, `$1,234.50`
/// amounts, `yes`/`no` booleans, `Expense` enums.
///
/// Like the canonical recognizers, each answers only when the tolerant parser would give exactly
/// the same text, and returns nil for anything else (surrounding spaces, non-ASCII, signs,
/// exponents, problems), which then takes the tolerant path.
extension CanonicalText {
    @inline(__always) static func isEdgeBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// The canonical UUID of an ASCII UUID in either case, with or without dashes or braces.
    static func anyUUID(_ s: String) -> String? {
        if isUUID(s) { return s }
        return withBytes(s) { p -> String? in
            guard let digits = uuidDigits(p) else { return nil }
            return String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for i in digits where p[i] != UInt8(ascii: "-") {
                    if o == 8 || o == 13 || o == 18 || o == 23 {
                        out[o] = UInt8(ascii: "-")
                        o += 1
                    }
                    out[o] = p[i] | (p[i] >= 65 ? 0x20 : 0)
                    o += 1
                }
                return o
            }
        } ?? nil
    }

    /// Where the hex digits (and dashes) of a UUID in any form `anyUUID` reads lie in `p`; nil when
    /// `p` is no such UUID.
    static func uuidDigits(_ p: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = 0, end = p.count
        if end >= 2, p[0] == UInt8(ascii: "{"), p[end - 1] == UInt8(ascii: "}") {
            start = 1
            end -= 1
        }
        func hex(_ range: Range<Int>) -> Bool {
            for i in range where !isHexByte(p[i]) { return false }
            return true
        }
        switch end - start {
        case 32:
            return hex(start..<end) ? start..<end : nil
        case 36:
            let dash = UInt8(ascii: "-")
            guard p[start + 8] == dash, p[start + 13] == dash, p[start + 18] == dash, p[start + 23] == dash,
                hex(start..<start + 8), hex(start + 9..<start + 13), hex(start + 14..<start + 18),
                hex(start + 19..<start + 23), hex(start + 24..<end)
            else { return nil }
            return start..<end
        default:
            return nil
        }
    }

    /// The key of a UUID in any form `anyUUID` reads: the key of its canonical text (`RowKey.uuid`).
    static func uuidKey(_ p: UnsafeBufferPointer<UInt8>) -> RowKey? {
        // Nearly every id is canonical already: its bits without a branch per digit.
        if let (high, low) = RowKey.uuidBits(p) { return .uuid(high, low) }
        guard let digits = uuidDigits(p) else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, count = 0
        for i in digits where p[i] != UInt8(ascii: "-") {
            // `0-9` → 0–9, `a-f` and `A-F` → 10–15.
            let b = p[i], nibble = UInt64(b & 0x0F) + UInt64(b >> 6) * 9
            if count < 16 { high = high << 4 | nibble } else { low = low << 4 | nibble }
            count += 1
        }
        return .uuid(high, low)
    }

    /// `0-9`, `a-f` or `A-F`.
    @inline(__always) static func isHexByte(_ b: UInt8) -> Bool { b &- 48 < 10 || b &- 97 < 6 || b &- 65 < 6 }

    /// The canonical date of `Y-M-D`, `Y/M/D`, `Y.M.D` (a four-digit year first) or a date with the
    /// year last read by `order`, in digits only, as `FieldParser.date` reads text.
    static func anyDate(_ s: String, _ order: LocalForms.DateOrder) -> String? {
        if isDate(s) { return s }
        return withBytes(s) { p -> String? in
            guard let day = anyLocalDate(p, order) else { return nil }
            return date(year: day.year, month: day.month, day: day.day) ?? day.description
        } ?? nil
    }

    /// The day of `p` in any form `anyDate` reads; nil for anything else.
    static func anyLocalDate(_ p: UnsafeBufferPointer<UInt8>, _ order: LocalForms.DateOrder) -> LocalDate? {
        var values = (0, 0, 0), lengths = (0, 0, 0)
        var part = 0, value = 0, length = 0, slash = false
        func close() {
            switch part {
            case 0: (values.0, lengths.0) = (value, length)
            case 1: (values.1, lengths.1) = (value, length)
            default: (values.2, lengths.2) = (value, length)
            }
        }
        for b in p {
            if isDigit(b) {
                // Nine digits always fit an `Int`; longer numbers are no date anyway.
                guard length < 9 else { return nil }
                value = value * 10 + Int(b &- 48)
                length += 1
            } else if b == UInt8(ascii: "-") || b == UInt8(ascii: "/") || b == UInt8(ascii: ".") {
                // An empty part (`2026--01`) is skipped by the tolerant split: leave it to it.
                guard length > 0, part < 2 else { return nil }
                close()
                part += 1
                value = 0
                length = 0
                slash = slash || b == UInt8(ascii: "/")
            } else {
                return nil
            }
        }
        guard part == 2, length > 0 else { return nil }
        close()
        guard
            let (year, month, day) = order.fields(
                (values.0, lengths.0), (values.1, lengths.1), (values.2, lengths.2),
                separator: slash ? UInt8(ascii: "/") : UInt8(ascii: "."))
        else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    /// The canonical text of an ISO 8601 timestamp in any form `Timestamp(iso:)` reads (with or
    /// without fraction digits, `Z` or an offset), parsed on its bytes.
    static func anyTimestamp(_ s: String) -> String? {
        if isTimestamp(s) { return s }
        return Timestamp(iso: s)?.description
    }

    /// The canonical amount of a non-negative decimal with an optional `+`, currency sign (`$`, `€`,
    /// `£`, `¥`) and correct thousands grouping, as `Amount.parse(_:typedWith:)` reads it; nil for
    /// anything else.
    static func anyAmount(_ s: String, _ separator: LocalForms.DecimalSeparator) -> String? {
        withBytes(s) { p -> String? in
            guard let form = amountForm(p, separator) else { return nil }
            if form.isPlain { return plainAmount(s) }
            return amountText(p, whole: form.whole, wholeDigits: form.wholeDigits, fraction: form.fraction)
        } ?? nil
    }

    /// Where an amount `anyAmount` reads has its digits.
    struct AmountForm {
        /// Digits and a point only (no sign, currency or grouping): `plainAmount` reads it.
        var isPlain: Bool
        /// The whole part after leading zeros, group commas included; `wholeDigits` digits.
        var whole: Range<Int>
        var wholeDigits: Int
        /// The fraction digits without trailing zeros.
        var fraction: Range<Int>
    }

    /// The form of an amount `anyAmount` reads; nil for anything else. Under a decimal comma only the
    /// texts that read the same under both marks answer: no comma, and no point followed by exactly
    /// three digits (`1.234` is a thousands point there, or ambiguous: the tolerant parser decides).
    static func amountForm(_ p: UnsafeBufferPointer<UInt8>, _ separator: LocalForms.DecimalSeparator) -> AmountForm? {
        guard let form = amountForm(p) else { return nil }
        if separator == .comma, p.contains(UInt8(ascii: ",")) || threeDigitsAfterPoint(p) {
            return nil
        }
        return form
    }

    /// A point with exactly three digits after it, last in `p`.
    private static func threeDigitsAfterPoint(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        p.count >= 4 && p[p.count - 4] == UInt8(ascii: ".") && p[(p.count - 3)...].allSatisfy(isDigit)
    }

    /// The form of an amount `anyAmount` reads under a decimal point; nil for anything else.
    static func amountForm(_ p: UnsafeBufferPointer<UInt8>) -> AmountForm? {
        let n = p.count
        var i = 0
        if i < n, p[i] == UInt8(ascii: "+") { i += 1 }
        if i < n, p[i] == UInt8(ascii: "$") {
            i += 1
        } else if i + 1 < n, p[i] == 0xC2, p[i + 1] == 0xA3 || p[i + 1] == 0xA5 {  // £ ¥
            i += 2
        } else if i + 2 < n, p[i] == 0xE2, p[i + 1] == 0x82, p[i + 2] == 0xAC {  // €
            i += 3
        }
        let bodyStart = i
        var point = -1, commas = 0
        for k in bodyStart..<n {
            let b = p[k]
            if b == UInt8(ascii: ".") {
                guard point < 0 else { return nil }
                point = k
            } else if b == UInt8(ascii: ",") {
                guard point < 0 else { return nil }
                commas += 1
            } else if !isDigit(b) {
                return nil
            }
        }
        let wholeEnd = point < 0 ? n : point
        if commas > 0 {
            // Grouping: one to three digits, then groups of exactly three.
            var groupStart = bodyStart, first = true
            for k in bodyStart..<wholeEnd where p[k] == UInt8(ascii: ",") {
                let length = k - groupStart
                guard first ? (1...3).contains(length) : length == 3 else { return nil }
                first = false
                groupStart = k + 1
            }
            guard wholeEnd - groupStart == 3 else { return nil }
        }
        let fracStart = point < 0 ? n : point + 1
        // At least one digit (`.` alone and an empty cell are no amount).
        guard wholeEnd - bodyStart - commas + (n - fracStart) > 0 else { return nil }
        var intStart = bodyStart
        while intStart < wholeEnd, p[intStart] == UInt8(ascii: "0") || p[intStart] == UInt8(ascii: ",") { intStart += 1 }
        var fracEnd = n
        while fracEnd > fracStart, p[fracEnd - 1] == UInt8(ascii: "0") { fracEnd -= 1 }
        var intCount = 0
        for k in intStart..<wholeEnd where p[k] != UInt8(ascii: ",") { intCount += 1 }
        return AmountForm(
            isPlain: bodyStart == 0 && commas == 0, whole: intStart..<wholeEnd, wholeDigits: intCount, fraction: fracStart..<fracEnd)
    }

    /// `TRUE` or `FALSE` for the ASCII spellings `FieldParser` accepts in any case
    /// (`true`/`1`/`yes`/`y`, `false`/`0`/`no`/`n`).
    static func anyBoolean(_ s: String) -> String? {
        withBytes(s) { p -> String? in booleanValue(p).map { $0 ? "TRUE" : "FALSE" } } ?? nil
    }

    /// The value of a boolean spelled as `anyBoolean` reads it; nil for anything else.
    static func booleanValue(_ p: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard (1...5).contains(p.count) else { return nil }
        var word: UInt64 = 0
        for b in p {
            // Control bytes and spaces, which would also hide in the packed word, go the slow way.
            guard b > 0x20, b < 0x80 else { return nil }
            word = word << 8 | UInt64(b &- 65 < 26 ? b | 0x20 : b)
        }
        switch word {
        case 0x74_72_75_65, 0x31, 0x79_65_73, 0x79: return true  // true 1 yes y
        case 0x66_61_6C_73_65, 0x30, 0x6E_6F, 0x6E: return false  // false 0 no n
        default: return nil
        }
    }

    /// An ASCII word in any case, lowercased, when none of its ends is blank.
    static func lowercasedASCIIWord(_ s: String) -> String? {
        if isLowercaseASCIIWord(s) { return s }
        return withBytes(s) { p -> String? in
            guard isASCIIWord(p) else { return nil }
            return String(unsafeUninitializedCapacity: p.count) { out in
                for (i, b) in p.enumerated() { out[i] = b &- 65 < 26 ? b | 0x20 : b }
                return p.count
            }
        } ?? nil
    }

    /// ASCII with no blank at either end: a word `lowercasedASCIIWord` lowercases.
    static func isASCIIWord(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = p.first, let last = p.last, !isEdgeBlank(first), !isEdgeBlank(last) else { return false }
        return p.allSatisfy { $0 < 0x80 }
    }
}
