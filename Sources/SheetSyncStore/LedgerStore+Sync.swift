import GRDB
import GRDBSQLite
import SheetSyncCore

/// The sync engine's side of the store: one consistent read, one all-or-nothing write.
extension LedgerStore {
    /// Rows, base, tombstones, change counter and state, in one read transaction.
    public func snapshot() throws -> StoreSnapshot {
        try writer.read { db in try Self.read(db, scope: nil).0 }
    }

    /// A snapshot of only what a sync needs, in one read transaction: `scope` sees what the store
    /// knows cheaply (base keys with their row hashes, dirty keys, tombstones) and names the rows
    /// to leave out; a narrowed tab's rows and base are loaded only for its `keysToLoad`.
    ///
    /// `ahead`: the base hashes read earlier (`readBaseHashes()`, while the workbook was read), used
    /// when nothing was written to the store since; otherwise they are read again here.
    public func snapshot(scope: (ChangeIndex) -> ChangeScope, ahead: BaseHashesRead? = nil) throws -> (StoreSnapshot, ChangeScope) {
        try writer.read { db in try withoutActuallyEscaping(scope) { try Self.read(db, scope: $0, ahead: ahead) } }
    }

    /// Every base key with its row hash, read ahead of `snapshot(scope:ahead:)` on another thread.
    public struct BaseHashesRead: Sendable {
        let hashes: [Tab: BaseHashes]
        let stamp: Stamp
    }

    /// What changes whenever anyone writes to the store: SQLite's count of other connections'
    /// commits (`PRAGMA data_version`) and of this connection's changes.
    struct Stamp: Equatable, Sendable {
        var dataVersion: Int64
        var totalChanges: Int64

        init(_ db: Database) throws {
            dataVersion = try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? -1
            totalChanges = Int64(sqlite3_total_changes64(db.sqliteConnection))
        }
    }

    public func readBaseHashes() throws -> BaseHashesRead {
        try writer.read { db in BaseHashesRead(hashes: try Self.baseHashes(db), stamp: try Stamp(db)) }
    }

    /// The snapshot read inside one transaction; without `scope` every row is loaded and the change
    /// index (every base key's hash, the dirty keys) is not read at all.
    private static func read(
        _ db: Database, scope: ((ChangeIndex) -> ChangeScope)?, ahead: BaseHashesRead? = nil
    ) throws -> (StoreSnapshot, ChangeScope) {
        var tombstones: [Tab: [String: String]] = Dictionary(uniqueKeysWithValues: Tab.allCases.map { ($0, [:]) })
        for entry in try TombstoneEntry.fetchAll(db.cachedStatement(sql: TombstoneEntry.selectAllSQL)) {
            tombstones[entry.tab, default: [:]][entry.key] = entry.deletedAt
        }
        let state = try StateEntry.all(db)
        var chosen = ChangeScope()
        if let scope {
            chosen = scope(
                ChangeIndex(
                    baseHashes: try ahead.flatMap { try $0.stamp == Stamp(db) ? $0.hashes : nil } ?? Self.baseHashes(db),
                    dirty: try Self.dirtyKeys(db),
                    tombstones: tombstones.mapValues { Set($0.keys) },
                    renamesPending: state.keys.contains { $0.hasPrefix(LedgerState.renamePrefix) }))
        }
        var rows: [Tab: [String: LedgerRow]] = [:]
        var base: [Tab: [String: LedgerRow]] = [:]
        for tab in Tab.allCases {
            let table = DataTable(tab)
            if let narrowed = chosen.narrowed[tab] {
                (rows[tab], base[tab]) = try Self.load(narrowed.keysToLoad, of: table, db)
            } else {
                (rows[tab], base[tab]) = try Self.loadAll(table, db)
            }
        }
        let snapshot = StoreSnapshot(
            rows: rows, base: base, tombstones: tombstones, changeCounter: try Self.changeCounter(db), state: state,
            deleted: try DeletedRows.lastVersions(db))
        return (snapshot, chosen)
    }

