import Interchange

/// A partial-response selector, the `fields` query parameter (`files(id,name),nextPageToken`).
///
/// Also used for the `fields` member of update requests (`userEnteredFormat.numberFormat`).
struct FieldMask: Sendable, Equatable {
    /// Selected member name → what is selected inside it (an empty mask selects all of it).
    var children: [String: FieldMask]

    static let all = FieldMask(children: ["*": FieldMask(children: [:])])

    var selectsEverything: Bool { children.isEmpty || children["*"] != nil }

    /// Parses the mask syntax; throws a message quoting the mask.
    init(parsing text: String) throws(FieldMaskError) {
        var scanner = Array(text.filter { !$0.isWhitespace })
        var index = 0
        self = try FieldMask.parseList(&scanner, &index, closing: nil, text: text)
        guard index == scanner.count else { throw FieldMaskError(mask: text) }
    }

    init(children: [String: FieldMask]) {
        self.children = children
    }

    private static func parseList(
        _ chars: inout [Character], _ index: inout Int, closing: Character?, text: String
    ) throws(FieldMaskError) -> FieldMask {
        var mask = FieldMask(children: [:])
        while index < chars.count {
            if let closing, chars[index] == closing { return mask }
            var path: [String] = []
            var name = ""
            while index < chars.count, !",()".contains(chars[index]) {
                if chars[index] == "." {
                    guard !name.isEmpty else { throw FieldMaskError(mask: text) }
                    path.append(name)
                    name = ""
                } else {
                    name.append(chars[index])
                }
                index += 1
            }
            guard !name.isEmpty else { throw FieldMaskError(mask: text) }
            path.append(name)
            var leaf = FieldMask(children: [:])
            if index < chars.count, chars[index] == "(" {
                index += 1
                leaf = try parseList(&chars, &index, closing: ")", text: text)
                guard index < chars.count, chars[index] == ")" else { throw FieldMaskError(mask: text) }
                index += 1
            }
            mask.insert(path: path[...], leaf: leaf)
            if index < chars.count, chars[index] == "," { index += 1 }
        }
        guard closing == nil else { throw FieldMaskError(mask: text) }
        return mask
    }

    private mutating func insert(path: ArraySlice<String>, leaf: FieldMask) {
        guard let first = path.first else { return }
        if path.count == 1 {
            if let existing = children[first], !existing.children.isEmpty, !leaf.children.isEmpty {
                children[first] = existing.merged(with: leaf)
            } else {
                children[first] = existing(orLeafFor: first, leaf)
            }
        } else {
            var child = children[first] ?? FieldMask(children: [:])
            if children[first] != nil, child.children.isEmpty { return }
            child.insert(path: path.dropFirst(), leaf: leaf)
            children[first] = child
        }
    }

    private func existing(orLeafFor name: String, _ leaf: FieldMask) -> FieldMask {
        // Selecting a whole member wins over selecting parts of it.
        if let current = children[name], current.children.isEmpty { return current }
        return leaf
    }

    private func merged(with other: FieldMask) -> FieldMask {
        var result = self
        for (key, value) in other.children {
            if let mine = result.children[key] {
                result.children[key] = mine.children.isEmpty || value.children.isEmpty ? FieldMask(children: [:]) : mine.merged(with: value)
            } else {
                result.children[key] = value
            }
        }
        return result
    }

    /// Whether `path` (dot separated) is selected by this mask, for update masks.
    func covers(_ path: String) -> Bool {
        var mask = self
        for part in path.split(separator: ".") {
            if mask.selectsEverything { return true }
            guard let child = mask.children[String(part)] else { return false }
            mask = child
        }
        return true
    }

    /// The document reduced to the selected members; arrays are filtered element by element.
    func apply(to value: JSONValue) -> JSONValue {
        if selectsEverything { return value }
        switch value {
        case .object(let object):
            return .object(
                JSONObject(
                    object.members.compactMap { key, member -> (String, JSONValue)? in
                        guard let child = children[key] else { return nil }
                        return (key, child.apply(to: member))
                    }))
        case .array(let elements):
            return .array(elements.map(apply(to:)))
        default:
            return value
        }
    }
}

/// A `fields` value that is not a valid mask.
struct FieldMaskError: Error, Sendable, Equatable {
    var mask: String
}
