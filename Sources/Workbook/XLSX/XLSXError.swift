/// A problem reading or writing an XLSX package, naming the file and, where known, the part.
///
/// `description` reads e.g.
/// `book.xlsx: part 'xl/worksheets/sheet1.xml' declares a DOCTYPE (refused)`.
public struct XLSXError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, for callers that branch on it; the message says it for people.
    public enum Kind: Sendable, Equatable {
        /// The file is not a ZIP archive, or the archive cannot be read or written.
        case unreadablePackage
        /// A part the package needs (or a relationship names) is absent.
        case missingPart
        /// A part is not well-formed XML or holds values the format does not allow.
        case malformedPart
        /// A part declares a DOCTYPE; OOXML never needs one, and it opens the door to entity tricks.
        case doctypeRefused
        /// A part inflates too far beyond its compressed size (the zip-bomb guard).
        case compressionRatioExceeded
        /// A part inflates past the size limit.
        case partTooLarge
        /// The package holds more entries than the limit.
        case tooManyParts
        /// An entry name or relationship target climbs out of the package.
        case unsafePath
        /// A sheet name breaks Excel's rules, or two sheets share a name.
        case invalidSheetName
        /// The file is an encrypted (password-protected) workbook: an OLE file holding `EncryptedPackage`.
        case passwordProtected
        /// A cell cannot be written as asked (bad number text, text too long).
        case invalidCell
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
