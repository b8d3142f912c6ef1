/// Finds the A1 references in a formula's text (outside string literals, not function names or
/// structured references) and lets a caller replace each one.
enum FormulaReferences {
    /// `text` with each reference replaced by `transform(qualifier, range)`, or kept when it
    /// returns nil. `qualifier` is the sheet part before `!` (quotes kept), nil when there is none.
    static func rewrite(_ text: String, _ transform: (Substring?, A1Range) -> String?) -> String {
        guard text.contains(where: { $0.isASCII && $0.isNumber }) else { return text }
        let chars = Array(text)
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\"" {
                let end = closing(of: "\"", in: chars, from: i)
                out += String(chars[i..<end])
                i = end
            } else if c == "'" {
                let end = closing(of: "'", in: chars, from: i)
                if end < chars.count, chars[end] == "!", let (range, after) = reference(in: chars, at: end + 1) {
                    let qualifier = Substring(String(chars[i..<end]))
                    out += String(chars[i...end]) + (transform(qualifier, range) ?? String(chars[(end + 1)..<after]))
                    i = after
                } else {
                    out += String(chars[i..<end])
                    i = end
                }
            } else if isIdentifier(c), i == 0 || !isIdentifier(chars[i - 1]) {
                var j = i
                while j < chars.count, isIdentifier(chars[j]) { j += 1 }
                if j < chars.count, chars[j] == "!", let (range, after) = reference(in: chars, at: j + 1) {
                    let qualifier = Substring(String(chars[i..<j]))
                    out += String(chars[i...j]) + (transform(qualifier, range) ?? String(chars[(j + 1)..<after]))
                    i = after
                } else if let (range, after) = reference(in: chars, at: i), after >= j {
                    out += transform(nil, range) ?? String(chars[i..<after])
                    i = after
                } else {
                    out += String(chars[i..<j])
                    i = j
                }
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    /// The index just past the quote that closes the one at `start` (doubled quotes are escapes), in
    /// formula text as characters or as bytes.
    static func closing<Unit: Equatable>(of quote: Unit, in chars: [Unit], from start: Int) -> Int {
        var i = start + 1
        while i < chars.count {
            if chars[i] == quote {
                if i + 1 < chars.count, chars[i + 1] == quote {
                    i += 2
                    continue
                }
                return i + 1
            }
            i += 1
        }
        return chars.count
    }

    /// A cell or range reference starting at `start`, and the index after it.
    private static func reference(in chars: [Character], at start: Int) -> (A1Range, Int)? {
        guard let (first, afterFirst) = cell(in: chars, at: start) else { return nil }
        var range = A1Range(start: first, end: nil)
        var end = afterFirst
        if end < chars.count, chars[end] == ":", let (second, afterSecond) = cell(in: chars, at: end + 1) {
            range.end = second
            end = afterSecond
        }
        if end < chars.count, isIdentifier(chars[end]) || chars[end] == "(" || chars[end] == "[" { return nil }
        return (range, end)
    }

    private static func cell(in chars: [Character], at start: Int) -> (A1Cell, Int)? {
        var i = start
        while i < chars.count, chars[i] == "$" || (chars[i].isASCII && chars[i].isUppercase) { i += 1 }
        while i < chars.count, chars[i] == "$" || (chars[i].isASCII && chars[i].isNumber) { i += 1 }
        guard i > start, let cell = A1Range.cell(String(chars[start..<i])) else { return nil }
        return (cell, i)
    }

    private static func isIdentifier(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "." || c == "$" || c == "\\"
    }
}
