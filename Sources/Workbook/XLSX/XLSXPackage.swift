import CZlibCRC
import Foundation

/// An opened OPC package (the ZIP container of an XLSX file), read part by part in chunks.
///
/// The file is opened once, when the package opens (`ZipReader`), and every part is read through that
/// one open file: each part comes from the version of the file that was opened (a program that saves
/// the workbook meanwhile replaces the file, not the open one's bytes). Every entry name is checked
/// when the package opens; every inflation runs under the zip-bomb guard and the per-part size cap of
/// `limits`, and never reads past the entry's own bytes.
final class XLSXPackage {
    let url: URL
    let fileName: String
    let limits: XLSXLimits
    /// The open file (read with `pread`: `streamInBackground`'s inflating thread reads it too).
    let zip: ZipReader
    typealias Entry = ZipReader.Entry
    /// Entries by exact name, and by lowercased name: OPC part names are case-insensitive.
    private var exact: [String: Entry] = [:]
    private var folded: [String: Entry] = [:]
    /// Entry names in archive order (what a rewrite copies, in the same order).
    private(set) var entryNames: [String] = []

    static let chunkSize = 64 * 1024

    init(url: URL, limits: XLSXLimits = .default) throws(XLSXError) {
        self.url = url
        self.fileName = url.lastPathComponent
        self.limits = limits
        do {
            zip = try ZipReader(path: url.path, maximumEntries: limits.maximumParts)
        } catch {
            if let refusal = error.refusal, case .notAFile = refusal {
                throw XLSXError(.unreadablePackage, file: url.path, refusal.reason + " (refused: \(refusal))")
            }
            if error.tooManyEntries {
                throw XLSXError(.tooManyParts, file: fileName, "holds more than \(limits.maximumParts) parts (refused)")
            }
            if !FileManager.default.fileExists(atPath: url.path) {
                throw XLSXError(.unreadablePackage, file: fileName, "no such file")
            }
            // Not a ZIP at all: named for what it is (password-protected, an .xls, a CSV file…).
            if error.notAZip { throw PackageIdentity.notAZip(url) }
            if error.cannotOpen { throw XLSXError(.unreadablePackage, file: fileName, "cannot be opened: \(error)") }
            throw XLSXError(
                .unreadablePackage, file: fileName,
                "cannot be read: its ZIP archive \(error) (a damaged copy? restore it from a backup)")
        }
        for entry in zip.entries {
            // Some Windows/.NET tools write `xl\\worksheets\\sheet1.xml`; ZIP names use `/`.
            let name = entry.path.replacingOccurrences(of: "\\", with: "/")
            do {
                try PartPath.validateEntryName(name)
            } catch {
                throw XLSXError(.unsafePath, file: fileName, part: entry.path, "has a name outside the package (refused)")
            }
            guard entry.isFile else { continue }
            entryNames.append(name)
            exact[name] = entry
            folded[name.lowercased()] = folded[name.lowercased()] ?? entry
        }
    }

    func contains(_ part: String) -> Bool { entry(part) != nil }

    /// The inflated size the archive declares for `part`, capped by the part limit (a declaration
    /// is only a hint: the inflation itself is what the limits check).
    func declaredSize(_ part: String) -> Int {
        Int(min(Int64(clamping: entry(part)?.uncompressedSize ?? 0), limits.maximumPartBytes))
    }

    /// Streams the inflated bytes of `part` to `consumer` in chunks.
    func stream(_ part: String, to consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        try streamChunks(part) { data in try data.withUnsafeBytes { try consumer($0) } }
    }

    /// Streams the inflated chunks of `part`, each checked against the size and ratio limits.
    func streamChunks(_ part: String, to consumer: (Data) throws -> Void) throws {
        try Self.inflate(checkedEntry(part), of: zip, part: part, limits: limits, fileName: fileName, to: consumer)
    }

    /// The entry of `part`, refused before a byte is inflated when it is missing or says it
    /// inflates past the cap (one that lies about its size is stopped while inflating).
    func checkedEntry(_ part: String) throws -> Entry {
        guard let entry = entry(part) else {
            throw XLSXError(.missingPart, file: fileName, part: part, "is missing from the package")
        }
        if Int64(clamping: entry.uncompressedSize) > limits.maximumPartBytes {
            throw XLSXError(
                .partTooLarge, file: fileName, part: part,
                "declares \(entry.uncompressedSize) bytes inflated, past the \(limits.maximumPartBytes)-byte limit (refused)")
        }
        return entry
    }

