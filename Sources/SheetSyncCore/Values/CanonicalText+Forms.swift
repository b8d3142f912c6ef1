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
            var start = 0, end = p.count
            if end >= 2, p[0] == UInt8(ascii: "{"), p[end - 1] == UInt8(ascii: "}") {
                start = 1
                end -= 1
            }
            let dashed = end - start == 36
            guard dashed || end - start == 32 else { return nil }
            for i in start..<end {
                let b = p[i], at = i - start
                if dashed, at == 8 || at == 13 || at == 18 || at == 23 {
                    guard b == UInt8(ascii: "-") else { return nil }
                } else if !isHexByte(b) {
                    return nil
                }
            }
            return String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for i in start..<end where p[i] != UInt8(ascii: "-") {
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

    /// `0-9`, `a-f` or `A-F`.
    @inline(__always) static func isHexByte(_ b: UInt8) -> Bool { b &- 48 < 10 || b &- 97 < 6 || b &- 65 < 6 }

    /// The canonical date of `Y-M-D`, `Y/M/D`, `Y.M.D` (a four-digit year first) or `M/D/YYYY`, in
    /// digits only, as `FieldParser.date` reads text.
    static func anyDate(_ s: String) -> String? {
        if isDate(s) { return s }
        return withBytes(s) { p -> String? in
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
            let day: LocalDate?
            if lengths.0 == 4 {
                day = LocalDate(year: values.0, month: values.1, day: values.2)
            } else if lengths.2 == 4, slash {
                day = LocalDate(year: values.2, month: values.0, day: values.1)
            } else {
                day = nil
            }
            guard let day else { return nil }
            return date(year: day.year, month: day.month, day: day.day) ?? day.description
        } ?? nil
    }

    /// The canonical text of an ISO 8601 timestamp in any form `Timestamp(iso:)` reads (with or
    /// without fraction digits, `Z` or an offset), parsed on its bytes.
    static func anyTimestamp(_ s: String) -> String? {
        if isTimestamp(s) { return s }
        return Timestamp(iso: s)?.description
    }

    /// The canonical amount of a non-negative decimal with an optional `+`, currency sign (`$`, `€`,
    /// `£`, `¥`) and correct thousands grouping, as `Amount.parse` reads it; nil for anything else.
    static func anyAmount(_ s: String) -> String? {
        withBytes(s) { p -> String? in
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
            if bodyStart == 0 && commas == 0 { return plainAmount(s) }
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
            var intStart = bodyStart
            while intStart < wholeEnd, p[intStart] == UInt8(ascii: "0") || p[intStart] == UInt8(ascii: ",") { intStart += 1 }
            var fracEnd = n
            while fracEnd > fracStart, p[fracEnd - 1] == UInt8(ascii: "0") { fracEnd -= 1 }
            guard wholeEnd - bodyStart - commas + (n - fracStart) > 0 else { return nil }
            var intCount = 0
            for k in intStart..<wholeEnd where p[k] != UInt8(ascii: ",") { intCount += 1 }
            return amountText(p, whole: intStart..<wholeEnd, wholeDigits: intCount, fraction: fracStart..<fracEnd)
        } ?? nil
    }

    /// `TRUE` or `FALSE` for the ASCII spellings `FieldParser` accepts in any case
    /// (`true`/`1`/`yes`/`y`, `false`/`0`/`no`/`n`).
    static func anyBoolean(_ s: String) -> String? {
        withBytes(s) { p -> String? in
            guard (1...5).contains(p.count) else { return nil }
            var word: UInt64 = 0
            for b in p {
                // Control bytes and spaces, which would also hide in the packed word, go the slow way.
                guard b > 0x20, b < 0x80 else { return nil }
                word = word << 8 | UInt64(b &- 65 < 26 ? b | 0x20 : b)
            }
            switch word {
            case 0x74_72_75_65, 0x31, 0x79_65_73, 0x79: return "TRUE"  // true 1 yes y
            case 0x66_61_6C_73_65, 0x30, 0x6E_6F, 0x6E: return "FALSE"  // false 0 no n
            default: return nil
            }
        } ?? nil
    }

    /// An ASCII word in any case, lowercased, when none of its ends is blank.
    static func lowercasedASCIIWord(_ s: String) -> String? {
        if isLowercaseASCIIWord(s) { return s }
        return withBytes(s) { p -> String? in
            guard let first = p.first, let last = p.last, !isEdgeBlank(first), !isEdgeBlank(last),
                p.allSatisfy({ $0 < 0x80 })
            else { return nil }
            return String(unsafeUninitializedCapacity: p.count) { out in
                for (i, b) in p.enumerated() { out[i] = b &- 65 < 26 ? b | 0x20 : b }
                return p.count
            }
        } ?? nil
    }
}
