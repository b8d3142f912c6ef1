import GRDB
import SheetSyncCore
import SheetValues

/// What `status` counts as pending, without loading the store.
extension LedgerStore {
    /// Per tab, the local rows changed or added since the last sync (a row unlike its base entry,
    /// or without one) plus the base entries whose row is gone: what comparing a full `snapshot()`
    /// row by row gives, in one read transaction.
    ///
    /// SQLite renders each row as the JSON text its base entry holds when the two agree
    /// (`RecordJSON.encode`'s bytes), so an unchanged row is settled by one string comparison in
    /// SQL. Only rows whose text differs, and base entries without a row, become records here and
    /// are compared as the engine compares them: a rendering SQLite writes differently (a REAL, an
    /// escape) costs time, never a wrong count.
    ///
    /// Transactions and Receipts, the tabs a sync leaves unchanged rows of unread (`ChangeScope`),
    /// are counted by the rule that lets it: a key the store has not marked changed since the last
    /// sync (`sync_dirty`, kept by the triggers) has its row equal to its base. Only marked keys'
    /// rows and base entries are compared, so `status` costs what changed, not the ledger's size.
    public func pendingLocalChanges() throws -> [Tab: Int] {
        try writer.read { db in
            var pending: [Tab: Int] = [:]
            for tab in Tab.allCases { pending[tab] = try DataTable(tab).pendingCount(db) }
            return pending
        }
    }
}

extension DataTable {
    /// See `LedgerStore.pendingLocalChanges`.
    func pendingCount(_ db: Database) throws -> Int {
        let fieldCount = schema.fields.count
        var changed = 0, withoutBase = 0
        // Rows with no base entry under their exact key, and base entries with no row under theirs,
        // are matched here the way the engine matches keys (Swift string equality).
        var unmatchedRows: [String: LedgerRow] = [:]
        func scan(_ sql: String) throws {
            changed = 0
            withoutBase = 0
            unmatchedRows = [:]
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [tab.rawValue])
            while let row = try rows.next() {
                let stored = record(from: row)
                let base: String? = row[fieldCount]
                guard let text = base else {
                    withoutBase += 1
                    let key = stored[schema.keyField]
                    if unmatchedRows[key] == nil { unmatchedRows[key] = stored }
                    continue
                }
                if try BaseEntry.record(text, tab: tab, key: stored[schema.keyField]) != stored { changed += 1 }
            }
        }
        let sql = pendingSQL
        do {
            try scan(sql.differing)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            // `json_object` refuses a BLOB, which sheetsync never writes but another client may:
            // such a store has every row compared as a record.
            try scan(sql.everyRow)
        }
        var unmatchedBase: [String: LedgerRow] = [:]
        var orphansPossible = true
        if !sql.markedOnly {
            let counts = try Row.fetchOne(db.cachedStatement(sql: sql.counts), arguments: [tab.rawValue])
            let rowCount: Int = counts?[0] ?? 0, baseCount: Int = counts?[1] ?? 0
            // Each row with a base entry under its key has its own: when they account for every base
            // entry, none lacks a row and the 100k lookups of `orphanedBase` are not needed.
            orphansPossible = baseCount != rowCount - withoutBase
        }
        if orphansPossible {
            let entries = try Row.fetchCursor(db.cachedStatement(sql: sql.orphanedBase), arguments: [tab.rawValue])
            while let entry = try entries.next() {
                let key: String = entry[0]
                unmatchedBase[key] = try BaseEntry.record(entry[1], tab: tab, key: key)
            }
        }
        changed += unmatchedRows.filter { unmatchedBase[$0.key] != $0.value }.count
        let deleted = unmatchedBase.keys.filter { unmatchedRows[$0] == nil }.count
        return changed + deleted
    }

    private var pendingSQL: PendingSQL { PendingSQL.byTab[tab] }
}

