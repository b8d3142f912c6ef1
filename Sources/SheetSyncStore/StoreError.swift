import GRDB
import SheetSyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the store could not be opened, read or written.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or set up as a store.
    case cannotOpen(path: String, reason: String)
    /// The file was migrated by a newer sheetsync than this one.
    case newerStore(path: String, unknownMigrations: [String])
    /// A record's field text does not fit the field's SQL type.
    case invalidValue(tab: Tab, key: String, field: String, value: String, expected: String)
    /// A record has no key and the tab cannot make one (Categories are keyed by name).
    case missingKey(tab: Tab, field: String)
    /// SQLite refused a row (a CHECK, NOT NULL or UNIQUE constraint, or another failure).
    case rowRejected(tab: Tab, key: String, reason: String)
    /// A bookkeeping table holds something this build cannot read.
    case unreadableBookkeeping(table: String, key: String, reason: String)
    /// SQLite failed for a reason outside the data: busy, a full disk, damage, no permission, an
    /// I/O error. `trouble` says which (decided on SQLite's result code, never its text), so the
    /// caller picks an exit code; `message` is SQLite's own.
    case failed(path: String, operation: String, trouble: StoreTrouble, message: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open the store at '\(path)': \(reason)"
        case .newerStore(let path, let unknown):
            let list = unknown.map { "'\($0)'" }.joined(separator: ", ")
            return "the store at '\(path)' was written by a newer sheetsync (unknown migrations \(list));"
                + " upgrade sheetsync to use it"
        case .invalidValue(let tab, let key, let field, let value, let expected):
            return "invalid \(expected) '\(value)' in field '\(field)' of \(tab.rawValue) row '\(key)'"
        case .missingKey(let tab, let field):
            return "\(tab.rawValue) row has an empty key field '\(field)'"
        case .rowRejected(let tab, let key, let reason):
            return "the store refused \(tab.rawValue) row '\(key)': \(reason)"
        case .unreadableBookkeeping(let table, let key, let reason):
            return "unreadable entry '\(key)' in \(table): \(reason)"
        case .failed(let path, let operation, _, let message):
            return "cannot \(operation) the store '\(path)': \(message)"
        }
    }

    /// The SQLite failure behind `error` as a `.failed` naming `path` and `operation`, or nil when
    /// `error` is not one of the troubles a user can act on (a refused row is data, not trouble).
    static func failure(_ error: DatabaseError, path: String, operation: String) -> StoreError? {
        guard var trouble = StoreTrouble(error) else { return nil }
        // A full disk often surfaces as a plain I/O error (a WAL or shm write that failed): the
        // folder's free space tells the two apart.
        if trouble == .io, StoreTrouble.diskIsFull(at: path) { trouble = .full }
        return .failed(path: path, operation: operation, trouble: trouble, message: error.message ?? "\(error.resultCode)")
    }
}

/// What kind of trouble an error from SQLite is, for choosing an exit code without matching text.
public enum StoreTrouble: Sendable, Equatable {
    /// Another SQLite client holds the database (SQLITE_BUSY, SQLITE_LOCKED): a retry helps.
    case busy
    /// The disk is full (SQLITE_FULL): a retry after freeing space helps.
    case full
    /// The file is not a database or is damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
    case corrupt
    /// The file or its folder cannot be written (SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN).
    case notWritable
    /// A disk read or write failed (SQLITE_IOERR).
    case io

    /// The trouble behind `error`, when it came from SQLite (directly or as `StoreError.failed`).
    public init?(_ error: any Error) {
        if case .failed(_, _, let trouble, _)? = error as? StoreError {
            self = trouble
            return
        }
        guard let error = error as? DatabaseError else { return nil }
        self.init(error.resultCode)
    }

    /// The trouble a primary result code means, or nil for codes about the data (constraints…).
    init?(_ code: ResultCode) {
        switch code.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_FULL: self = .full
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .corrupt
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: self = .notWritable
        case .SQLITE_IOERR: self = .io
        default: return nil
        }
    }

    /// Whether the file system holding `path` (a file or the folder it would be in) has no
    /// block left for an ordinary user.
    static func diskIsFull(at path: String) -> Bool {
        var info = statvfs()
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard statvfs(folder.isEmpty ? "/" : folder, &info) == 0 else { return false }
        return info.f_bavail == 0
    }
}
