/// Why a workbook file could not be read or replaced.
public enum AtomicFileError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The file is no longer as it was read: someone saved it meanwhile. Nothing was written;
    /// the caller exits 75 (temporary failure) and the next run merges the new content.
    case changedSinceRead(path: String)
    /// A system call failed; `operation` says what was being done, `reason` is the system's text.
    case io(operation: String, path: String, reason: String)

    public var description: String {
        switch self {
        case .changedSinceRead(let path):
            return "'\(path)' changed since it was read (saved by someone else meanwhile); "
                + "nothing was written, run again to merge"
        case .io(let operation, let path, let reason):
            return "cannot \(operation) '\(path)': \(reason)"
        }
    }

    /// The failure alone, without the path, for messages that name the file themselves.
    public var reason: String {
        switch self {
        case .changedSinceRead: return "changed since it was read"
        case .io(let operation, _, let reason): return "\(operation): \(reason)"
        }
    }
}
