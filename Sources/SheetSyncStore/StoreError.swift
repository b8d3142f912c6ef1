import GRDB
import SheetSyncCore

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
        }
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

    /// The trouble behind `error`, when it came from SQLite.
    public init?(_ error: any Error) {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_FULL: self = .full
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .corrupt
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: self = .notWritable
        case .SQLITE_IOERR: self = .io
        default: return nil
        }
    }
}
