/// Byte-level recognizers and formatters for text already in sheetsync's canonical forms.
///
/// Nearly every cell of a workbook sheetsync wrote is canonical, and its canonical text is then the
/// cell's own text: recognizing that on the UTF-8 bytes lets a read keep the cell's string instead
/// of parsing it through `Character`s and building a new one. Each recognizer answers true only
/// when the slow, tolerant parser would return exactly the same text; anything else (upper case,
/// spaces, other formats, non-ASCII) takes the slow path, so behaviour is unchanged.
package enum CanonicalText {
    /// Runs `body` over the string's UTF-8 bytes (contiguous for every native Swift string), or
    /// returns nil when the bytes are not contiguous (a bridged string): the caller's slow path.
    @inline(__always)
    static func withBytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R?) -> R? {
        s.utf8.withContiguousStorageIfAvailable(body) ?? nil
    }

    @inline(__always) package static func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }

    /// An amount as `Amount` writes it from the digits of `p` in `whole` (group commas skipped;
    /// `wholeDigits` of them) and `fraction`: at least one whole digit, at least two fraction digits.
    static func amountText(_ p: UnsafeBufferPointer<UInt8>, whole: Range<Int>, wholeDigits: Int, fraction: Range<Int>) -> String {
        let length = max(wholeDigits, 1) + 1 + max(fraction.count, 2)
        return String(unsafeUninitializedCapacity: length) { out in
            var o = 0
            for k in whole where p[k] != UInt8(ascii: ",") {
                out[o] = p[k]
                o += 1
            }
            if o == 0 {
                out[0] = UInt8(ascii: "0")
                o = 1
            }
            out[o] = UInt8(ascii: ".")
            o += 1
            for k in fraction {
                out[o] = p[k]
                o += 1
            }
            while o < length {
                out[o] = UInt8(ascii: "0")
                o += 1
            }
            return length
        }
    }

    @inline(__always) static func isLowerHex(_ b: UInt8) -> Bool { b &- 48 < 10 || b &- 97 < 6 }

    /// The value of `count` ASCII digits at `start`, or nil when one is not a digit.
    @inline(__always)
    static func digits(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var v = 0
        for i in start..<(start + count) {
            let d = p[i] &- 48
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex: `FieldParser.canonicalUUID` returns it unchanged.
    static func isUUID(_ s: String) -> Bool {
        withBytes(s) { p in
            guard p.count == 36 else { return false }
            for i in 0..<36 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard p[i] == UInt8(ascii: "-") else { return false }
                } else if !isLowerHex(p[i]) {
                    return false
                }
            }
            return true
        } ?? false
    }

    /// Exactly `LocalDate(iso:)`: `YYYY-MM-DD` naming a real day.
    static func isoDate(_ s: String) -> LocalDate? {
        let parsed = withBytes(s) { p -> LocalDate?? in .some(p.count == 10 ? isoDate(p, 0) : nil) }
        return parsed ?? LocalDate(iso: s)
    }

    /// The date in the 10 bytes at `at` (the caller checked they exist).
    @inline(__always)
    static func isoDate(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> LocalDate? {
        guard p[at + 4] == UInt8(ascii: "-"), p[at + 7] == UInt8(ascii: "-"),
            let y = digits(p, at, 4), let m = digits(p, at + 5, 2), let d = digits(p, at + 8, 2)
        else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    /// A real `YYYY-MM-DD` date: its canonical text is itself.
    static func isDate(_ s: String) -> Bool {
        withBytes(s) { isDate($0) } ?? false
    }

    /// `isDate` of UTF-8 bytes.
    package static func isDate(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        p.count == 10 && isoDate(p, 0) != nil
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` with a real date and time: `Timestamp(iso:)` then `description`
    /// gives it back unchanged.
    static func isTimestamp(_ s: String) -> Bool {
        withBytes(s) { isTimestamp($0) } ?? false
    }

    /// `isTimestamp` of UTF-8 bytes.
    package static func isTimestamp(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard p.count == 24, isoDate(p, 0) != nil, p[10] == UInt8(ascii: "T"), p[13] == UInt8(ascii: ":"),
            p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: "."), p[23] == UInt8(ascii: "Z"),
            let h = digits(p, 11, 2), let m = digits(p, 14, 2), let sec = digits(p, 17, 2), digits(p, 20, 3) != nil
        else { return false }
        return h < 24 && m < 60 && sec < 60
    }

    /// A plain decimal `digits[.digits]` (no sign, grouping, currency or exponent) as canonical
    /// `Amount` text, exactly what `Amount.parse(s).description` gives; nil for any other text.
    static func plainAmount(_ s: String) -> String? {
        withBytes(s) { p -> String? in
            let n = p.count
            var point = n
            for i in 0..<n {
                let b = p[i]
                if b == UInt8(ascii: ".") {
                    guard point == n else { return nil }
                    point = i
                } else if !isDigit(b) {
                    return nil
                }
            }
            guard n > 0, !(point == 0 && n == 1) else { return nil }
            var intStart = 0
            while intStart < point, p[intStart] == UInt8(ascii: "0") { intStart += 1 }
            var fracEnd = n
            while fracEnd > point + 1, p[fracEnd - 1] == UInt8(ascii: "0") { fracEnd -= 1 }
            let fracStart = min(point + 1, n)
            // Already canonical (`0.5` → no, `0.50`, `12.125` → yes): the cell's own string.
            let written = n - fracStart
            if point < n, intStart == point ? point == 1 : intStart == 0, written == 2 || (written > 2 && fracEnd == n) {
                return s
            }
            return amountText(p, whole: intStart..<point, wholeDigits: point - intStart, fraction: fracStart..<fracEnd)
        } ?? nil
    }

    /// An unsigned whole number of at most 18 digits (so it fits an `Int`), as written; nil otherwise.
    static func plainInteger(_ s: String) -> Int? {
        withBytes(s) { p -> Int? in plainInteger(p) } ?? nil
    }

    /// `plainInteger` of a text's bytes.
    package static func plainInteger(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard (1...18).contains(p.count) else { return nil }
        return digits(p, 0, p.count)
    }

    /// ASCII without upper-case letters and without a leading or trailing space or tab: text that
    /// `trimmingSpaces().lowercased()` leaves unchanged.
    static func isLowercaseASCIIWord(_ s: String) -> Bool {
        withBytes(s) { p in
            guard let first = p.first, let last = p.last, first != 0x20, first != 0x09, last != 0x20, last != 0x09
            else { return false }
            return p.allSatisfy { $0 < 0x80 && $0 &- 65 >= 26 }
        } ?? false
    }

    /// `YYYY-MM-DD` for a year in 0...9999 (what `LocalDate.description` writes), else nil.
    static func date(year: Int, month: Int, day: Int) -> String? {
        guard (0...9999).contains(year) else { return nil }
        return String(unsafeUninitializedCapacity: 10) { out in
            put(year, 4, out, 0)
            out[4] = UInt8(ascii: "-")
            put(month, 2, out, 5)
            out[7] = UInt8(ascii: "-")
            put(day, 2, out, 8)
            return 10
        }
    }

    /// Writes `value` (non-negative, fitting `width` digits) zero-padded at `at`.
    @inline(__always)
    static func put(_ value: Int, _ width: Int, _ out: UnsafeMutableBufferPointer<UInt8>, _ at: Int) {
        var v = value
        var i = at + width - 1
        while i >= at {
            out[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
            v /= 10
            i -= 1
        }
    }
}
