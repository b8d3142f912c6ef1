import Foundation

#if canImport(Glibc)
    // On Linux the members of `struct stat` and `timespec` come from a header that whichever of
    // CoreFoundation and Dispatch loaded it first owns (it depends on the build), so both are imported.
    import CoreFoundation
    import CDispatch
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file was when it was read: enough to tell, just before replacing it, whether
/// someone saved it meanwhile (size, modification time and a content hash).
public struct FileFingerprint: Hashable, Sendable, CustomStringConvertible {
    public var size: Int64
    /// Modification time in nanoseconds since 1970-01-01T00:00:00Z.
    public var modificationTimeNanoseconds: Int64
    /// XXH64 of the whole content (see `ContentHash`).
    public var contentHash: UInt64

    public init(size: Int64, modificationTimeNanoseconds: Int64, contentHash: UInt64) {
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
        self.contentHash = contentHash
    }

    /// The fingerprint of the file at `url`, or nil when there is no such file. Read a chunk at a
    /// time: nothing of the file is kept.
    public static func of(_ url: URL) throws -> FileFingerprint? {
        try POSIXFile.reading(url.path, of)
    }

    /// The fingerprint of an open file whose content hash is known (kept while it was written).
    static func of(_ fd: Int32, path: String, contentHash: UInt64) throws -> FileFingerprint {
        let info = try POSIXFile.fileStatus(fd, path: path)
        return FileFingerprint(
            size: Int64(info.st_size), modificationTimeNanoseconds: POSIXFile.modificationNanoseconds(info), contentHash: contentHash)
    }

    /// The fingerprint of an open file from its current offset (the start, for a fresh descriptor), of
    /// at most the size it had when this began (see `POSIXFile.readAll`).
    static func of(_ fd: Int32, path: String) throws -> FileFingerprint {
        let info = try POSIXFile.fileStatus(fd, path: path)
        let size = Int(info.st_size)
        // A whole number of hash stripes, small enough to stay in the cache between reads.
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 64)
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress else { throw POSIXFile.failure("read", path, ENOMEM) }
        var hash = ContentHash.Stream()
        var filled = 0, total = 0
        while total < size {
            let got = read(fd, base + filled, min(chunk - filled, size - total))
            if got < 0 {
                if errno == EINTR { continue }
                throw POSIXFile.failure("read", path)
            }
            if got == 0 { break }
            filled += got
            total += got
            if filled == chunk {
                hash.add(stripes: UnsafeRawBufferPointer(buffer))
                filled = 0
            }
        }
        return FileFingerprint(
            size: Int64(total), modificationTimeNanoseconds: POSIXFile.modificationNanoseconds(info),
            contentHash: hash.finish(last: UnsafeRawBufferPointer(rebasing: buffer[0..<filled])))
    }

    /// Whether the file at `path` has the size and modification time of `fingerprint` (its content
    /// not read); false when it cannot be looked at.
    static func hasSizeAndTime(of fingerprint: FileFingerprint, path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return Int64(info.st_size) == fingerprint.size && POSIXFile.modificationNanoseconds(info) == fingerprint.modificationTimeNanoseconds
    }

    /// Whether both fingerprints describe the same bytes, whatever their modification times.
    public func hasSameContent(as other: FileFingerprint) -> Bool {
        size == other.size && contentHash == other.contentHash
    }

    public var description: String {
        let hash = String(contentHash, radix: 16)
        return "\(size) bytes, modified \(modificationTimeNanoseconds) ns, xxh64 \(hash)"
    }
}

/// A file's bytes together with the fingerprint of exactly those bytes.
///
/// Reading both from one open file means the fingerprint can never describe content other
/// than the bytes a caller parsed: the modification time is taken before reading, so a save
/// that races with the read shows up as a changed file on the next check.
public struct FileSnapshot: Hashable, Sendable {
    public var bytes: [UInt8]
    public var fingerprint: FileFingerprint

    public init(bytes: [UInt8], fingerprint: FileFingerprint) {
        self.bytes = bytes
        self.fingerprint = fingerprint
    }

    /// Reads the file at `url`; nil when there is no such file.
    public static func read(_ url: URL) throws -> FileSnapshot? {
        try POSIXFile.reading(url.path, read)
    }

    /// Reads an already open file from its current offset (the start, for a fresh descriptor).
    static func read(_ fd: Int32, path: String) throws -> FileSnapshot {
        let info = try POSIXFile.fileStatus(fd, path: path)
        let bytes = try POSIXFile.readAll(fd, size: Int(info.st_size), path: path)
        let fingerprint = FileFingerprint(
            size: Int64(bytes.count),
            modificationTimeNanoseconds: POSIXFile.modificationNanoseconds(info),
            contentHash: ContentHash.xxh64(bytes)
        )
        return FileSnapshot(bytes: bytes, fingerprint: fingerprint)
    }
}
