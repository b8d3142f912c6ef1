/// Text that a spreadsheet program would take for a formula when it opens a CSV file (OWASP's "CSV
/// injection"): a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return. Typed by anyone
/// who can edit the sheet, or by a stranger in a bank statement's payee, `=cmd|' /C calc'!A0` runs
/// when someone opens the file and says yes. A plain number (`-12.50`, `+3`) is not one: it reads
/// as that number everywhere.
public enum FormulaText {
    /// Whether a text beginning with this byte may be formula-like (a scan decodes only these).
    public static func mayBeFormulaLike(firstByte byte: UInt8) -> Bool {
        // What a spreadsheet program takes for the start of a formula (all ASCII: a text's first byte tells).
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): return true
        default: return false
        }
    }

    /// Whether `text` would be evaluated rather than shown, were it a cell of a CSV file.
    public static func isFormulaLike(_ text: String) -> Bool {
        guard let first = text.utf8.first, mayBeFormulaLike(firstByte: first) else { return false }
        return !isPlainNumber(text)
    }

    /// `text` as a CSV written for other programs holds it (an export, `report --csv`): a formula-like
    /// text gets a leading `'`, which spreadsheet programs show as text (OWASP's rule); anything else is
    /// left as it is.
    public static func neutralised(_ text: String) -> String {
        isFormulaLike(text) ? "'" + text : text
    }

    /// An optional sign, digits, and at most one decimal point among them: what every program reads
    /// as the number it is.
    private static func isPlainNumber(_ text: String) -> Bool {
        var digits = 0, points = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "+" where index == 0, "-" where index == 0: continue
            case "0"..."9": digits += 1
            case ".": points += 1
            default: return false
            }
        }
        return digits > 0 && points <= 1
    }
}