/// The queries of `DataTable.pendingCount` for one tab, built once.
struct PendingSQL: Sendable {
    /// Whether only the keys marked in `sync_dirty` are compared (see `pendingLocalChanges`).
    let markedOnly: Bool
    /// The tabs counted through their marked keys: those a sync narrows by the same rule.
    static let countedByMarks: Set<Tab> = [.transactions, .receipts]
    /// Every row whose base entry (the last column, NULL when there is none under the row's key)
    /// is not byte-equal to the row rendered as `RecordJSON.encode` writes it; columns as `selectAll`.
    let differing: String
    /// `differing` with every row, for a store `differing` cannot render (a BLOB in a text column).
    let everyRow: String
    /// Key and fields of every base entry of the tab with no row under its key.
    let orphanedBase: String
    /// The table's rows and the tab's base entries, counted.
    let counts: String

    static let byTab = PerTab { PendingSQL($0) }

    private init(_ tab: Tab) {
        let schema = tab.schema
        let table = schema.tableName.quotedDatabaseIdentifier
        let key = schema.keyField.rawValue.quotedDatabaseIdentifier
        let columns = schema.fieldNames.map { "t.\($0.quotedDatabaseIdentifier)" }
        // Without the encoder's key order there is no byte form to match: every row is compared
        // as a record (slow, still right).
        let rendered: String
        if let order = RecordJSON.keyOrder(tab) {
            let members = order.compactMap { name in
                schema.field(named: name).map { "\(name.sqlLiteral), \(Self.text(of: $0))" }
            }
            rendered = "json_object(\(members.joined(separator: ", ")))"
        } else {
            rendered = "NULL"
        }
        markedOnly = Self.countedByMarks.contains(tab)
        // `?1` is the tab's name throughout.
        let marked = markedOnly ? "JOIN \(ChangeTracking.table) AS d ON d.tab = ?1 AND d.key = t.\(key)" : ""
        func select(_ rendered: String) -> String {
            """
            SELECT \(columns.joined(separator: ", ")), b.fields FROM \(table) AS t \(marked)
            LEFT JOIN sync_base AS b ON b.tab = ?1 AND b.key = t.\(key)
            WHERE b.fields IS NULL OR b.fields IS NOT \(rendered)
            ORDER BY t.rowid
            """
        }
        differing = select(rendered)
        everyRow = select("NULL")
        counts = "SELECT (SELECT count(*) FROM \(table)), (SELECT count(*) FROM sync_base WHERE tab = ?1)"
        let markedBase = markedOnly ? "JOIN \(ChangeTracking.table) AS d ON d.tab = ?1 AND d.key = b.key" : ""
        orphanedBase = """
            SELECT b.key, b.fields FROM sync_base AS b \(markedBase)
            WHERE b.tab = ?1 AND NOT EXISTS (SELECT 1 FROM \(table) AS t WHERE t.\(key) = b.key)
            """
    }

    /// SQL for the text `DataTable.text(of:boolean:)` gives a column's value. A TEXT column holds
    /// texts and NULLs (SQLite turns numbers written into it into text), or a BLOB, which makes
    /// `json_object` fail (see `pendingCount`). An INTEGER column may hold anything: a REAL or a
    /// BLOB, whose Swift text SQLite does not write the same way, renders as NULL, so never matches.
    private static func text(of field: FieldSpec) -> String {
        let column = "t.\(field.name.quotedDatabaseIdentifier)"
        guard field.isIntegerColumn else { return "coalesce(\(column), '')" }
        let integer =
            field.kind == .boolean
            ? "CASE WHEN \(column) <> 0 THEN \(FieldRule.trueText.sqlLiteral) ELSE \(FieldRule.falseText.sqlLiteral) END"
            : "CAST(\(column) AS TEXT)"
        return "CASE typeof(\(column)) WHEN 'integer' THEN \(integer) WHEN 'null' THEN '' WHEN 'text' THEN \(column) END"
    }
}
