import Foundation

/// What a file is when it is not an XLSX package, so the refusal names it for what it is: an
/// OpenDocument spreadsheet renamed `.xlsx`, a legacy `.xls`, an empty ZIP archive, a CSV file.
enum PackageIdentity {
    static let saveAsXLSX = "open it in LibreOffice or Excel and save it as an Excel workbook (.xlsx)"

    /// The refusal for a file that does not open as a ZIP archive (`failure.notAZip`).
    static func notAZip(_ url: URL) -> XLSXError {
        let file = url.lastPathComponent
        switch EncryptedWorkbook.content(of: url) {
        case .encryptedPackage:
            return XLSXError(.passwordProtected, file: file, "the workbook is password-protected; save a copy without a password")
        case .legacyWorkbook:
            return XLSXError(.otherFormat, file: file, "is a legacy Excel 97–2003 workbook (.xls), not an XLSX workbook: \(saveAsXLSX)")
        case .otherOLE:
            return XLSXError(
                .otherFormat, file: file, "is a legacy Office document (an OLE compound file), not an XLSX workbook")
        case .notOLE:
            break
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        if size == 0 { return XLSXError(.notAPackage, file: file, "is empty (0 bytes), not an XLSX workbook") }
        let head = leadingBytes(of: url, count: 4096)
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            // A ZIP archive's first entry, but no end record: cut short, not another kind of file.
            return XLSXError(
                .unreadablePackage, file: file,
                "cannot be read: it starts as a ZIP archive but has no end record (cut short by a copy or a sync tool?)")
        }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("urn:schemas-microsoft-com:office:spreadsheet") {
            return XLSXError(.otherFormat, file: file, "is an XML Spreadsheet 2003 file, not an XLSX workbook: \(saveAsXLSX)")
        }
        if text.contains("urn:oasis:names:tc:opendocument:xmlns:office") {
            return XLSXError(.otherFormat, file: file, "is a flat OpenDocument file (.fods), not an XLSX workbook: \(saveAsXLSX)")
        }
        let lower = text.prefix(512).lowercased()
        if lower.contains("<html") || lower.contains("<!doctype html") {
            return XLSXError(
                .otherFormat, file: file, "is an HTML page (some programs save those as .xls or .xlsx), not an XLSX workbook: \(saveAsXLSX)"
            )
        }
        return XLSXError(
            .notAPackage, file: file,
            "is not an XLSX workbook (not a ZIP archive): it begins with \(LeadingBytes.describe(head.prefix(64)))")
    }

    /// The refusal for a ZIP archive without `_rels/.rels`, the part every OPC package starts from.
    static func missingPackageRelationships(_ package: XLSXPackage) -> XLSXError {
        let file = package.fileName
        let names = package.entryNames
        if names.isEmpty {
            return XLSXError(.notAPackage, file: file, "is an empty ZIP archive (it holds no parts), not an XLSX workbook")
        }
        if package.contains("mimetype") || package.contains("META-INF/manifest.xml") {
            let mimetype = (try? package.data("mimetype")).map { String(decoding: $0.prefix(200), as: UTF8.self) } ?? ""
            let kind: String
            switch mimetype.trimmingCharacters(in: .whitespacesAndNewlines) {
            case "application/vnd.oasis.opendocument.spreadsheet": kind = "an OpenDocument spreadsheet (.ods)"
            case "application/vnd.oasis.opendocument.spreadsheet-template": kind = "an OpenDocument spreadsheet template (.ots)"
            case "application/vnd.oasis.opendocument.text": kind = "an OpenDocument text document (.odt)"
            case "application/vnd.oasis.opendocument.presentation": kind = "an OpenDocument presentation (.odp)"
            case "application/vnd.apple.numbers": kind = "an Apple Numbers document"
            default: kind = "an OpenDocument file"
            }
            return XLSXError(.otherFormat, file: file, "is \(kind), not an XLSX workbook: \(saveAsXLSX)")
        }
        // Parts an XLSX package has: then the package is damaged rather than something else.
        if package.contains("[Content_Types].xml") || names.contains(where: { $0.lowercased().hasPrefix("xl/") }) {
            return XLSXError(
                .missingPart, file: file, part: "_rels/.rels",
                "is missing from the package: it is the part that names the workbook part (a damaged copy? "
                    + "re-save it in a spreadsheet program, or restore it from a backup)")
        }
        let shown = names.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        return XLSXError(
            .notAPackage, file: file,
            "is a ZIP archive but not an XLSX package: it has no '_rels/.rels' part (it holds \(shown))")
    }

    /// A workbook part that is not SpreadsheetML XML, named for the format it is, else nil.
    static func otherFormat(workbookPart: String) -> String? {
        let lower = workbookPart.lowercased()
        if lower.hasSuffix(".bin") { return "is an Excel binary workbook (.xlsb), not an XLSX workbook: \(saveAsXLSX)" }
        return nil
    }

    private static func leadingBytes(of url: URL, count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return [] }
        defer { try? handle.close() }
        // Only picks the words of a refusal: an unreadable file reads as empty here.
        return (try? handle.read(upToCount: count)).map { Array($0) } ?? []
    }
}
