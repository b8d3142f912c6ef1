import SheetValues

/// A CSV file that cannot be read, with the file, row and byte offset where reading stopped.
///
/// `row` is the 1-based record number (the header is row 1), which is the row a spreadsheet
/// shows; `line` is the physical line, given in the message only when a quoted field with
/// embedded newlines makes it differ from the row.
public struct CSVError: Error, CustomStringConvertible, Hashable, Sendable {
    public enum Problem: Hashable, Sendable {
        /// A byte sequence that is not UTF-8 starts at `byteOffset`.
        case notUTF8
        /// A quoted field opened on `row` is never closed.
        case unterminatedQuote
        /// The file could not be read at all (missing, a folder, no permission).
        case unreadable(reason: String)
        /// A cell holds a NUL byte (at `byteOffset`); `column` is 1-based, `header` its header
        /// text. Only that row is refused (`Table.refusedRows`), the rest of the file is read.
        case nulByte(column: Int, header: String?)
    }

    public var file: String
    public var row: Int?
    public var line: Int?
    /// Offset from the first byte of the file (the BOM included).
    public var byteOffset: Int?
    public var problem: Problem

    public init(file: String, row: Int? = nil, line: Int? = nil, byteOffset: Int? = nil, problem: Problem) {
        self.file = file
        self.row = row
        self.line = line
        self.byteOffset = byteOffset
        self.problem = problem
    }

    public var description: String {
        var place = file
        if let row {
            place += " row \(row)"
            if let line, line != row { place += " (line \(line))" }
        }
        switch problem {
        case .notUTF8:
            let offset = byteOffset.map { " (byte offset \($0))" } ?? ""
            return "\(place): file is not UTF-8\(offset); save it as UTF-8 and run again"
        case .unterminatedQuote:
            return "\(place): quoted field is never closed (a '\"' is missing)"
        case .unreadable(let reason):
            return "\(place): cannot read file: \(reason)"
        case .nulByte(let column, let header):
            let offset = byteOffset.map { " at byte offset \($0)" } ?? ""
            return "\(place), column \(Self.columnName(column, header)): NUL byte\(offset); "
                + "remove it (a NUL byte in a text file usually means a damaged save)"
        }
    }

    /// `'note' (9)`, or `9` for a cell under no header.
    static func columnName(_ column: Int, _ header: String?) -> String {
        guard let header, !header.isEmpty else { return "\(column)" }
        return "'\(header)' (\(column))"
    }
}

extension CSVError {
    /// The problem a tab reader reports for a row refused with this error (`Table.refusedRows`).
    var fieldProblem: FieldProblem {
        var field = "row"
        if case .nulByte(let column, let header) = problem { field = header ?? "column \(column)" }
        return FieldProblem(
            field: field, value: "", message: description,
            hint: "open \(file) in a text editor, delete the NUL byte and save; the row is not synced until then")
    }
}
