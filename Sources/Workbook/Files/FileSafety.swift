#if canImport(Glibc)
    // On Linux the members of `struct stat` come from a header that whichever of CoreFoundation and
    // Dispatch loaded it first owns (it depends on the build), so both are imported.
    import CoreFoundation
    import CDispatch
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one rule for every name sheetsync opens, creates, replaces, rotates or deletes in a ledger's
/// folders, which other people or programs may be able to write (a shared or synced folder): a
/// symbolic link there is never followed, and nothing but a regular file (or, where a folder is
/// meant, a folder) is opened. The folder a config names is followed as configured: only what sits
/// in it is not trusted.
///
/// Every open goes through `open(_:flags:mode:)`: `O_NOFOLLOW` (a symlink in the last place fails
/// with `ELOOP` instead of being followed), `O_NONBLOCK` while opening (a FIFO or a device never
/// blocks the open), then `fstat` of the descriptor itself (no window between the check and the
/// use) must say a regular file, or a folder for `O_DIRECTORY`. Refusals are
/// `AtomicFileError.notAFile`, which names the path and what is there.
public enum FileSafety {
    /// What is at a path, looked at without following a symlink there.
    public enum Kind: Equatable, Sendable {
        case missing
        case file
        case folder
        /// Anything else, in words: `a symbolic link (to /etc/passwd)`, `a FIFO`, `a character device`.
        case other(String)
    }

    /// What is at `path` (its last component not followed).
    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .other(linkDescription(path))
        default: return .other(describe(info))
        }
    }

    /// Refuses anything at `path` but a regular file (nothing there is fine).
    public static func requireFileOrNothing(_ path: String) throws(AtomicFileError) {
        switch kind(of: path) {
        case .missing, .file: return
        case .folder: throw .notAFile(path: path, what: "a folder")
        case .other(let what): throw .notAFile(path: path, what: what)
        }
    }

    /// Refuses anything at `path` but a folder (nothing there is fine).
    public static func requireFolderOrNothing(_ path: String) throws(AtomicFileError) {
        switch kind(of: path) {
        case .missing, .folder: return
        case .file: throw .notAFolder(path: path, what: "a file")
        case .other(let what): throw .notAFolder(path: path, what: what)
        }
    }

    /// `open(2)` of `path` without following a symlink in its last place, retried on `EINTR`; the
    /// descriptor is checked to be a regular file (a folder with `O_DIRECTORY`) before it is returned.
    /// Nil when nothing is there and `missingIsNil` is set.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0o666, missingIsNil: Bool = false) throws(AtomicFileError)
        -> Int32?
    {
        let wantsFolder = flags & O_DIRECTORY != 0
        while true {
            let fd = systemOpen(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
            if fd < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == ENOENT && missingIsNil { return nil }
                // ELOOP: a symlink in the last place. ENXIO: a FIFO without a reader, or a device, opened to write.
                // ENOTDIR: a file where a folder is wanted.
                if code == ELOOP || code == ENXIO || (code == ENOTDIR && wantsFolder) {
                    switch kind(of: path) {
                    case .other(let what): throw refusal(path, what, folder: wantsFolder)
                    case .file where wantsFolder: throw .notAFolder(path: path, what: "a file")
                    default: break
                    }
                }
                throw POSIXFile.failure("open", path, code)
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let failure = POSIXFile.failure("inspect", path)
                close(fd)
                throw failure
            }
            let type = info.st_mode & S_IFMT
            guard type == (wantsFolder ? S_IFDIR : S_IFREG) else {
                close(fd)
                // A folder in a file's place is a tab that cannot be read (as a permission is), not a trap.
                if type == S_IFDIR { throw .io(operation: "read", path: path, reason: "it is a folder, not a file") }
                throw refusal(path, type == S_IFREG ? "a file" : describe(info), folder: wantsFolder)
            }
            // Reads and writes block as usual from here (a regular file or a folder never waits anyway).
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return fd
        }
    }

    private static func refusal(_ path: String, _ what: String, folder: Bool) -> AtomicFileError {
        folder ? .notAFolder(path: path, what: what) : .notAFile(path: path, what: what)
    }

    /// The folder at `path`, which must be a real folder (not a symlink) owned by this user: one that
    /// sheetsync made (`.sheetsync-backup`, a private temporary folder). Opened, so that what is done
    /// in it can be done relative to the descriptor, wherever the name is moved meanwhile.
    static func ownFolder(_ path: String) throws(AtomicFileError) -> Int32 {
        guard let fd = try open(path, flags: O_RDONLY | O_DIRECTORY) else { throw POSIXFile.failure("open", path, ENOENT) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == geteuid() else {
            close(fd)
            throw .notAFolder(path: path, what: "a folder of another user")
        }
        return fd
    }

    /// `a symbolic link (to TARGET)`.
    private static func linkDescription(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "a symbolic link" }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "a symbolic link (to \(target))"
    }

    private static func describe(_ info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    private static func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.open(path, flags, mode)
        #elseif canImport(Musl)
            Musl.open(path, flags, mode)
        #else
            Darwin.open(path, flags, mode)
        #endif
    }
}
