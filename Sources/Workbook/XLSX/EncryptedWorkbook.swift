import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Looks inside an OLE compound file (`D0 CF 11 E0 …`), which is what a file that fails to open as a
/// ZIP often is: Excel saves a password-protected `.xlsx` as one holding an `EncryptedPackage` stream
/// (MS-OFFCRYPTO), and a legacy Excel 97–2003 `.xls` is one holding a `Workbook` (or, before Excel 97,
/// `Book`) stream.
enum EncryptedWorkbook {
    /// The compound-file signature, `D0 CF 11 E0 A1 B1 1A E1`.
    static let oleSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    /// `EncryptedPackage` as a directory entry names it, in UTF-16LE.
    static let streamName = utf16LE("EncryptedPackage")
    /// A legacy workbook's stream names, NUL-terminated as directory entries hold them: `Workbook`
    /// (Excel 97 on) or `Book` (Excel 5/95).
    static let legacyWorkbookStreams = [utf16LE("Workbook\0"), utf16LE("Book\0")]
    /// How much of the file is searched for the directory entry (directories sit near the start
    /// or the end; an encrypted ledger is far smaller than this).
    static let searchLimit = 256 * 1024 * 1024

    /// What an OLE compound file holds, as far as sheetsync tells them apart.
    enum Content: Equatable {
        case notOLE
        case encryptedPackage
        case legacyWorkbook
        case otherOLE
    }

    /// Whether the file at `url` is an OLE compound file with an `EncryptedPackage` stream.
    static func isEncrypted(_ url: URL) -> Bool { content(of: url) == .encryptedPackage }

    /// What the file at `url` is, read only as far as needed (never through a link, nor from a device
    /// or FIFO). Only picks the message for a file that already failed to open as a ZIP: a read error
    /// here means "not found", and the caller reports the file as unreadable.
    static func content(of url: URL) -> Content {
        guard let fd = try? FileSafety.open(url.path, flags: O_RDONLY) else { return .notOLE }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 8), Array(head) == oleSignature else { return .notOLE }
        var searched = 8
        var tail: [UInt8] = []
        var sawWorkbook = false
        let keep = ([streamName] + legacyWorkbookStreams).map(\.count).reduce(0, max) - 1
        while searched < searchLimit {
            guard let chunk = try? handle.read(upToCount: 1024 * 1024), !chunk.isEmpty else { break }
            searched += chunk.count
            let window = tail + Array(chunk)
            if contains(window, streamName) { return .encryptedPackage }
            sawWorkbook = sawWorkbook || legacyWorkbookStreams.contains { contains(window, $0) }
            tail = Array(window.suffix(keep))
        }
        return sawWorkbook ? .legacyWorkbook : .otherOLE
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    private static func utf16LE(_ text: String) -> [UInt8] {
        Array(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }
}
