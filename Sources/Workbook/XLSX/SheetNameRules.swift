/// Excel's rules for sheet names, checked before anything is written: a name Excel refuses makes
/// it "repair" the whole file.
public enum SheetNameRules {
    public static let maximumLength = 31
    public static let forbiddenCharacters: Set<Character> = ["[", "]", ":", "*", "?", "/", "\\"]

    /// Why `name` cannot name a sheet, or nil when it can.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "sheet name is empty" }
        // Excel counts UTF-16 code units.
        if name.utf16.count > maximumLength {
            return "sheet name '\(name)' is longer than \(maximumLength) characters"
        }
        if let bad = name.first(where: { forbiddenCharacters.contains($0) }) {
            return "sheet name '\(name)' contains '\(bad)' (not allowed: [ ] : * ? / \\)"
        }
        if name.hasPrefix("'") || name.hasSuffix("'") {
            return "sheet name '\(name)' begins or ends with an apostrophe"
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            return "sheet name '\(name)' contains a control character"
        }
        // XML cannot carry them, and a name in workbook.xml has no escape.
        if name.unicodeScalars.contains(where: { $0.value == 0xFFFE || $0.value == 0xFFFF }) {
            return "sheet name '\(name.debugDescription.dropFirst().dropLast())' contains U+FFFE or U+FFFF, which a workbook cannot hold"
        }
        if name.lowercased() == "history" {
            return "sheet name '\(name)' is reserved by Excel"
        }
        return nil
    }

    /// Checks every name and that no two are equal ignoring case (Excel's notion of the same name).
    static func validate(_ names: [String], file: String) throws(XLSXError) {
        var seen: Set<String> = []
        for name in names {
            if let problem = problem(with: name) { throw XLSXError(.invalidSheetName, file: file, problem) }
            guard seen.insert(name.lowercased()).inserted else {
                throw XLSXError(.invalidSheetName, file: file, "two sheets are named '\(name)' (names ignore case)")
            }
        }
    }
}
