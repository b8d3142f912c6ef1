import SheetValues

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

/// Thin wrappers over the system calls atomic replacement needs (Foundation offers no fsync
/// of a folder and no O_EXCL create), retrying on EINTR and turning errno into
/// `AtomicFileError.io`.
enum POSIXFile {
    static func failure(_ operation: String, _ path: String, _ code: Int32 = errno) -> AtomicFileError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT: return .noSpace(operation: operation, path: path)
        case EACCES, EPERM: return .permissionDenied(operation: operation, path: path, reason: reason)
        case EROFS: return .readOnlyFileSystem(operation: operation, path: path)
        default: return .io(operation: operation, path: path, reason: reason)
        }
    }

    /// Whether anything (a file, a folder, a dangling symlink) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether the file system holding `path` has no block left for an ordinary user.
    static func isFull(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && info.f_bavail == 0
    }

    /// Whether `path` cannot be written: the system says so, or no write bit is set at all (which
    /// root, whom the system lets write anywhere, must respect too).
    static func isReadOnly(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return info.st_mode & 0o222 == 0 || access(path, W_OK) != 0
    }

    /// Whether the file system holding `path` is mounted read-only (then no `chmod` makes it writable).
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// `body` with the file at `path` open for reading (and its path); nil when there is no such file.
    static func reading<T>(_ path: String, _ body: (Int32, String) throws -> T) throws -> T? {
        guard let fd = try openFile(path, flags: O_RDONLY, missingIsNil: true) else { return nil }
        defer { close(fd) }
        return try body(fd, path)
    }

    /// The status of an open file to read; a folder is refused.
    static func fileStatus(_ fd: Int32, path: String) throws -> stat {
        let info = try status(fd, path: path)
        if isDirectory(info) {
            throw AtomicFileError.io(operation: "read", path: path, reason: "it is a folder, not a file")
        }
        return info
    }

    /// Opens the regular file `path`, never through a symlink (`FileSafety.open`); nil when it does
    /// not exist and `missingIsNil` is set.
    static func openFile(_ path: String, flags: Int32, mode: mode_t = 0o666, missingIsNil: Bool = false) throws -> Int32? {
        try FileSafety.open(path, flags: flags, mode: mode, missingIsNil: missingIsNil)
    }

    static func status(_ fd: Int32, path: String) throws -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("inspect", path) }
        return info
    }

    /// Modification time in nanoseconds since 1970.
    static func modificationNanoseconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The permission bits of the file at `path` (a symlink's own), or nil when it cannot be inspected.
    static func permissions(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    static func isDirectory(_ info: stat) -> Bool {
        (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads the first `size` bytes of `fd` (its size when it was opened), or fewer when it ends
    /// sooner: never more, so a file that keeps growing (or a device that never ends, were one
    /// opened) cannot hold a run or fill its memory. Bytes appended since are a changed file, which
    /// the fingerprint check before any replace finds.
    static func readAll(_ fd: Int32, size: Int, path: String) throws -> [UInt8] {
        let size = max(size, 0)
        // Not zero-filled first: `read` writes every byte that is kept.
        var buffer = [UInt8](unsafeUninitializedCapacity: size) { _, initialized in initialized = size }
        var count = 0
        // A big file from its start is read in parts side by side: the copy and the page faults of a
        // fresh buffer are most of reading it.
        if size > 0, lseek(fd, 0, SEEK_CUR) == 0 {
            count = readInParts(fd, into: &buffer, size: size)
            if count > 0, lseek(fd, off_t(count), SEEK_SET) != off_t(count) { count = 0 }
        }
        while count < size {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fd, base + count, raw.count - count)
            }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            count += got
        }
        buffer.removeSubrange(count...)
        return buffer
    }

    /// The first `size` bytes of the file read in parts side by side (`RowParts.byteRanges`) with
    /// `pread`, which leaves the file's offset alone: `size` when every part was read whole, else 0
    /// (one part or a short or failed read: the caller reads the file in one pass from its start).
    private static func readInParts(_ fd: Int32, into buffer: inout [UInt8], size: Int) -> Int {
        let parts = RowParts.byteRanges(from: 0, to: size) { $0 }
        guard parts.count > 1, buffer.count >= size else { return 0 }
        return buffer.withUnsafeMutableBytes { raw -> Int in
            // The address as a number, to hand to the parts: each writes only its own bytes of the
            // buffer, which outlives them (they all end before `run` returns).
            guard let address = raw.baseAddress.map({ UInt(bitPattern: $0) }) else { return 0 }
            let read = RowParts.run(parts.count) { k -> Int in
                guard let base = UnsafeMutableRawPointer(bitPattern: address) else { return -1 }
                let part = parts[k]
                var done = 0
                while done < part.count {
                    let got = pread(fd, base + part.lowerBound + done, part.count - done, off_t(part.lowerBound + done))
                    if got < 0 && errno == EINTR { continue }
                    if got <= 0 { break }
                    done += got
                }
                return done
            }
            return zip(read, parts).allSatisfy { $0 == $1.count } ? size : 0
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let wrote = write(fd, base, left)
            if wrote < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            base += wrote
            left -= wrote
        }
    }

    static func sync(_ fd: Int32, path: String) throws {
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw failure("flush to disk", path)
        }
    }

    /// Makes a rename or create inside `directory` durable (a folder as configured: followed).
    static func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", directory) }
        defer { close(fd) }
        try sync(fd, path: directory)
    }

    /// Writes `bytes` to a new file at `path` (which must not exist) and flushes it to disk.
    static func createFile(_ path: String, bytes: [UInt8], mode: mode_t = 0o666) throws {
        guard let fd = try openFile(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode) else { return }
        defer { close(fd) }
        try bytes.withUnsafeBytes { try writeAll(fd, $0, path: path) }
        try sync(fd, path: path)
    }

    static func renameFile(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else { throw failure("rename into", to) }
    }

    /// Removes `path`, ignoring a file that is already gone.
    static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("remove", path) }
    }
}
