import Foundation

/// The attributes of one start tag, in document order, values as written (still escaped), so a
/// tag can be rewritten with one attribute changed and the rest as they were.
struct TagAttributes: Equatable {
    var pairs: [(name: String, value: String)]

    static func == (a: TagAttributes, b: TagAttributes) -> Bool {
        a.pairs.map(\.name) == b.pairs.map(\.name) && a.pairs.map(\.value) == b.pairs.map(\.value)
    }

    init(pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// Parses the attributes of a start tag's text (`<c r="A1" s="3">` or `<c r="A1"/>`).
    init(tag: Substring) {
        pairs = []
        var rest = tag.drop { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" && $0 != ">" && $0 != "/" }
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard let equals = rest.firstIndex(of: "="), !rest.hasPrefix(">"), !rest.hasPrefix("/") else { return }
            let name = rest[..<equals].trimmingCharacters(in: " \t\r\n")
            rest = rest[rest.index(after: equals)...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { return }
            pairs.append((name, String(rest[..<close]).replacingOccurrences(of: "\"", with: "&quot;")))
            rest = rest[rest.index(after: close)...]
        }
    }

    subscript(name: String) -> String? {
        get { pairs.first { $0.name == name }?.value }
        set {
            if let index = pairs.firstIndex(where: { $0.name == name }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((name, newValue))
            }
        }
    }

    /// ` a="1" b="2"`
    var text: String { pairs.map { " \($0.name)=\"\($0.value)\"" }.joined() }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
