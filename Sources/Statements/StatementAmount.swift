import SheetSyncCore

/// An amount as banks print it: `1,234.56`, `1.234,56`, `-12,50`, `(12.50)`, `12.50-`, `$1,234.56`,
/// `€ 12,50`, `12.50 EUR`, `1'234.50`, `1 234,56`, `12.50 DR`, `CR 7.00`. Exact: the digits are never read
/// as a binary float.
struct StatementAmount: Hashable, Sendable {
    var magnitude: Amount
    var negative: Bool
    /// The direction a `CR`/`DR` mark beside the amount gives (`12.50 DR` is money out), whatever its sign.
    var marked: StatementEntry.Direction? = nil

    /// Reads `text`; `decimalMark` is the mark the rest of the file uses (`DecimalMark.detect`), which
    /// settles a lone separator before three digits (`1.234`); without it such a separator groups thousands.
    static func parse(_ text: String, decimalMark: Character? = nil) -> StatementAmount? {
        if let plain = plain(text) {
            guard case .success(let magnitude) = Amount.parse(plain.digits) else { return nil }
            return StatementAmount(magnitude: magnitude, negative: plain.negative && !magnitude.isZero)
        }
        return general(text, decimalMark: decimalMark)
    }

    /// The digits of a plain amount — `-`, digits, and one `.` or `,` before one or two last digits
    /// (`-12.50`, `34,09`, `7`), as most entries print theirs — with the decimal mark made a point: what
    /// `general` reads such a text as, without its work per character (a decimal mark before one or
    /// two digits is one whatever the file's mark, and nothing else in the text is decoration, sign or
    /// grouping). Nil for any other text.
    static func plain(_ text: String) -> (digits: String, negative: Bool)? {
        var bytes = Array(text.utf8)
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes.removeFirst() }
        let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let mark = bytes.lastIndex { !digit($0) }
        if let mark {
            let after = bytes.count - mark - 1
            guard mark > 0, after == 1 || after == 2, bytes[mark] == UInt8(ascii: ".") || bytes[mark] == UInt8(ascii: ","),
                bytes[..<mark].allSatisfy(digit)
            else { return nil }
            bytes[mark] = UInt8(ascii: ".")
        }
        guard !bytes.isEmpty else { return nil }
        return (String(decoding: bytes, as: UTF8.self), negative)
    }

    /// Any amount `parse` reads, character by character.
    static func general(_ text: String, decimalMark: Character?) -> StatementAmount? {
        let (text, marked) = creditDebitMark(text)
        var core = text
        var negative = false
        var changed = true
        while changed {
            changed = false
            let before = core.count
            core = core.drop(while: isDecoration)
            while let last = core.last, isDecoration(last) { core = core.dropLast() }
            if let first = core.first, first == "-" || first == "−" || first == "+" {
                negative = negative || first != "+"
                core = core.dropFirst()
            } else if core.last == "-" {
                negative = true
                core = core.dropLast()
            } else if core.first == "(", core.last == ")" {
                negative = true
                core = core.dropFirst().dropLast()
            }
            changed = core.count != before
        }
        // Spaces (and narrow no-break spaces) between digits group thousands, as an apostrophe does.
        let digits = String(core.filter { !$0.isWhitespace && $0 != "'" && $0 != "’" })
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }),
            let normalized = normalize(digits, decimalMark: decimalMark),
            case .success(let magnitude) = Amount.parse(normalized)
        else { return nil }
        return StatementAmount(magnitude: magnitude, negative: negative && !magnitude.isZero, marked: marked)
    }

    /// `12.50 DR` → (`12.50`, out); `CR 7.00` → (`7.00`, in): a `CR` or `DR` word (any case) at either
    /// end, as Australian, Indian and British statements print money in and out; nil when there is none.
    private static func creditDebitMark(_ text: String) -> (Substring, StatementEntry.Direction?) {
        var core = Substring(text).drop(while: \.isWhitespace)
        while let last = core.last, last.isWhitespace { core = core.dropLast() }
        let mark: (String) -> StatementEntry.Direction? = { word in
            switch word.lowercased() {
            case "dr": return .outgoing
            case "cr": return .incoming
            default: return nil
            }
        }
        if core.reversed().prefix(while: \.isLetter).count == 2, let direction = mark(String(core.suffix(2))) {
            return (core.dropLast(2), direction)
        }
        if core.prefix(while: \.isLetter).count == 2, let direction = mark(String(core.prefix(2))) {
            return (core.dropFirst(2), direction)
        }
        return (core, nil)
    }

    /// `1.234,56` → `1,234.56`: the decimal mark made a point and the grouping a comma, for `Amount.parse`.
    private static func normalize(_ digits: String, decimalMark: Character?) -> String? {
        let marks = digits.filter { $0 == "." || $0 == "," }
        guard let last = marks.last else { return digits }
        let decimal: Character?
        if Set(marks).count == 2 {
            decimal = last
        } else if marks.count > 1 {
            decimal = nil
        } else {
            let after = digits.split(separator: last, omittingEmptySubsequences: false).last?.count ?? 0
            decimal = after == 3 && decimalMark != last ? nil : last
        }
        guard marks.filter({ $0 == decimal }).count <= 1 else { return nil }
        return String(digits.map { $0 == decimal ? "." : ($0 == "." || $0 == ",") ? "," : $0 })
    }

    private static func isDecoration(_ c: Character) -> Bool {
        c.isWhitespace || c.isLetter || c.isCurrencySymbol
    }
}

/// The decimal mark a column of amounts uses, where some amount shows it: a mark followed by one or
/// two digits at the end, or the later of two different marks.
enum DecimalMark {
    static func detect(_ values: some Sequence<String>) -> Character? {
        var votes: [Character: Int] = [:]
        for value in values {
            let digits = value.filter { $0.isNumber || $0 == "." || $0 == "," }
            guard let index = digits.lastIndex(where: { $0 == "." || $0 == "," }) else { continue }
            let after = digits.distance(from: index, to: digits.endIndex) - 1
            let both = digits.contains(".") && digits.contains(",")
            if both || after == 1 || after == 2 { votes[digits[index], default: 0] += 1 }
        }
        // A tie says nothing (and a dictionary's order is no tie-break: the same bytes must read the same).
        let ranked = votes.sorted { $0.value > $1.value }
        guard let first = ranked.first, ranked.count == 1 || ranked[1].value < first.value else { return nil }
        return first.key
    }
}