    private static func loadAll(_ table: DataTable, _ db: Database) throws -> ([String: LedgerRow], [String: LedgerRow]) {
        let keyField = FieldSlot(table.schema.keyField, of: table.tab)
        let rows = Dictionary(try table.fetchAll(db).map { ($0[keyField], $0) }, uniquingKeysWith: { a, _ in a })
        var base: [String: LedgerRow] = [:]
        base.reserveCapacity(rows.count)
        let entries = try BaseEntry.fetchCursor(
            db.cachedStatement(sql: "SELECT tab, key, fields FROM sync_base WHERE tab = ?"), arguments: [table.tab.rawValue])
        while let entry = try entries.next() {
            let record = try entry.record()
            // A base equal to its row (every row after a sync) shares the row's storage: one
            // copy of 100k records in memory instead of two.
            if let row = rows[entry.key], row == record {
                base[entry.key] = row
            } else {
                base[entry.key] = record
            }
        }
        return (rows, base)
    }

    private static func load(_ keys: Set<String>, of table: DataTable, _ db: Database) throws -> ([String: LedgerRow], [String: LedgerRow])
    {
        var rows: [String: LedgerRow] = [:]
        var base: [String: LedgerRow] = [:]
        let baseStatement = try db.cachedStatement(sql: "SELECT tab, key, fields FROM sync_base WHERE tab = ? AND key = ?")
        for key in keys {
            if let row = try table.fetch(key: key, db) { rows[row[table.schema.keyField]] = row }
            if let entry = try BaseEntry.fetchOne(baseStatement, arguments: [table.tab.rawValue, key]) {
                let record = try entry.record()
                base[key] = rows[key] == record ? rows[key] : record
            }
        }
        return (rows, base)
    }

    /// Every base key with its row hash (0: none), by tab. Read through SQLite's C API straight into
    /// `RowKey`s: a UUID key never becomes a `String` (a million base keys would be ~100 MB of them).
    private static func baseHashes(_ db: Database) throws -> [Tab: BaseHashes] {
        var result: [Tab: BaseHashes] = [:]
        let count = try RawStatement(cached: "SELECT count(*) FROM sync_base WHERE tab = ?", db)
        let entries = try RawStatement(cached: "SELECT key, raw_hash FROM sync_base WHERE tab = ?", db)
        for tab in Tab.allCases {
            var hashes = BaseHashes()
            try count.bindText(tab.rawValue, at: 1)
            try count.forEachRow { hashes.reserveCapacity(Int(sqlite3_column_int64($0, 0))) }
            try entries.bindText(tab.rawValue, at: 1)
            try entries.forEachRow { statement in
                // The text first, then its length: the order SQLite documents.
                let text = sqlite3_column_text(statement, 0)
                let length = Int(sqlite3_column_bytes(statement, 0))
                let key = RowKey(utf8: UnsafeBufferPointer(start: text, count: text == nil ? 0 : length))
                hashes.append(key, hash: sqlite3_column_int64(statement, 1))
            }
            result[tab] = hashes
        }
        return result
    }

    private static func dirtyKeys(_ db: Database) throws -> [Tab: Set<String>] {
        var result: [Tab: Set<String>] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT tab, key FROM \(ChangeTracking.table)"))
        while let row = try rows.next() {
            guard let tab = Tab(rawValue: row[0]) else { continue }
            result[tab, default: []].insert(row[1])
        }
        return result
    }

