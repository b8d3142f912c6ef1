import Foundation

/// Small, targeted edits to the text of a small XML part (workbook, relationships, content types,
/// styles), leaving every other byte as the producer wrote it.
///
/// Elements are found by local name with any prefix (`<sheets>`, `<x:sheets>`), so prefixed and
/// Strict documents edit alike.
struct XMLTextEditor {
    private(set) var text: String

    init(text: String) { self.text = text }

    /// A start tag: its range, its prefix (`"x:"` or `""`) and whether it closes itself (`<a/>`).
    struct StartTag {
        var range: Range<String.Index>
        var prefix: String
        var isEmptyElement: Bool
    }

    /// The first start tag of an element with this local name.
    func startTag(_ localName: String) throws -> StartTag? {
        guard let match = try text.firstMatch(of: Self.startPattern(localName)) else { return nil }
        let tagText = text[match.range]
        return StartTag(
            range: match.range, prefix: match.output.1.map { String($0) + ":" } ?? "",
            isEmptyElement: tagText.hasSuffix("/>"))
    }

    /// Where the closing tag of this element (first occurrence) begins.
    func endTagStart(_ localName: String, prefix: String) throws -> String.Index? {
        try text.range(of: "</\(prefix)\(localName)>")?.lowerBound
            ?? text.firstMatch(of: Self.endPattern(localName))?.range.lowerBound
    }

    /// Inserts `content` as the last children of the first `localName` element; an empty element
    /// (`<sheets/>`) is opened up first. Returns false when there is no such element.
    mutating func appendChildren(_ content: String, to localName: String) throws -> Bool {
        guard let tag = try startTag(localName) else { return false }
        if tag.isEmptyElement {
            var open = String(text[tag.range].dropLast(2))
            while open.last?.isWhitespace == true { open.removeLast() }
            text.replaceSubrange(tag.range, with: open + ">" + content + "</\(tag.prefix)\(localName)>")
            return true
        }
        guard let end = try endTagStart(localName, prefix: tag.prefix), end >= tag.range.upperBound else { return false }
        text.insert(contentsOf: content, at: end)
        return true
    }

    /// Inserts `content` right after the start tag of the first `localName` element.
    mutating func insertAfterStartTag(_ content: String, of localName: String) throws -> Bool {
        guard let tag = try startTag(localName), !tag.isEmptyElement else { return false }
        text.insert(contentsOf: content, at: tag.range.upperBound)
        return true
    }

    /// Sets (or adds) an attribute on the first start tag of `localName`.
    mutating func setAttribute(_ name: String, to value: String, on localName: String) throws {
        guard let tag = try startTag(localName) else { return }
        var tagText = String(text[tag.range])
        if let existing = try tagText.firstMatch(of: Self.attributePattern(name)) {
            tagText.replaceSubrange(existing.range, with: " \(name)=\"\(value)\"")
        } else {
            let cut = tagText.hasSuffix("/>") ? tagText.index(tagText.endIndex, offsetBy: -2) : tagText.index(before: tagText.endIndex)
            tagText.insert(contentsOf: " \(name)=\"\(value)\"", at: cut)
        }
        text.replaceSubrange(tag.range, with: tagText)
    }

    /// Removes every empty element `<localName .../>` whose start tag satisfies `matches`.
    mutating func removeEmptyElements(_ localName: String, where matches: (Substring) -> Bool) throws {
        let pattern = try Self.emptyElementPattern(localName)
        var ranges: [Range<String.Index>] = []
        for match in text.matches(of: pattern) where matches(text[match.range]) { ranges.append(match.range) }
        for range in ranges.reversed() { text.removeSubrange(range) }
    }

    /// Removes every `localName` element, empty or with content (elements that never nest).
    mutating func removeElements(_ localName: String) throws {
        let pattern = try Regex(
            "(?s)<(?:[A-Za-z_][A-Za-z0-9_.\\-]*:)?\(localName)(?=[\\s/>])[^>]*?(?:/>|>.*?</(?:[A-Za-z_][A-Za-z0-9_.\\-]*:)?\(localName)\\s*>)",
            as: Substring.self)
        let ranges = text.matches(of: pattern).map(\.range)
        for range in ranges.reversed() { text.removeSubrange(range) }
    }

    /// Removes the attribute `qualifiedName` (e.g. `r:id`) from the first `localName` start tag.
    mutating func removeAttribute(_ qualifiedName: String, from localName: String) throws {
        guard let tag = try startTag(localName) else { return }
        let escaped = qualifiedName.replacingOccurrences(of: ".", with: "\\.")
        let pattern = try Regex("\\s\(escaped)\\s*=\\s*(?:\"[^\"]*\"|'[^']*')", as: Substring.self)
        var tagText = String(text[tag.range])
        let ranges = tagText.matches(of: pattern).map(\.range)
        for range in ranges.reversed() { tagText.removeSubrange(range) }
        text.replaceSubrange(tag.range, with: tagText)
    }

    /// Every namespace prefix bound to one of `uris` in the document.
    func prefixes(boundTo uris: [String]) -> Set<String> {
        var found: Set<String> = []
        for match in text.matches(of: #/xmlns:([A-Za-z_][A-Za-z0-9_.\-]*)\s*=\s*["']([^"']*)["']/#)
        where uris.contains(String(match.output.2)) {
            found.insert(String(match.output.1))
        }
        return found
    }

    /// The namespace prefix bound to one of `uris` anywhere in the document, if any.
    func prefix(boundTo uris: [String]) -> String? {
        for match in text.matches(of: #/xmlns:([A-Za-z_][A-Za-z0-9_.\-]*)\s*=\s*["']([^"']*)["']/#)
        where uris.contains(String(match.output.2)) {
            return String(match.output.1)
        }
        return nil
    }

    // Names are fixed SpreadsheetML words, never user text, so they are put in patterns as they are.
    private static func startPattern(_ localName: String) throws -> Regex<(Substring, Substring?)> {
        try Regex("<(?:([A-Za-z_][A-Za-z0-9_.\\-]*):)?\(localName)(?=[\\s/>])[^>]*>", as: (Substring, Substring?).self)
    }

    private static func endPattern(_ localName: String) throws -> Regex<Substring> {
        try Regex("</(?:[A-Za-z_][A-Za-z0-9_.\\-]*:)?\(localName)\\s*>", as: Substring.self)
    }

    private static func emptyElementPattern(_ localName: String) throws -> Regex<Substring> {
        try Regex("<(?:[A-Za-z_][A-Za-z0-9_.\\-]*:)?\(localName)(?=[\\s/])[^>]*/>", as: Substring.self)
    }

    private static func attributePattern(_ name: String) throws -> Regex<Substring> {
        try Regex("\\s\(name)\\s*=\\s*(?:\"[^\"]*\"|'[^']*')", as: Substring.self)
    }
}
