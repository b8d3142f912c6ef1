import Foundation
import GRDB
import SheetSyncCore

/// Ordinary local writes inside one transaction (`LedgerStore.write`), with the same trigger
/// semantics as any SQLite client: `lastModifiedAt` bumps on a changed row whose writer left it
/// alone, deletes leave tombstones, and the change counter moves.
public struct LocalWriter {
    let db: Database

    /// Inserts or overwrites the row with `record`'s key and returns it as stored.
    ///
    /// An empty UUID key gets a new lowercase UUID. Empty `createdAt`/`lastModifiedAt` mean
    /// "now" for a new row and "as before" for an existing one (so the trigger stamps the edit).
    @discardableResult
    public func upsert(_ record: LedgerRow, in tab: Tab) throws -> LedgerRow {
        let table = DataTable(tab)
        let keyField = table.schema.keyField
        var record = record
        if record[keyField].isEmpty {
            guard table.schema.field(keyField)?.kind == .uuid else {
                throw StoreError.missingKey(tab: tab, field: keyField.rawValue)
            }
            record[keyField] = UUID().uuidString.lowercased()
        }
        record[keyField] = table.canonicalKey(record[keyField])
        if let existing = try table.fetch(key: record[keyField], db) {
            for field in DataTable.timestampFields where record[field].isEmpty {
                record[field] = existing[field]
            }
            try table.update(record, db)
        } else {
            try table.insert(record, db)
        }
        guard let stored = try table.fetch(key: record[keyField], db) else {
            // Only a trigger someone added by hand could drop the row.
            throw StoreError.rowRejected(tab: tab, key: record[keyField], reason: "the row was not stored")
        }
        return stored
    }

    /// Deletes the row with `key`, leaving a tombstone; false when there was none.
    @discardableResult
    public func delete(key: String, in tab: Tab) throws -> Bool {
        try DataTable(tab).delete(key: key, db)
    }

    public func record(key: String, in tab: Tab) throws -> LedgerRow? {
        try DataTable(tab).fetch(key: key, db)
    }

    /// Every row of a tab, in insertion order.
    public func records(in tab: Tab) throws -> [LedgerRow] {
        try DataTable(tab).fetchAll(db)
    }
}
