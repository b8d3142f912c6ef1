import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a rewrite keeps of the worksheet it replaces: everything around `<sheetData>`.
///
/// A person's tab carries more than values: frozen panes, column widths, drop-down lists (data
/// validation), conditional formats, page setup. The new cells go between the original's `head`
/// (up to `<sheetData>`) and `tail` (after `</sheetData>`). Elements that point through the
/// sheet's relationships (hyperlinks, comments, drawings, tables, controls) are dropped with those
/// relationships, since they may point at cells that moved. When the frame cannot be kept safely
/// (a prefixed or non-UTF-8 part, a reference left that cannot be removed), there is none and the
/// writer uses its own.
struct SheetFrame {
    var head: String
    var tail: String

    /// Top-level elements that refer to the sheet's relationships part.
    static let relationshipElements = [
        "hyperlinks", "drawing", "legacyDrawing", "legacyDrawingHF", "picture", "oleObjects", "controls",
        "tableParts", "webPublishItems",
    ]
    static let relationshipNamespaces = [PreservingPlan.transitionalRelationships, PreservingPlan.strictRelationships]

    /// The frame of `part`, with `columns` (a `<cols>` element) put in when the original has none.
    static func read(from package: XLSXPackage, part: String, columns: String) throws -> SheetFrame? {
        guard let raw = try RawFrame.read(from: package, part: part) else { return nil }
        var head = XMLTextEditor(text: raw.head)
        var tail = XMLTextEditor(text: raw.tail)
        // The new cells change the used range; Excel works the dimension out again without one.
        try head.removeEmptyElements("dimension") { _ in true }
        if try head.startTag("cols") == nil { head = XMLTextEditor(text: head.text + columns) }
        for name in relationshipElements { try tail.removeElements(name) }
        // What is left may still name relationships by id (`<pageSetup r:id=...>` for printer
        // settings): the attribute goes, and so does a declaration made for it alone.
        let prefixes = head.prefixes(boundTo: relationshipNamespaces).union(tail.prefixes(boundTo: relationshipNamespaces))
        for prefix in prefixes {
            try tail.removeAttribute("\(prefix):id", from: "pageSetup")
            try tail.removeAttribute("xmlns:\(prefix)", from: "pageSetup")
        }
        // Anything still tied to a relationship (a slicer in an extension list, say) would dangle.
        let dangling =
            relationshipNamespaces.contains { tail.text.contains($0) }
            || prefixes.contains { tail.text.contains(" \($0):") }
        if dangling { return nil }
        return SheetFrame(head: head.text, tail: tail.text)
    }
}

/// The original bytes before and after `<sheetData>`, found while streaming the part once.
private struct RawFrame {
    var head: String
    var tail: String

    static let headLimit = 8 * 1024 * 1024

    static func read(from package: XLSXPackage, part: String) throws -> RawFrame? {
        var head: [UInt8] = []
        var tail: [UInt8] = []
        var window: [UInt8] = []
        var phase = 0  // 0: head, 1: cells, 2: tail
        var cellsSearchFrom = 0
        var tooLarge = false
        let open = Array("<sheetData".utf8)
        let close = Array("</sheetData>".utf8)
        let empty = Array("<sheetData/>".utf8)
        try package.streamChunks(part) { data in
            var bytes = [UInt8](data)
            if phase == 0 {
                let searchFrom = max(0, head.count - open.count)
                head.append(contentsOf: bytes)
                if head.count > headLimit { tooLarge = true }
                guard let start = find(open, in: head, from: searchFrom) else { return }
                // `<sheetData>` or `<sheetData/>`; a prefixed element is not matched and has no frame.
                if find(empty, in: head, from: start) == start {
                    tail.append(contentsOf: head[(start + empty.count)...])
                    phase = 2
                } else {
                    window = Array(head[start...])
                    cellsSearchFrom = 0
                    phase = 1
                }
                head.removeSubrange(start...)
                bytes = []
            }
            if phase == 1 {
                window.append(contentsOf: bytes)
                guard let end = find(close, in: window, from: cellsSearchFrom) else {
                    // Keep only what a closing tag split across chunks could start with.
                    window.removeFirst(max(0, window.count - close.count))
                    cellsSearchFrom = 0
                    return
                }
                tail.append(contentsOf: window[(end + close.count)...])
                window = []
                phase = 2
                return
            }
            if phase == 2 { tail.append(contentsOf: bytes) }
        }
        guard phase == 2, !tooLarge else { return nil }
        guard let headText = String(validating: head, as: UTF8.self), let tailText = String(validating: tail, as: UTF8.self)
        else { return nil }
        let declaration = headText.prefix(100).lowercased()
        if declaration.contains("encoding=") && !declaration.contains("utf-8") { return nil }
        return RawFrame(head: headText, tail: tailText)
    }

    /// The first `needle` at or after `start`: memchr jumps to each candidate first byte.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start >= 0 else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            guard let base = hay.baseAddress else { return nil }
            var index = start
            while hay.count - index >= needle.count {
                guard let hit = memchr(base + index, Int32(first), hay.count - index - needle.count + 1) else { return nil }
                index = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + index, needle, needle.count) == 0 { return index }
                index += 1
            }
            return nil
        }
    }
}
