import Foundation
import GRDB
import GRDBSQLite

/// One statement prepared once and run many times through SQLite's C API, for the engine's
/// per-row writes in a commit: GRDB's `StatementArguments` (an existential per value, checked
/// and converted per run) cost more than SQLite's insert itself at 100k rows.
///
/// Lives inside one `writer.write` closure (it borrows that closure's connection) and is
/// finalized when released; its failures are the `DatabaseError`s GRDB would have thrown.
/// `init(cached:_:)` borrows the statement of GRDB's cache instead (compiled once per connection,
/// not once per run); it is left reset after every run, as GRDB expects its cached statements.
final class RawStatement {
    let sql: String
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The cached statement whose handle this borrows, and its connection (nil: the handle is this
    /// statement's own).
    private let cached: (statement: Statement, db: Database)?

    init(_ sql: String, _ db: Database) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw Self.error(connection, sql)
        }
        self.sql = sql
        self.handle = prepared
        self.connection = connection
        self.cached = nil
    }

    /// The statement of `sql` from the connection's statement cache (GRDB recompiles it after a
    /// schema change made through the connection; SQLite, after one made by another).
    init(cached sql: String, _ db: Database) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        let statement = try db.cachedStatement(sql: sql)
        // GRDB leaves its statements as their last run left them (it resets one before it runs it):
        // bound or stepped, they would refuse new values (SQLITE_MISUSE).
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
        self.sql = sql
        self.handle = statement.sqliteStatement
        self.connection = connection
        self.cached = (statement, db)
    }

    deinit { if cached == nil { sqlite3_finalize(handle) } }

    /// Binds `values` to the placeholders in order and runs the statement to completion.
    func run(_ values: [DatabaseValue]) throws {
        for (offset, value) in values.enumerated() {
            let code = bind(value, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw Self.error(connection, sql) }
        }
        try step()
    }

    // The binders below set one placeholder (1-based) each, for a caller that binds every
    // placeholder of a row in place (no `[DatabaseValue]` per row) and then calls `step()`.

    func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    func bindInteger(_ number: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, number))
    }

    /// Binds `text` as TEXT ("" stays an empty text, never NULL).
    func bindText(_ text: String, at index: Int32) throws {
        var text = text
        try check(text.withUTF8 { rawBindText($0, at: index) })
    }

    /// Binds UTF-8 `bytes` as TEXT; SQLite copies them, so they need only live for the call.
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        try check(rawBindText(bytes, at: index))
    }

    private func rawBindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        // An empty buffer may have no address; "" must stay an empty text, not NULL.
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
        return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw Self.error(connection, sql) }
    }

    /// Runs the statement with the values bound so far to completion, then clears them.
    func step() throws {
        let code = sqlite3_step(handle)
        // The message belongs to this step: read it before `reset` or another statement runs.
        let failure = code == SQLITE_DONE || code == SQLITE_ROW ? nil : Self.error(connection, sql)
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        if let failure { throw failed(failure) }
    }

    /// `error`, after a failed run of a cached statement took it out of the cache (as GRDB does
    /// with its own statements that fail: it is compiled anew when next asked for).
    private func failed(_ error: DatabaseError) -> DatabaseError {
        cached?.db.clearSchemaCache()
        return error
    }

    /// Runs the query with the values bound so far, calling `row` at each result row with the
    /// statement handle: read its columns there (`sqlite3_column_*`), their memory lasts only until
    /// the next step. Then resets and clears the bindings.
    func forEachRow(_ row: (OpaquePointer) throws -> Void) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failed(Self.error(connection, sql)) }
            try row(handle)
        }
    }

    private func bind(_ value: DatabaseValue, at index: Int32) -> Int32 {
        switch value.storage {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .int64(let number):
            return sqlite3_bind_int64(handle, index, number)
        case .double(let number):
            return sqlite3_bind_double(handle, index, number)
        case .string(var text):
            // SQLite copies the bytes (SQLITE_TRANSIENT), so the buffer need only live for the call.
            return text.withUTF8 { rawBindText($0, at: index) }
        case .blob(let data):
            return data.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
                return sqlite3_bind_blob(handle, index, start, Int32(bytes.count), Self.transient)
            }
        }
    }

    /// What `SQLITE_TRANSIENT` is in C: SQLite makes its own copy of the value.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    private static func error(_ connection: OpaquePointer, _ sql: String) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
