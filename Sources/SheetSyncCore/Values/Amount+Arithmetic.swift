/// Exact sums and differences of amounts, on their decimal digits: a report's totals never pass
/// through binary floating point, so `0.10 + 0.20` is `0.30` and a year of cents adds up to the cent.
extension Amount {
    public static let zero = Amount(integerDigits: "", fractionDigits: "")

    public static func + (a: Amount, b: Amount) -> Amount {
        let (x, y, scale) = aligned(a, b)
        var digits: [UInt8] = []
        digits.reserveCapacity(max(x.count, y.count) + 1)
        var carry: UInt8 = 0
        for (p, q) in zip(x.reversed(), y.reversed()) {
            let sum = p + q + carry
            digits.append(sum % 10)
            carry = sum / 10
        }
        if carry > 0 { digits.append(carry) }
        return make(digitsLeastFirst: digits, scale: scale)
    }

    public static func += (a: inout Amount, b: Amount) { a = a + b }

    /// `a - b` as a magnitude and a sign (amounts themselves are never negative).
    public static func difference(_ a: Amount, _ b: Amount) -> SignedAmount {
        let negative = a < b
        let (big, small) = negative ? (b, a) : (a, b)
        let (x, y, scale) = aligned(big, small)
        var digits: [UInt8] = []
        digits.reserveCapacity(x.count)
        var borrow: UInt8 = 0
        for (p, q) in zip(x.reversed(), y.reversed()) {
            let subtrahend = q + borrow
            if p >= subtrahend {
                digits.append(p - subtrahend)
                borrow = 0
            } else {
                digits.append(p + 10 - subtrahend)
                borrow = 1
            }
        }
        let magnitude = make(digitsLeastFirst: digits, scale: scale)
        return SignedAmount(magnitude: magnitude, isNegative: negative && !magnitude.isZero)
    }

    /// Both amounts as digit arrays of equal length with the decimal point `scale` digits from the right.
    private static func aligned(_ a: Amount, _ b: Amount) -> ([UInt8], [UInt8], Int) {
        let scale = max(a.fractionDigits.count, b.fractionDigits.count)
        let width = max(a.integerDigits.count, b.integerDigits.count)
        func digits(_ v: Amount) -> [UInt8] {
            let whole = String(repeating: "0", count: width - v.integerDigits.count) + v.integerDigits
            let fraction = v.fractionDigits + String(repeating: "0", count: scale - v.fractionDigits.count)
            return (whole + fraction).utf8.map { $0 - UInt8(ascii: "0") }
        }
        return (digits(a), digits(b), scale)
    }

    private static func make(digitsLeastFirst digits: [UInt8], scale: Int) -> Amount {
        let text = String(decoding: digits.reversed().map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        let whole = text.dropLast(scale).drop { $0 == "0" }
        var fraction = Substring(text.suffix(scale))
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return Amount(integerDigits: String(whole), fractionDigits: String(fraction))
    }
}

/// An exact amount that may be negative: a net, or a change between two periods.
public struct SignedAmount: Hashable, Sendable, CustomStringConvertible {
    public var magnitude: Amount
    /// Never true for zero.
    public var isNegative: Bool

    public init(magnitude: Amount, isNegative: Bool = false) {
        self.magnitude = magnitude
        self.isNegative = isNegative && !magnitude.isZero
    }

    /// `-12.50`, `0.00`, `1785.00`.
    public var description: String { (isNegative ? "-" : "") + magnitude.description }

    /// `+12.50`, `-3.00`, `0.00`: a change, with its direction always shown.
    public var signed: String { magnitude.isZero ? magnitude.description : (isNegative ? "-" : "+") + magnitude.description }
}
