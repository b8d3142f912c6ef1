import Foundation
import GRDB
import SheetSyncCore
import SheetValues

// One GRDB record per `sync_*` table. Columns holding JSON are written and read here, with
// sorted keys so a person diffing two stores sees stable text.
//
// What every run reads is read through statements of fixed SQL from the connection's statement
// cache (`Database.cachedStatement`): compiled once per connection, not once per call as a
// query-interface request is (each compile runs GRDB's authorizer for every column it touches).

struct StateEntry: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sync_state"
    var key: String
    var value: String

    /// Every entry, by key.
    static func all(_ db: Database) throws -> [String: String] {
        let entries = try fetchAll(db.cachedStatement(sql: "SELECT key, value FROM sync_state"))
        return Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    static func value(_ db: Database, key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_state WHERE key = ?"), arguments: [key])
    }
}

struct ChangeCounter: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "sync_change_counter"
    var id: Int64
    var value: Int64

    /// The counter's value (0 in a store without its row).
    static func value(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_change_counter WHERE id = 1")) ?? 0
    }
}

struct TombstoneEntry: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sync_tombstones"
    var tab: Tab
    var key: String
    var deletedAt: String

    static let selectAllSQL = "SELECT tab, key, deletedAt FROM sync_tombstones"

    enum Columns {
        static let tab = Column(CodingKeys.tab)
        static let key = Column(CodingKeys.key)
    }
}

struct BaseEntry: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sync_base"
    var tab: Tab
    var key: String
    /// A JSON object of field name to text.
    var fields: String

    enum Columns {
        static let tab = Column(CodingKeys.tab)
        static let key = Column(CodingKeys.key)
    }

    /// Inserts or replaces an entry (what `upsert` does); see `save(with:rawHash:)`. A new base takes
    /// the hash of the sheet row that reads as it, or 0 (none known): an old hash never outlives the
    /// base it was recorded for.
    static let saveSQL = """
        INSERT INTO sync_base (tab, key, fields, raw_hash) VALUES (?, ?, ?, ?)
        ON CONFLICT (tab, key) DO UPDATE SET fields = excluded.fields, raw_hash = excluded.raw_hash
        """

    /// Inserts or replaces the entry of `record` through `statement`, a `RawStatement` of `saveSQL`,
    /// its JSON written into `buffer` (reused from entry to entry: no `String` per entry).
    static func save(
        tab: Tab, key: String, record: LedgerRow, rawHash: Int64, with statement: RawStatement, buffer: inout [UInt8]
    ) throws {
        buffer.removeAll(keepingCapacity: true)
        if !RecordJSON.append(record, tab: tab, to: &buffer) {
            buffer.append(contentsOf: try RecordJSON.encode(record.fields, tab: tab).utf8)
        }
        try save(tab: tab, key: key, fields: buffer, rawHash: rawHash, with: statement)
    }

    /// Inserts or replaces an entry whose JSON text is `fields`, through a `RawStatement` of `saveSQL`.
    static func save(tab: Tab, key: String, fields: [UInt8], rawHash: Int64, with statement: RawStatement) throws {
        var key = key
        try key.withUTF8 { try save(tab: tab, key: $0, fields: fields, rawHash: rawHash, with: statement) }
    }

    /// `save` of a key given as its UTF-8 bytes (a load's: no `String` per row).
    static func save(
        tab: Tab, key: UnsafeBufferPointer<UInt8>, fields: [UInt8], rawHash: Int64, with statement: RawStatement
    ) throws {
        try statement.bindText(tab.rawValue, at: 1)
        try statement.bindText(key, at: 2)
        try fields.withUnsafeBufferPointer { try statement.bindText($0, at: 3) }
        try statement.bindInteger(rawHash, at: 4)
        try statement.step()
    }

    func record() throws -> LedgerRow {
        try Self.record(fields, tab: tab, key: key)
    }

    /// The record of an entry's `fields` text, read without building the entry.
    static func record(_ fields: String, tab: Tab, key: String) throws -> LedgerRow {
        guard let record = RecordJSON.decode(fields, tab: tab) else {
            throw StoreError.unreadableBookkeeping(
                table: databaseTableName, key: "\(tab.rawValue)/\(key)",
                reason: "fields are not a JSON object of texts")
        }
        return record
    }
}

struct ConflictRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sync_conflicts"
    var id: Int64?
    var tab: Tab
    var key: String
    var field: String
    var losingValue: String
    var winningValue: String
    var losingModifiedAt: String
    var winningModifiedAt: String
    var resolvedAt: String

    enum Columns {
        static let id = Column(CodingKeys.id)
    }

    init(_ c: Conflict) {
        (tab, key, field, losingValue, winningValue) = (c.tab, c.key, c.field, c.losingValue, c.winningValue)
        (losingModifiedAt, winningModifiedAt, resolvedAt) = (c.losingModifiedAt, c.winningModifiedAt, c.resolvedAt)
    }

    var conflict: Conflict {
        Conflict(
            tab: tab, key: key, field: field, losingValue: losingValue, winningValue: winningValue,
            losingModifiedAt: losingModifiedAt, winningModifiedAt: winningModifiedAt, resolvedAt: resolvedAt)
    }
}

struct RejectedRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sync_rejected"
    var id: Int64?
    var tab: Tab
    var row: Int
    var key: String?
    var message: String
    var hint: String?
    /// A JSON array of the row's cell texts.
    var rawCells: String
    var firstSeenAt: String
    /// The rejection's `IssueCode`; NULL in rows logged before codes were.
    var code: String?

    enum Columns {
        static let id = Column(CodingKeys.id)
    }

    init(_ r: Rejection) throws {
        (tab, row, message, firstSeenAt) = (r.tab, r.row, r.message, r.firstSeenAt)
        code = r.code.rawValue
        key = r.id.isEmpty ? nil : r.id
        hint = r.hint.isEmpty ? nil : r.hint
        rawCells = try RecordJSON.encode(cells: r.rawCells)
    }

    func rejection() throws -> Rejection {
        guard let cells = RecordJSON.decodeCells(rawCells) else {
            throw StoreError.unreadableBookkeeping(
                table: Self.databaseTableName, key: "\(id ?? 0)",
                reason: "rawCells is not a JSON array of texts")
        }
        return Rejection(
            tab: tab, row: row, id: key ?? "", message: message, hint: hint ?? "", rawCells: cells,
            firstSeenAt: firstSeenAt, code: code.flatMap(IssueCode.init(rawValue:)) ?? .rejectedRow)
    }
}

/// The format of the store's JSON columns since its first version, kept for the texts `RecordJSON`
/// does not write itself (see there).
enum JSONText {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