    /// Inflates `entry` of `zip` in chunks, under the size cap and the zip-bomb ratio check.
    static func inflate(
        _ entry: Entry, of zip: ZipReader, part: String, limits: XLSXLimits, fileName: String,
        to consumer: (Data) throws -> Void
    ) throws {
        let compressed = Double(entry.compressedSize)
        var inflated: Int64 = 0
        // The part is checked against the entry's recorded checksum once its last byte is inflated:
        // a damaged part that still inflates (a stored one, say) is refused, not read.
        var checksum = CZlibCRC.crc32(0, nil, 0)
        do {
            try zip.read(entry, chunkSize: chunkSize) { bytes in
                checksum = CZlibCRC.crc32(checksum, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count))
                inflated += Int64(bytes.count)
                if inflated > limits.maximumPartBytes {
                    throw XLSXError(
                        .partTooLarge, file: fileName, part: part,
                        "inflates past \(limits.maximumPartBytes) bytes (refused)")
                }
                if inflated > limits.ratioGraceBytes, compressed / Double(inflated) < limits.minimumCompressionRatio {
                    throw XLSXError(
                        .compressionRatioExceeded, file: fileName, part: part,
                        "inflates more than \(Int((1 / limits.minimumCompressionRatio).rounded()))× its compressed size "
                            + "(\(entry.compressedSize) bytes compressed, over \(inflated) inflated): "
                            + "refused as a possible zip bomb")
                }
                try consumer(Data(bytes))
            }
        } catch let error as XLSXError {
            throw error
        } catch let error as XMLStreamProblem {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch let error as ZipReader.Failure {
            throw XLSXError(.corruptPart, file: fileName, part: part, "cannot be read: it \(error)")
        } catch {
            throw XLSXError(.corruptPart, file: fileName, part: part, "cannot be inflated (\(error))")
        }
        guard UInt32(truncatingIfNeeded: checksum) == entry.checksum else {
            throw XLSXError(
                .corruptPart, file: fileName, part: part,
                "is corrupt (checksum mismatch: its bytes are not the ones the package recorded; a damaged copy?)")
        }
    }

    /// The whole inflated part (for small parts that are edited or copied, never worksheets read).
    func data(_ part: String) throws -> Data {
        var data = Data()
        try stream(part) { data.append(contentsOf: $0) }
        return data
    }

    /// Parses `part` with `handler`, turning parser problems into errors that name the part.
    ///
    /// The part's CRC-32 is known only once its last byte is inflated, and damaged bytes usually
    /// break the XML before that: a part the parser gives up on is inflated to its end before the
    /// XML problem is reported, so a damaged part reads as damaged ("checksum mismatch"), not as
    /// XML someone wrote badly.
    func parse<Handler: XMLEventHandler>(_ part: String, with handler: Handler) throws {
        let parser = XMLStreamParser.for(handler)
        do {
            try streamInBackground(part) { try parser.feed($0) }
            try parser.finish()
        } catch let problem as XMLStreamProblem {
            try verifyIntegrity(part)
            throw error(for: problem, in: part)
        }
    }

    /// Inflates `part` to its end, throwing what inflating or the checksum finds wrong.
    func verifyIntegrity(_ part: String) throws {
        try streamChunks(part) { _ in }
    }

    func error(for problem: XMLStreamProblem, in part: String) -> any Error {
        switch problem {
        case .doctype:
            return XLSXError(.doctypeRefused, file: fileName, part: part, "declares a DOCTYPE (refused)")
        case .malformed(let message, let line):
            let place = line > 0 ? " at line \(line)" : ""
            return XLSXError(.malformedPart, file: fileName, part: part, "is not well-formed XML\(place): \(message)")
        case .notXML(let head):
            return XLSXError(.malformedPart, file: fileName, part: part, LeadingBytes.whereXMLWasExpected(head))
        case .handler(let error as WorksheetProblem):
            return XLSXError(.malformedPart, file: fileName, part: part, error.message)
        case .handler(let error):
            return error
        }
    }

    private func entry(_ part: String) -> Entry? {
        exact[part] ?? folded[part.lowercased()]
    }
}

/// A problem a part handler found in values that are well-formed XML but not valid SpreadsheetML.
struct WorksheetProblem: Error {
    var message: String
}