    /// The sync state, the change counter and whether any tombstone waits, in one read transaction:
    /// all a quiet run needs to see that nothing moved, without reading every row and base entry.
    public func glance() throws -> StoreGlance {
        try writer.read { db in
            let state = try StateEntry.all(db)
            let tombstones = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_tombstones)")) ?? false
            return StoreGlance(state: state, changeCounter: try Self.changeCounter(db), hasTombstones: tombstones)
        }
    }

    /// Applies one sync run in one write transaction, with the triggers' bumps, tombstones and
    /// counting switched off. A row that no longer matches what the engine read is skipped,
    /// together with its base entry and tombstone clear. Any error rolls everything back.
    @discardableResult
    public func commit(_ commit: StoreCommit) throws -> CommitOutcome {
        try naming("commit the sync to") { try commitTransaction(commit) }
    }

    /// The commit's steps, in one write transaction: each tab's rows, then each tab's base and change
    /// marks (less the keys skipped), then the logs and the sync state.
    private func commitTransaction(_ commit: StoreCommit) throws -> CommitOutcome {
        try writer.write { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_applying (id) VALUES (1)").execute()
            var skipped: [Tab: Set<String>] = [:]
            let onlyOwnTriggers = try DataTable.hasOnlyOwnTriggers(db)
            for tab in Tab.allCases {
                let skip = try Self.writeRows(of: tab, commit, onlyOwnTriggers: onlyOwnTriggers, db)
                if !skip.isEmpty { skipped[tab] = skip }
            }
            let baseSave = try RawStatement(cached: BaseEntry.saveSQL, db)
            var json: [UInt8] = []
            for tab in Tab.allCases {
                try Self.writeBase(of: tab, commit, skipping: skipped[tab] ?? [], with: baseSave, buffer: &json, db)
            }
            try Self.writeLogsAndState(commit, db)
            try db.cachedStatement(sql: "DELETE FROM sync_applying").execute()
            let ordered = skipped.mapValues { $0.sorted() }
            return CommitOutcome(skipped: ordered, changeCounter: try Self.changeCounter(db))
        }
    }

    /// A tab's row writes: a plain load, upserts, deletes. Returns the keys skipped because the row
    /// no longer matches what the engine read. The load goes first: it needs the table empty, and
    /// the upserts beside it are of other keys (the tab's rows that are not plain).
    private static func writeRows(of tab: Tab, _ commit: StoreCommit, onlyOwnTriggers: Bool, _ db: Database) throws -> Set<String> {
        let table = DataTable(tab)
        var skipped: Set<String> = []
        if let load = commit.loads[tab] {
            if try !Self.load(load, into: table, onlyOwnTriggers: onlyOwnTriggers, db) {
                skipped.formUnion(load.keys)
            }
        }
        skipped.formUnion(try upsert(commit.upserts[tab] ?? [], into: table, onlyOwnTriggers: onlyOwnTriggers, db))
        for delete in commit.deletes[tab] ?? [] {
            guard Self.matches(try table.fetch(key: delete.key, db), delete.expected, table) else {
                skipped.insert(delete.key)
                continue
            }
            _ = try table.delete(key: delete.key, db)
        }
        return skipped
    }

    /// Inserts or updates each row; returns the keys skipped (the store row is not the one expected).
    private static func upsert(_ upserts: [RowWrite], into table: DataTable, onlyOwnTriggers: Bool, _ db: Database) throws -> Set<String> {
        let tab = table.tab
        var skipped: Set<String> = []
        // A table that is empty when the commit starts holds only the rows this commit
        // inserts (unless a trigger of someone else's writes rows): other keys need no
        // lookup. That is a first pull: 100k lookups that would all find nothing.
        let startsEmpty = try onlyOwnTriggers && !upserts.isEmpty && table.isEmpty(db)
        // Keys that do not repeat (the engine's, in ascending order; a statement's new entries) need
        // no remembering.
        let unique = startsEmpty && Self.keysDistinct(upserts, table)
        // A first pull loads without the insert triggers (see DataTable+BulkLoad.swift).
        let aside = unique ? try InsertTriggersAside(table, db) : nil
        var inserter: RawStatement?
        var inserted: Set<String> = []
        let columns = DataTable.ColumnPlan.byTab[tab]
        for write in upserts {
            let key = columns.key(of: write.record)
            guard !key.isEmpty else { throw StoreError.missingKey(tab: tab, field: table.schema.keyField.rawValue) }
            let canonical = table.canonicalKey(key)
            let current = try startsEmpty && (unique || !inserted.contains(canonical)) ? nil : table.fetch(key: key, db)
            guard Self.matches(current, write.expected, table) else {
                skipped.insert(key)
                continue
            }
            if current == nil {
                if let aside, aside.isAside, table.needsFixOnInsert(write.record) {
                    // This row needs the fix trigger: it and the rest go through the triggers.
                    try aside.putBack()
                    inserter = nil
                }
                let statement = try inserter ?? RawStatement(cached: table.insertSQL, db)
                inserter = statement
                try table.run(key: key) { try table.runInsert(write.record, statement) }
                if startsEmpty && !unique { inserted.insert(canonical) }
            } else {
                try table.update(write.record, db)
            }
        }
        // Finalized before the triggers come back, so it never runs without them.
        inserter = nil
        try aside?.putBack()
        return skipped
    }

    /// A tab's base entries (in key order: the base's primary-key index then grows at one end instead
    /// of taking 100k inserts at random places), change marks and cleared tombstones, less `skip`.
    private static func writeBase(
        of tab: Tab, _ commit: StoreCommit, skipping skip: Set<String>, with baseSave: RawStatement, buffer json: inout [UInt8],
        _ db: Database
    ) throws {
        let columns = DataTable.ColumnPlan.byTab[tab]
        var keyed = (commit.baseUpserts[tab] ?? []).map { (key: columns.key(of: $0), record: $0) }
        keyed.sort { $0.key < $1.key }
        let changes = commit.changes[tab]
        let hashes = changes?.rowHashes ?? [:]
        var hashed: [String] = []
        for (key, record) in keyed where skip.isEmpty || !skip.contains(key) {
            let hash = hashes[key]
            try BaseEntry.save(tab: tab, key: key, record: record, rawHash: hash ?? 0, with: baseSave, buffer: &json)
            if hash != nil { hashed.append(key) }
        }
        if let changes {
            try Self.record(changes, tab: tab, skipping: skip, hashed: hashed, seq: commit.changeCounter, db)
        }
        for key in commit.baseDeletes[tab] ?? [] where !skip.contains(key) {
            _ = try BaseEntry.deleteOne(db, key: ["tab": tab.rawValue, "key": key])
        }
        for key in commit.clearTombstones[tab] ?? [] where !skip.contains(key) {
            _ = try TombstoneEntry.deleteOne(db, key: ["tab": tab.rawValue, "key": key])
        }
    }

    /// The rejected-row log, the conflict log, the sync state and the import fingerprints.
    private static func writeLogsAndState(_ commit: StoreCommit, _ db: Database) throws {
        if let rejected = commit.rejected {
            try db.cachedStatement(sql: "DELETE FROM sync_rejected").execute()
            for row in rejected { try RejectedRecord(row).insert(db) }
        }
        for conflict in commit.conflicts {
            var record = ConflictRecord(conflict)
            record.id = nil
            try record.insert(db)
        }
        for (key, value) in commit.state {
            try Self.setState(key, value, db)
        }
        for (fingerprint, id) in commit.importFingerprints {
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO sync_import_fingerprints (fingerprint, transactionId, importedAt)
                    VALUES (?, ?, \(DataTable.now))
                    """
            ).execute(arguments: [fingerprint, id])
        }
    }

    /// Adds a load's rows to `table`, each with its base entry and row hash, in key order and (when
    /// only sheetsync's triggers are on the table) without the insert triggers, like a first pull's
    /// upserts. False, with nothing written, when the tab is no longer empty (another client wrote
    /// to it during the run): the rows are then skipped, and the next run plans them one by one.
    ///
    /// SQLite's CHECKs cost more than the rest of the insert (0.24 of 0.31 s CPU for 100k
    /// transactions, and half the base's): while every row's texts pass them as decided in Swift
    /// (`passesChecks`), SQLite is told not to evaluate them again (`ignore_check_constraints`, for
    /// this connection and this load only). The first row that does not pass turns them back on,
    /// for it and every row after, so SQLite refuses what it would always refuse.
    private static func load(_ load: PlainLoad, into table: DataTable, onlyOwnTriggers: Bool, _ db: Database) throws -> Bool {
        let tab = table.tab
        let hasBase = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_base WHERE tab = ?)", arguments: [tab.rawValue])
        guard try table.isEmpty(db), hasBase == false else { return false }
        let aside = onlyOwnTriggers ? try InsertTriggersAside(table, db) : nil
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
        var checksAside = true
        // Prepared after each change of the triggers or the pragma, which expire earlier statements.
        var statements: (insert: RawStatement, base: RawStatement)? = nil
        func prepared() throws -> (insert: RawStatement, base: RawStatement) {
            if let statements { return statements }
            let made = (try RawStatement(table.insertSQL, db), try RawStatement(BaseEntry.saveSQL, db))
            statements = made
            return made
        }
        var json: [UInt8] = []
        let fields = tab.schema.fields
        let keyIndex = DataTable.ColumnPlan.byTab[tab].keyIndex
        try load.forEachRow { texts, hash in
            let key = texts[keyIndex]
            if let aside, aside.isAside, table.needsFixOnInsert(texts) {
                // This row needs the fix trigger: it and the rest go through the triggers.
                statements = nil
                try aside.putBack()
            }
            if checksAside, !fields.indices.allSatisfy({ DataTable.passesChecks(texts[$0], fields[$0]) }) {
                statements = nil
                try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
                checksAside = false
            }
            let (insert, base) = try prepared()
            try table.run(key: String(decoding: key, as: UTF8.self)) { try table.runInsert(texts, insert) }
            json.removeAll(keepingCapacity: true)
            if !RecordJSON.append(texts, tab: tab, to: &json) {
                let record = SQLTexts.byTab[tab].template.record(texts.strings)
                json.append(contentsOf: try RecordJSON.encode(record.fields, tab: tab).utf8)
            }
            try BaseEntry.save(tab: tab, key: key, fields: json, rawHash: hash, with: base)
        }
        // Finalized before the triggers come back, so they never run without them.
        statements = nil
        try aside?.putBack()
        return true
    }

    /// Keeps the rule "no dirty mark: store row equals base" for the keys a plan covered, and the row
    /// hashes of base entries the plan did not rewrite. A mark made after `seq` (by a write during
    /// the run) stays.
    private static func record(
        _ changes: ChangeRecord, tab: Tab, skipping skip: Set<String>, hashed: [String], seq: Int64, _ db: Database
    ) throws {
        // Hashes not written with a new base entry (its base stayed): set on the entry. A first pull
        // wrote every one with its base, and skips this (no 100k-key set to build).
        if hashed.count < changes.rowHashes.count {
            let written = Set(hashed)
            let setHash = try db.cachedStatement(sql: "UPDATE sync_base SET raw_hash = ? WHERE tab = ? AND key = ? AND raw_hash <> ?")
            for (key, hash) in changes.rowHashes where !written.contains(key) && !skip.contains(key) {
                try setHash.execute(arguments: [hash, tab.rawValue, key, hash])
            }
        }
        if changes.wholeTab {
            try db.cachedStatement(sql: "DELETE FROM \(ChangeTracking.table) WHERE tab = ? AND seq <= ?").execute(arguments: [
                tab.rawValue, seq,
            ])
        } else {
            let clear = try db.cachedStatement(sql: "DELETE FROM \(ChangeTracking.table) WHERE tab = ? AND key = ? AND seq <= ?")
            for key in changes.settled where !skip.contains(key) { try clear.execute(arguments: [tab.rawValue, key, seq]) }
        }
        let mark = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(ChangeTracking.table) (tab, key, seq) VALUES (?, ?, ?)")
        for key in changes.unsettled { try mark.execute(arguments: [tab.rawValue, key, seq]) }
    }

    /// Whether the rows' keys are non-empty and none repeats once canonical: told by neighbours where
    /// they ascend (the engine's order), else by a set of them.
    static func keysDistinct(_ writes: [RowWrite], _ table: DataTable) -> Bool {
        if keysAscend(writes, table) { return true }
        let columns = DataTable.ColumnPlan.byTab[table.tab]
        var seen = Set<String>(minimumCapacity: writes.count)
        for write in writes {
            let key = columns.key(of: write.record)
            guard !key.isEmpty, seen.insert(table.canonicalKey(key)).inserted else { return false }
        }
        return true
    }

    /// Whether the rows' keys are non-empty and strictly ascending once canonical (so none repeats).
    static func keysAscend(_ writes: [RowWrite], _ table: DataTable) -> Bool {
        var previous: String?
        let columns = DataTable.ColumnPlan.byTab[table.tab]
        for write in writes {
            let key = columns.key(of: write.record)
            guard !key.isEmpty else { return false }
            let canonical = table.canonicalKey(key)
            if let previous, !(previous < canonical) { return false }
            previous = canonical
        }
        return true
    }

    /// Whether the current row is still the one the engine read (absent when `expected` is nil).
    static func matches(_ current: LedgerRow?, _ expected: LedgerRow?, _ table: DataTable) -> Bool {
        switch (current, expected) {
        case (nil, nil): return true
        case (let current?, let expected?): return table.sameFields(current, expected)
        default: return false
        }
    }
}
