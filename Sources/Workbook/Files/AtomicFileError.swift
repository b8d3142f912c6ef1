/// Why a workbook file could not be read or replaced.
public enum AtomicFileError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The file is no longer as it was read: someone saved it meanwhile. Their version is the live
    /// file (any version swapped out in the last instant is in the backup folder); the caller exits
    /// 75 (temporary failure) and the next run merges the new content.
    case changedSinceRead(path: String)
    /// The file (or the folder that must hold its temporary file) is read-only: it is not replaced.
    case readOnly(path: String, isFolder: Bool)
    /// The file system is full (ENOSPC, EDQUOT); nothing was replaced.
    case noSpace(operation: String, path: String)
    /// The system refused access (EACCES, EPERM).
    case permissionDenied(operation: String, path: String, reason: String)
    /// The file system holding the file is mounted read-only (EROFS): no permission change helps.
    case readOnlyFileSystem(operation: String, path: String)
    /// A system call failed; `operation` says what was being done, `reason` is the system's text.
    case io(operation: String, path: String, reason: String)
    /// Something other than a regular file is where sheetsync reads or writes one: a symbolic link
    /// (never followed), a folder, a FIFO, a device (`what` says which). Nothing was read or written.
    case notAFile(path: String, what: String)
    /// Something other than a folder of this user is where sheetsync keeps one of its own (the backup
    /// folder): a symbolic link, a file, another user's folder. Nothing was written into it.
    case notAFolder(path: String, what: String)
    /// Something other than a regular file (`what`: a folder, a symbolic link…) was put in the file's
    /// place in the instant before the exchange: it was put back as it was and nothing was replaced.
    case replacedMeanwhile(path: String, what: String)

    public var description: String {
        switch self {
        case .changedSinceRead(let path):
            return "'\(path)' changed since it was read (saved by someone else meanwhile); "
                + "their version was kept and nothing of it was overwritten, run again to merge"
        case .readOnly(let path, let isFolder):
            if isFolder {
                return "folder '\(path)' is read-only, so its workbook file cannot be replaced; "
                    + "make it writable (chmod u+w '\(path)') or point the config at a writable copy"
            }
            return "'\(path)' is read-only; make it writable (chmod u+w '\(path)') or point the config at a writable copy"
        case .noSpace(let operation, let path):
            return "cannot \(operation) '\(path)': no space left on device; free some space and run again"
        case .permissionDenied(let operation, let path, let reason):
            return "cannot \(operation) '\(path)': \(reason); check its owner and permissions"
        case .readOnlyFileSystem(let operation, let path):
            return "cannot \(operation) '\(path)': the file system holding it is mounted read-only; remount it "
                + "read-write, or point the config at a copy on a writable disk"
        case .io(let operation, let path, let reason):
            return "cannot \(operation) '\(path)': \(reason)"
        case .notAFile(let path, let what):
            return "'\(path)' is \(what), not a regular file; sheetsync never follows a link or reads a device or FIFO "
                + "in a ledger's folder: put the file itself there (or point the config at the file)"
        case .notAFolder(let path, let what):
            return "'\(path)' is \(what), not a folder sheetsync made; it never writes through a link or into "
                + "another user's folder: remove it (sheetsync makes its own)"
        case .replacedMeanwhile(let path, let what):
            return "'\(path)' became \(what) while sheetsync was replacing it (put there in the instant before the exchange); "
                + "it was put back as it was and nothing was replaced: put the file itself there, sheetsync replaces only a "
                + "regular file"
        }
    }

    /// The failure alone, without the path, for messages that name the file themselves.
    public var reason: String {
        switch self {
        case .changedSinceRead: return "changed since it was read"
        case .readOnly(_, let isFolder): return isFolder ? "its folder is read-only" : "it is read-only"
        case .noSpace(let operation, _): return "\(operation): no space left on device"
        case .permissionDenied(let operation, _, let reason): return "\(operation): \(reason)"
        case .readOnlyFileSystem(let operation, _): return "\(operation): read-only file system"
        case .io(let operation, _, let reason): return "\(operation): \(reason)"
        case .notAFile(_, let what): return "it is \(what), not a regular file"
        case .notAFolder(_, let what): return "it is \(what), not a folder sheetsync made"
        case .replacedMeanwhile(_, let what): return "it became \(what) while being replaced; put back, nothing replaced"
        }
    }

    var isNoSpace: Bool {
        if case .noSpace = self { return true }
        return false
    }

    /// Whether retrying later can succeed (a save to merge, a full disk) rather than needing the
    /// user to change something first (permissions, a read-only file).
    public var isTemporary: Bool {
        switch self {
        case .changedSinceRead, .noSpace, .io: return true
        case .readOnly, .permissionDenied, .readOnlyFileSystem, .notAFile, .notAFolder, .replacedMeanwhile: return false
        }
    }
}
