/// A problem reading or writing an XLSX package, naming the file and, where known, the part.
///
/// `description` reads e.g.
/// `book.xlsx: part 'xl/worksheets/sheet1.xml' declares a DOCTYPE (refused)`.
public struct XLSXError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, for callers that branch on it; the message says it for people.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// The file is not an XLSX package: not a ZIP archive at all, or a ZIP archive without the
        /// `_rels/.rels` part every Office Open XML package starts from (an empty one, say).
        case notAPackage
        /// The file is a spreadsheet of another format (OpenDocument `.ods`, legacy Excel `.xls`,
        /// binary `.xlsb`, XML Spreadsheet 2003): the message names it; saving it as `.xlsx` helps.
        case otherFormat
        /// The ZIP archive is damaged (its directory cannot be read, an entry cannot be found).
        case unreadablePackage
        /// A part the package needs (or a relationship names) is absent.
        case missingPart
        /// A part is not well-formed XML or holds values the format does not allow.
        case malformedPart
        /// A part's bytes are damaged: they do not match its CRC-32, or do not inflate.
        case corruptPart
        /// A part declares a DOCTYPE; OOXML never needs one, and it opens the door to entity tricks.
        case doctypeRefused
        /// A part inflates too far beyond its compressed size (the zip-bomb guard).
        case compressionRatioExceeded
        /// A part inflates past the size limit.
        case partTooLarge
        /// The package holds more entries than the limit.
        case tooManyParts
        /// An entry name, or the target of a relationship sheetsync follows, climbs out of the package.
        case unsafePath
        /// A sheet name breaks Excel's rules, or two sheets share a name.
        case invalidSheetName
        /// The file is an encrypted (password-protected) workbook: an OLE file holding `EncryptedPackage`.
        case passwordProtected
        /// A cell cannot be written as asked (bad number text, text too long).
        case invalidCell
        /// The new package cannot be written (the disk, the folder), or would overwrite its original.
        case cannotWrite

        /// A stable name for the kind (`xlsx-password-protected`), what `--json` reports as `code`.
        public var code: String {
            switch self {
            case .notAPackage: "xlsx-not-a-package"
            case .otherFormat: "xlsx-other-format"
            case .unreadablePackage: "xlsx-damaged-package"
            case .missingPart: "xlsx-missing-part"
            case .malformedPart: "xlsx-malformed-part"
            case .corruptPart: "xlsx-corrupt-part"
            case .doctypeRefused: "xlsx-doctype"
            case .compressionRatioExceeded: "xlsx-zip-bomb"
            case .partTooLarge: "xlsx-part-too-large"
            case .tooManyParts: "xlsx-too-many-parts"
            case .unsafePath: "xlsx-unsafe-path"
            case .invalidSheetName: "xlsx-invalid-sheet-name"
            case .passwordProtected: "xlsx-password-protected"
            case .invalidCell: "xlsx-invalid-cell"
            case .cannotWrite: "xlsx-cannot-write"
            }
        }
    }

    public var kind: Kind
    /// The workbook's file name (last path component).
    public var file: String
    /// The package part the problem is in, when there is one.
    public var part: String?
    /// Lowercase, no final period.
    public var message: String

    public init(_ kind: Kind, file: String, part: String? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.part = part
        self.message = message
    }

    public var description: String {
        if let part { return "\(file): part '\(part)' \(message)" }
        return "\(file): \(message)"
    }
}
