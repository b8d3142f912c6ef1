import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recognizes an encrypted workbook: Excel saves a password-protected `.xlsx` not as a ZIP but as
/// an OLE compound file whose directory holds an `EncryptedPackage` stream (MS-OFFCRYPTO).
enum EncryptedWorkbook {
    /// The compound-file signature, `D0 CF 11 E0 A1 B1 1A E1`.
    static let oleSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    /// `EncryptedPackage` as a directory entry names it, in UTF-16LE.
    static let streamName: [UInt8] = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    /// How much of the file is searched for the directory entry (directories sit near the start
    /// or the end; an encrypted ledger is far smaller than this).
    static let searchLimit = 256 * 1024 * 1024

    /// Whether the file at `url` is an OLE compound file with an `EncryptedPackage` stream.
    static func isEncrypted(_ url: URL) -> Bool {
        guard let fd = try? FileSafety.open(url.path, flags: O_RDONLY) else { return false }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // Only picks the message for a file that already failed to open as a ZIP: a read error
        // here means "not encrypted", and the caller reports the file as unreadable.
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 8), Array(head) == oleSignature else { return false }
        var searched = 8
        var tail: [UInt8] = []
        while searched < searchLimit {
            // A read error is the same answer as "not found": the caller then reports the file as unreadable.
            guard let chunk = try? handle.read(upToCount: 1024 * 1024), !chunk.isEmpty else { return false }
            searched += chunk.count
            let window = tail + Array(chunk)
            if contains(window, streamName) { return true }
            tail = Array(window.suffix(streamName.count - 1))
        }
        return false
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
}
