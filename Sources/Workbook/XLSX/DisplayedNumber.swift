import Foundation

/// A number a spreadsheet holds as a binary double, as the spreadsheet shows and compares it.
///
/// Excel, LibreOffice and Google Sheets show at most 15 significant digits: the double that a
/// 17-digit writer spells `91.06999999999999` is 91.07 to all of them. Reading it that way makes a
/// re-save that only changes the spelling of numbers no edit, and stores what the user sees.
public enum DisplayedNumber {
    /// The double `text` spells, rounded to 15 significant digits, as canonical decimal text
    /// (`91.07`, `-3`, `0.0015`, no exponent for magnitudes from 1e-20 to 1e21). Text that is
    /// no number is returned unchanged.
    public static func canonical(_ text: String) -> String {
        if isAlreadyCanonical(text) { return text }
        guard let value = Double(text), value.isFinite else { return text }
        if value == 0 { return "0" }
        if let shown = fromShortest(value) { return shown }
        return formatted(value) ?? text
    }

    /// `value` rounded to 15 significant digits with `%.14e` (exactly, half to even on the binary
    /// value), then spelled as `canonical` spells it. The reference for `fromShortest`.
    static func formatted(_ value: Double) -> String? {
        let formatted = String(format: "%.14e", value)
        guard let e = formatted.firstIndex(of: "e"), let exponent = Int(formatted[formatted.index(after: e)...]) else {
            return nil
        }
        var digits = Array(formatted[..<e].utf8.filter { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "-") })
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return spelled(negative: formatted.hasPrefix("-"), digits: digits, exponent: exponent)
    }

    /// What `formatted` returns, from Swift's shortest round-trip spelling of `value` (no
    /// `String(format:)`, which took 4 % of reading a 100k-row workbook: every timestamp serial has
    /// 17 digits). The shortest spelling S lies within half a unit in the last place of the
    /// double, so rounding S to 15 digits gives what rounding the double gives unless a rounding
    /// boundary lies between them; such a boundary would itself be a shorter (or equally short and
    /// closer) spelling of the double, so S would be that boundary: a tie in S's dropped digits.
    /// Only then — nil — is the double rounded by `formatted`. So is a subnormal double, whose
    /// last place is too coarse for that argument (it may hold fewer than 15 digits).
    static func fromShortest(_ value: Double) -> String? {
        guard value.isNormal else { return nil }
        var text = value.description.utf8[...]
        let negative = text.first == UInt8(ascii: "-")
        if negative { text = text.dropFirst() }
        var digits: [UInt8] = []
        digits.reserveCapacity(17)
        var pointAt: Int?
        var exponent = 0
        while let b = text.first {
            text = text.dropFirst()
            if b == UInt8(ascii: ".") {
                pointAt = digits.count
            } else if b == UInt8(ascii: "e") {
                guard let e = Self.exponent(text) else { return nil }
                exponent = e
                break
            } else if isDigit(b) {
                digits.append(b)
            } else {
                return nil
            }
        }
        // Scientific position: the first significant digit is at 10^exponent.
        let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
        guard leadingZeros < digits.count else { return nil }
        exponent += (pointAt ?? digits.count) - 1 - leadingZeros
        digits.removeFirst(leadingZeros)
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.count > 15 {
            guard roundTo15(&digits, exponent: &exponent) else { return nil }
        }
        return spelled(negative: negative, digits: digits, exponent: exponent)
    }

    /// The exponent after the `e` of a shortest spelling (`-7`, `+22`), nil when it is no such exponent.
    @inline(__always)
    private static func exponent(_ text: Substring.UTF8View) -> Int? {
        var text = text
        var sign = 1
        if text.first == UInt8(ascii: "-") { sign = -1 }
        if text.first == UInt8(ascii: "-") || text.first == UInt8(ascii: "+") { text = text.dropFirst() }
        guard !text.isEmpty, text.count <= 4 else { return nil }
        var e = 0
        for d in text {
            guard isDigit(d) else { return nil }
            e = e * 10 + Int(d - UInt8(ascii: "0"))
        }
        return sign * e
    }

    /// Rounds significant `digits` (more than 15, no trailing zeros) to 15, half up, carrying into
    /// `exponent`; false on a tie in the dropped digits, which only the double itself can settle.
    @inline(__always)
    private static func roundTo15(_ digits: inout [UInt8], exponent: inout Int) -> Bool {
        let dropped = digits[15...]
        // A tie ("5", "50") in the spelling: only the double itself can say which way it rounds.
        if dropped.first == UInt8(ascii: "5"), dropped.dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") }) { return false }
        let up = dropped.first.map { $0 >= UInt8(ascii: "5") } ?? false
        digits.removeLast(digits.count - 15)
        if up {
            var i = 14
            while i >= 0, digits[i] == UInt8(ascii: "9") {
                digits[i] = UInt8(ascii: "0")
                i -= 1
            }
            if i >= 0 {
                digits[i] += 1
            } else {
                digits.insert(UInt8(ascii: "1"), at: 0)
                digits.removeLast()
                exponent += 1
            }
        }
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return true
    }

    /// Significant `digits` (no trailing zeros) times 10^`exponent` of the first, as canonical text.
    private static func spelled(negative: Bool, digits: [UInt8], exponent: Int) -> String {
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        guard (-20...20).contains(exponent) else {
            out.append(digits[0])
            if digits.count > 1 {
                out.append(UInt8(ascii: "."))
                out += digits.dropFirst()
            }
            out += Array("E\(exponent < 0 ? "-" : "+")\(abs(exponent))".utf8)
            return String(decoding: out, as: UTF8.self)
        }
        let point = exponent + 1
        if point <= 0 {
            out += Array("0.".utf8) + Array(repeating: UInt8(ascii: "0"), count: -point) + digits
        } else if point >= digits.count {
            out += digits + Array(repeating: UInt8(ascii: "0"), count: point - digits.count)
        } else {
            out += digits.prefix(point)
            out.append(UInt8(ascii: "."))
            out += digits.dropFirst(point)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Plain decimal text of at most 15 significant digits, with no leading zeros, no trailing
    /// fraction zeros and no exponent: what `canonical` would return, recognized on the bytes.
    static func isAlreadyCanonical(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { p -> Bool in
            var i = 0
            if i < p.count, p[i] == UInt8(ascii: "-") { i += 1 }
            let start = i
            var significant = 0
            var seenNonZero = false
            var point = -1
            while i < p.count {
                let b = p[i]
                if b == UInt8(ascii: ".") {
                    guard point < 0 else { return false }
                    point = i
                } else if isDigit(b) {
                    if b != UInt8(ascii: "0") { seenNonZero = true }
                    if seenNonZero { significant += 1 }
                } else {
                    return false
                }
                i += 1
            }
            guard i > start, significant <= 15, seenNonZero || (p.count == 1 && p[0] == UInt8(ascii: "0")) else {
                return false
            }
            // No leading zero unless the number is below one (`0.5`), no bare or trailing point.
            if p[start] == UInt8(ascii: "0"), !(point == start + 1) { return i - start == 1 }
            if point >= 0 { return point > start && point < p.count - 1 && p[p.count - 1] != UInt8(ascii: "0") }
            return true
        } ?? false
    }

    @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }
}
