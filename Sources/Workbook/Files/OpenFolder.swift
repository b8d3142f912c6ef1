#if canImport(Glibc)
    // `struct stat` comes from whichever of CoreFoundation and Dispatch loaded its header first.
    import CoreFoundation
    import CDispatch
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder sheetsync keeps its own files in (`.sheetsync-backup`), held open: every name in it is
/// listed, created, renamed, linked and removed relative to the descriptor (`openat`, `renameat`,
/// `unlinkat`), so a folder moved away or swapped for a symlink after it was checked is never
/// written through, and nothing outside it is ever deleted.
final class OpenFolder {
    let fd: Int32
    /// For messages.
    let path: String

    /// Takes ownership of `fd`, an open folder (`FileSafety.ownFolder`).
    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// The names in the folder (not `.` and `..`); none when it cannot be listed.
    func entries() -> [String] {
        let copy = dup(fd)
        guard copy >= 0 else { return [] }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether anything (a dangling symlink too) has `name` here.
    func contains(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Removes `name` (a file or a symlink itself, never what it points to); one already gone is fine.
    func remove(_ name: String) throws {
        guard unlinkat(fd, name, 0) == 0 || errno == ENOENT else { throw POSIXFile.failure("remove", path + "/" + name) }
    }

    /// Writes `bytes` to the new file `name` (which must not exist, not even as a symlink) and flushes it.
    func create(_ name: String, bytes: [UInt8], mode: mode_t) throws {
        let file = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard file >= 0 else { throw POSIXFile.failure("create", path + "/" + name) }
        defer { close(file) }
        try bytes.withUnsafeBytes { try POSIXFile.writeAll(file, $0, path: path + "/" + name) }
        try POSIXFile.sync(file, path: path + "/" + name)
    }

    func rename(_ name: String, to newName: String) throws {
        guard renameat(fd, name, fd, newName) == 0 else { throw POSIXFile.failure("rename into", path + "/" + newName) }
    }

    /// Moves the file at `source` (any path) in as `name`; 0, or the errno of the failure.
    func moveIn(_ source: String, as name: String) -> Int32 {
        renameat(AT_FDCWD, source, fd, name) == 0 ? 0 : errno
    }

    /// Links the file at `source` (not following a symlink there) in as `name`; 0, or the errno.
    func linkIn(_ source: String, as name: String) -> Int32 {
        linkat(AT_FDCWD, source, fd, name, 0) == 0 ? 0 : errno
    }

    /// Makes what was done in the folder durable.
    func sync() throws { try POSIXFile.sync(fd, path: path) }
}
