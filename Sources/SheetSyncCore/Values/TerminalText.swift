/// Text on its way to a terminal or a log, made harmless: anyone who can type into the sheet (or
/// answer as the server) chooses category names, notes and messages that sheetsync prints, and a
/// control character among them would be obeyed by the terminal (`ESC [2J` clears the screen, `ESC ]0;…BEL`
/// retitles the window, `ESC [1A ESC [2K` erases the warning line above; a bidi override reorders
/// what is shown). Every such character is shown as a visible escape instead, so the text can be
/// read and nothing in it acts. `--json` output is not made visible this way: JSON escapes every
/// control character itself, and the value stays exact.
public enum TerminalText {
    /// `text` with every control character written out: `\e` (ESC), `\a`, `\b`, `\t`, `\n`, `\r`,
    /// `\x7f`-style for the other C0 characters and DEL, and `\u{…}` for C1 controls and the
    /// invisible formatting characters that reorder or hide text (bidi marks, embeddings, overrides
    /// and isolates, zero-width spaces and non-joiners, the BOM). Text with none is returned as it is.
    public static func visible(_ text: String) -> String { escaping(text, keepingLineFeeds: false) }

    /// Each line of `text` made `visible`, the line feeds between them kept: for a message or table
    /// of several lines, whose own line breaks are meant.
    public static func visibleLines(_ text: String) -> String { escaping(text, keepingLineFeeds: true) }

    private static func escaping(_ text: String, keepingLineFeeds: Bool) -> String {
        func kept(_ scalar: Unicode.Scalar) -> Bool { !needsEscape(scalar) || (keepingLineFeeds && scalar == "\n") }
        guard !text.unicodeScalars.allSatisfy(kept) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if kept(scalar) { out.unicodeScalars.append(scalar) } else { out += escape(scalar) }
        }
        return out
    }

    /// Whether `scalar` acts on a terminal (or hides or reorders what it shows) rather than being shown.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: return true
        // Zero-width space and non-joiner; left-to-right and right-to-left marks. (The zero-width joiner
        // stays: emoji sequences such as a category's 👩‍💻 are made with it.)
        case 0x200B, 0x200C, 0x200E, 0x200F: return true
        // Bidi embeddings and overrides (LRE, RLE, PDF, LRO, RLO), isolates (LRI, RLI, FSI, PDI).
        case 0x202A...0x202E, 0x2066...0x2069: return true
        // Word joiner and the invisible operators; the BOM (a zero-width no-break space).
        case 0x2060...0x2064, 0xFEFF: return true
        default: return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x07: return "\\a"
        case 0x08: return "\\b"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x00..<0x20, 0x7F: return "\\x" + hex(scalar.value, digits: 2)
        default: return "\\u{" + hex(scalar.value, digits: 4) + "}"
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The form two names are compared in for looking alike: without the characters `needsEscape`
    /// (invisible ones among them), full-width letters, digits and signs as their ASCII selves, in
    /// lower case. `Dining`, `Din\u{200B}ing` and `Ｄｉｎｉｎｇ` all fold to `dining`.
    public static func lookalikeFold(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in name.unicodeScalars where !needsEscape(scalar) {
            switch scalar.value {
            case 0xFF01...0xFF5E: out.append(Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar)
            case 0x3000: out.append(" ")
            default: out.append(scalar)
            }
        }
        return String(out).lowercased()
    }
}
