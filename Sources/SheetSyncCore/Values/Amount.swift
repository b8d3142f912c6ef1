/// An exact, non-negative decimal amount of money, never held in binary floating point.
///
/// Canonical text has at least two fraction digits (`12.50`, `3.00`, `0.125`); equality is by
/// value, so `12.5` and `12.50` are the same amount.
public struct Amount: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Integer digits without leading zeros (`""` for zero).
    let integerDigits: String
    /// Fraction digits without trailing zeros.
    let fractionDigits: String

    public var isZero: Bool { integerDigits.isEmpty && fractionDigits.isEmpty }

    public var description: String {
        let whole = integerDigits.isEmpty ? "0" : integerDigits
        let fraction =
            fractionDigits.count >= 2
            ? fractionDigits : fractionDigits + String(repeating: "0", count: 2 - fractionDigits.count)
        return "\(whole).\(fraction)"
    }

    public static func < (a: Amount, b: Amount) -> Bool {
        if a.integerDigits.count != b.integerDigits.count { return a.integerDigits.count < b.integerDigits.count }
        if a.integerDigits != b.integerDigits { return a.integerDigits < b.integerDigits }
        return a.fractionDigits < b.fractionDigits  // both without trailing zeros: lexicographic works
    }

    /// Why a text is not an amount.
    public enum ParseFailure: Error, Equatable, Sendable {
        case notANumber
        case negative
        /// Under a decimal comma, a text that is a different amount in each reading (`1.234`).
        case ambiguous
    }

    /// Parses an amount typed as text under the ledger's decimal mark. With a decimal comma a comma
    /// is the decimal mark and points group thousands (`1.234,50`); a text without a comma reads as
    /// under a point unless it is also a thousands grouping of another amount (`1.234`): then it
    /// is ambiguous, never guessed.
    public static func parse(_ text: String, typedWith separator: LocalForms.DecimalSeparator) -> Result<Amount, ParseFailure> {
        guard separator == .comma, text.contains(where: { $0 == "," || $0 == "." }) else { return parse(text) }
        let local = parse(String(text.map { $0 == "," ? "." : $0 == "." ? "," : $0 }))
        if text.contains(",") { return local }
        let asTyped = parse(text)
        switch (asTyped, local) {
        case (.success(let a), .success(let b)) where a != b: return .failure(.ambiguous)
        case (.success, _): return asTyped
        default: return local
        }
    }

    /// Parses a plain number (`12.5`, `1.5E3`, from a sheet or a number cell) or a hand-typed
    /// amount with an optional currency sign and correct thousands grouping (`$1,234.50`).
    /// Anything else (`1,23.4`, `12.3.4`, `12,50` as a decimal comma) is refused, never guessed.
    public static func parse(_ text: String) -> Result<Amount, ParseFailure> {
        var s = Substring(text.trimmingSpaces())
        var negative = false
        if s.hasPrefix("-") {
            negative = true
            s = s.dropFirst()
        } else if s.hasPrefix("+") {
            s = s.dropFirst()
        }
        if s.hasPrefix("(") && s.hasSuffix(")") {  // accounting notation for a negative amount
            negative = true
            s = s.dropFirst().dropLast()
        }
        for symbol in ["$", "€", "£", "¥"] where s.hasPrefix(symbol) {
            s = s.dropFirst(symbol.count)
            break
        }
        if !negative, s.hasPrefix("-") {
            negative = true
            s = s.dropFirst()
        }
        guard let value = parseUnsigned(s) else { return .failure(.notANumber) }
        if negative && !value.isZero { return .failure(.negative) }
        return .success(value)
    }

    private static func parseUnsigned(_ s: Substring) -> Amount? {
        var mantissa = s
        var exponent = 0
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = s[..<e]
            var expText = s[s.index(after: e)...]
            if expText.hasPrefix("+") { expText = expText.dropFirst() }
            guard let x = Int(expText), x.magnitude <= 400 else { return nil }
            exponent = x
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        var whole = String(parts[0])
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        if whole.contains(",") {
            guard exponent == 0 else { return nil }
            let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
            guard let first = groups.first, (1...3).contains(first.count),
                groups.dropFirst().allSatisfy({ $0.count == 3 })
            else { return nil }
            whole = groups.joined()
        }
        guard !(whole.isEmpty && fraction.isEmpty),
            whole.utf8.allSatisfy({ (48...57).contains($0) }),
            fraction.utf8.allSatisfy({ (48...57).contains($0) })
        else { return nil }
        // Shift the decimal point by the exponent over the digit string.
        var digits = whole + fraction
        var pointIndex = whole.count + exponent
        if pointIndex < 0 {
            digits = String(repeating: "0", count: -pointIndex) + digits
            pointIndex = 0
        } else if pointIndex > digits.count {
            digits += String(repeating: "0", count: pointIndex - digits.count)
        }
        let intPart = digits.prefix(pointIndex).drop { $0 == "0" }
        var fracPart = Substring(digits.dropFirst(pointIndex))
        while fracPart.last == "0" { fracPart = fracPart.dropLast() }
        return Amount(integerDigits: String(intPart), fractionDigits: String(fracPart))
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and non-breaking spaces.
    func trimmingSpaces() -> String {
        // Most cells have nothing to trim: an ASCII first and last byte that is no space or tab
        // means the first and last `Character`s are not spaces either.
        if let untouched = CanonicalText.withBytes(
            self,
            { p -> Bool in
                guard let first = p.first, let last = p.last else { return false }
                return first < 0x80 && last < 0x80 && first != 0x20 && first != 0x09 && last != 0x20 && last != 0x09
            }), untouched
        {
            return self
        }
        return trimmingSpacesSlowly()
    }

    func trimmingSpacesSlowly() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\u{A0}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
