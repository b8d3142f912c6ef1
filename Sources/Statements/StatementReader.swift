/// Reads a bank statement from its bytes: the encoding (`StatementText`) and the format told by
/// the content, not by the file's name.
public enum StatementReader {
    /// The statement in `bytes`; `file` names it in errors. Throws when the file as a whole cannot be
    /// read; entries that cannot be are in `Statement.refused`. `format` skips detection.
    public static func read(
        _ bytes: [UInt8], file: String, format: StatementFormat? = nil, options: StatementOptions = StatementOptions()
    ) throws(StatementError) -> Statement {
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            throw StatementError(file: file, problem: .empty)
        }
        guard let (text, _) = StatementText.decode(bytes) else {
            throw StatementError(file: file, problem: .binary(StatementText.leadingBytes(bytes)))
        }
        switch format ?? detect(text) {
        case .ofx: return try OFXParser.read(text, file: file)
        case .qif: return try QIFParser.read(text, file: file, options: options)
        case .camt053: return try CAMTParser.read(text, file: file)
        case .csv: return try BankCSV.read(text, file: file, options: options)
        }
    }

    /// A sheet's rows, each cell as the text a person sees (`rows[i]` is row `i + 1`; a date as
    /// `2026-03-01`): a budget kept in a spreadsheet, its table found below any title rows and read as a
    /// bank's CSV export is. `file` names the sheet in errors.
    public static func read(rows: [[String]], file: String, options: StatementOptions = StatementOptions()) throws(StatementError)
        -> Statement
    {
        try BankCSV.read(rows: rows, file: file, options: options)
    }

    /// The format the text's start shows: an OFX header or `<OFX>`, a QIF `!Type`/`!Account`/`!Option`
    /// line, XML (CAMT); anything else is tried as a CSV export.
    public static func detect(_ text: String) -> StatementFormat {
        let head = String(text.prefix(4096)).uppercased()
        let start = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix("OFXHEADER") || head.contains("<OFX>") || head.contains("<?OFX") { return .ofx }
        if start.hasPrefix("!TYPE") || start.hasPrefix("!ACCOUNT") || start.hasPrefix("!OPTION") || start.hasPrefix("!CLEAR") {
            return .qif
        }
        if start.hasPrefix("<") { return .camt053 }
        return .csv
    }
}
