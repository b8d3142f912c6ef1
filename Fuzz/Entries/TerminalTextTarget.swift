import SheetSyncCore

/// `TerminalText`, the one sanitizer of what reaches a terminal or a log, on any text (the input's
/// bytes as UTF-8, bad sequences as U+FFFD): a category name, a cell, a server's message.
enum TerminalTextTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) throws(PropertyViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        try check(text)
        // The line feeds `visibleLines` keeps are exactly the text's own, and each line between them is
        // that line made visible.
        // (Split by scalars: as characters, "\r\n" is one, which no split on "\n" cuts.)
        func cut(_ text: String) -> [String] {
            text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        }
        let lines = cut(TerminalText.visibleLines(text))
        let own = cut(text).map(TerminalText.visible)
        guard lines == own else {
            throw PropertyViolation("'\(TerminalText.visible(text))': visibleLines gives \(lines.count) lines, not the text's \(own.count) made visible")
        }
        // Two names are compared in their folded form: it holds nothing invisible, and folding again changes nothing.
        let folded = TerminalText.lookalikeFold(text)
        guard !folded.unicodeScalars.contains(where: TerminalText.needsEscape), TerminalText.lookalikeFold(folded) == folded else {
            throw PropertyViolation("'\(TerminalText.visible(text))' folds to '\(TerminalText.visible(folded))', which is not a fold")
        }
    }

    /// Any value made visible for a terminal holds no character a terminal obeys (line feeds only
    /// where lines are kept), and text that needed nothing is unchanged.
    static func check(_ text: String) throws(PropertyViolation) {
        let shown = TerminalText.visible(text), lines = TerminalText.visibleLines(text)
        guard !shown.unicodeScalars.contains(where: TerminalText.needsEscape),
            !lines.unicodeScalars.contains(where: { $0 != "\n" && TerminalText.needsEscape($0) })
        else { throw PropertyViolation("'\(text)' made visible still holds a control character: '\(shown)'") }
        guard text.unicodeScalars.contains(where: TerminalText.needsEscape) || (shown == text && lines == text) else {
            throw PropertyViolation("'\(text)' holds no control character but was changed to '\(shown)'")
        }
    }
}
