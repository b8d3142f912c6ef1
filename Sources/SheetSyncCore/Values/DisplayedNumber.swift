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
        // %.14e gives exactly 15 significant digits, rounded half to even on the binary value.
        let formatted = String(format: "%.14e", value)
        guard let e = formatted.firstIndex(of: "e"), let exponent = Int(formatted[formatted.index(after: e)...]) else {
            return text
        }
        let negative = formatted.hasPrefix("-")
        var digits = formatted[..<e].filter { $0 != "." && $0 != "-" }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        guard (-20...20).contains(exponent) else {
            let mantissa = digits.count > 1 ? "\(digits.first ?? "0").\(digits.dropFirst())" : digits
            return (negative ? "-" : "") + mantissa + "E" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
        }
        let point = exponent + 1
        let body: String
        if point <= 0 {
            body = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            body = digits + String(repeating: "0", count: point - digits.count)
        } else {
            body = digits.prefix(point) + "." + digits.dropFirst(point)
        }
        return (negative ? "-" : "") + body
    }

    /// Plain decimal text of at most 15 significant digits, with no leading zeros, no trailing
    /// fraction zeros and no exponent: what `canonical` would return, recognized on the bytes.
    static func isAlreadyCanonical(_ text: String) -> Bool {
        CanonicalText.withBytes(text) { p -> Bool in
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
                } else if CanonicalText.isDigit(b) {
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
}
