import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// A first pull loads empty tables with the insert triggers set aside (DataTable+BulkLoad.swift):
/// the store it leaves must be the one the per-row path with every trigger leaves.
@Suite struct BulkLoadTests {
    /// A store whose commits take the ordinary per-row path: a trigger of someone else's (one that
    /// does nothing) turns the empty-table shortcuts off.
    static func ordinaryStore() throws -> LedgerStore {
        let store = try LedgerStore.inMemory()
        try store.execute("CREATE TRIGGER someone_elses AFTER INSERT ON sync_state BEGIN SELECT 1; END")
        return store
    }

    static func key(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// Everything a person could compare: rows in rowid order with their SQL types, base,
    /// tombstones, counter, state, and the trigger definitions.
    static func dump(_ store: LedgerStore) throws -> [String] {
        try store.writer.read { db in
            var lines: [String] = []
            for tab in Tab.allCases {
                let table = tab.schema.tableName.quotedDatabaseIdentifier
                for row in try Row.fetchAll(db, sql: "SELECT rowid, * FROM \(table) ORDER BY rowid") {
                    lines.append("\(tab) " + row.databaseValues.map { "\($0.storage)" }.joined(separator: "|"))
                }
            }
            for sql in [
                "SELECT tab, key, fields FROM sync_base ORDER BY rowid", "SELECT tab, key FROM sync_tombstones ORDER BY tab, key",
                "SELECT value FROM sync_change_counter", "SELECT key, value FROM sync_state WHERE key <> 'x' ORDER BY key",
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name <> 'someone_elses' ORDER BY name",
            ] {
                lines += try Row.fetchAll(db, sql: sql).map { "\($0)" }
            }
            return lines
        }
    }

    static func firstPull(_ records: [Tab: [LedgerRow]]) -> StoreCommit {
        var upserts: [Tab: [RowWrite]] = [:]
        for (tab, rows) in records {
            let key = tab.schema.keyField
            upserts[tab] = rows.sorted { $0[key] < $1[key] }.map { RowWrite(record: $0, expected: nil) }
        }
        return StoreCommit(upserts: upserts, baseUpserts: records, state: ["lastSyncAt": "2026-01-01T00:00:00.000Z"])
    }

    /// Whether the tab's insert triggers were set aside and put back (so are newer than v2's trigger).
    static func loadedInBulk(_ store: LedgerStore, _ tab: Tab) throws -> Bool {
        let name = tab.schema.tableName
        let rowid = "SELECT rowid FROM sqlite_master WHERE name = ?"
        return try (store.int(rowid, ["\(name)_fix_insert"]) ?? 0) > (store.int(rowid, ["\(name)_keep_deleted"]) ?? 0)
    }

    @Test func aNewStoreHasOnlyItsOwnTriggers() throws {
        let store = try LedgerStore.inMemory()
        #expect(try store.writer.read { try DataTable.hasOnlyOwnTriggers($0) })
        #expect(try !Self.ordinaryStore().writer.read { try DataTable.hasOnlyOwnTriggers($0) })
    }

    /// Both stores after the same first pull, then after the same ordinary local writes.
    func expectSameStores(
        _ records: [Tab: [LedgerRow]], bulkTabs: Set<Tab>, prepare: (LedgerStore) throws -> Void = { _ in }
    ) throws {
        let bulk = try LedgerStore.inMemory(), ordinary = try Self.ordinaryStore()
        for store in [bulk, ordinary] {
            try prepare(store)
            try store.commit(Self.firstPull(records))
        }
        for tab in Tab.allCases {
            #expect(try Self.loadedInBulk(bulk, tab) == bulkTabs.contains(tab), "\(tab)")
            #expect(try !Self.loadedInBulk(ordinary, tab), "\(tab)")
        }
        #expect(try Self.dump(bulk) == Self.dump(ordinary))
        let counter = try bulk.int("SELECT value FROM sync_change_counter") ?? -1
        let tombstones = try bulk.int("SELECT count(*) FROM sync_tombstones") ?? -1
        // The triggers are back and work: an edit is counted, a delete leaves a tombstone.
        for store in [bulk, ordinary] {
            try store.execute("UPDATE transactions SET note = 'by hand', lastModifiedAt = '2030-01-01T00:00:00.000Z' WHERE rowid = 2")
            try store.execute("DELETE FROM transactions WHERE rowid = 3")
            try store.execute("INSERT INTO transactions SELECT * FROM transactions WHERE 0")
        }
        #expect(try Self.dump(bulk) == Self.dump(ordinary))
        #expect(try bulk.int("SELECT value FROM sync_change_counter") == counter + 2)
        #expect(try bulk.int("SELECT count(*) FROM sync_tombstones") == tombstones + 1)
    }

    static func transactions(_ count: Int, _ overrides: (Int) -> [FieldKey: String] = { _ in [:] }) -> [LedgerRow] {
        (1...count).map { n in
            Samples.record(.transactions, [.transactionId: key(n), .note: "row \(n)"].merging(overrides(n)) { _, new in new })
        }
    }

    @Test func firstPullOfCanonicalRowsLeavesTheStoreTheTriggersWouldHave() throws {
        try expectSameStores(
            [
                .transactions: Self.transactions(50) { n in n % 7 == 0 ? [.note: "", .recurringRuleId: ""] : [:] },
                .categories: [Samples.record(.categories), Samples.record(.categories, [.name: "Pets", .sortOrder: ""])],
                .settings: [Samples.record(.settings)],
            ], bulkTabs: [.transactions, .categories, .settings])
    }

    /// The triggers come back before the first row that needs the fix trigger, for it and every later row.
    @Test func rowsTheFixTriggerRewritesAreLoadedWithItInBothStores() throws {
        try expectSameStores(
            [
                .transactions: Self.transactions(20) { n in
                    switch n {
                    case 4: return [.recurringRuleId: Samples.ruleId.uppercased()]
                    case 5: return [.year: "2025"]
                    case 6: return [.month: "4"]
                    default: return [:]
                    }
                },
                // The very first row: the triggers are back before any insert.
                .receipts: [Samples.record(.receipts, [.transactionId: Samples.transactionId.uppercased()])],
                .categories: [Samples.record(.categories)],
            ], bulkTabs: [.transactions, .receipts, .categories])
    }

    @Test func tombstonesOfReloadedKeysAreClearedAsTheTriggerClearsThem() throws {
        try expectSameStores([.transactions: Self.transactions(10)], bulkTabs: [.transactions]) { store in
            // Deleted locally, so the table is empty again with tombstones waiting.
            for n in [3, 8] { try store.upsert(Samples.record(.transactions, [.transactionId: Self.key(n)]), in: .transactions) }
            try store.execute("DELETE FROM transactions")
            try store.upsert(Samples.record(.categories), in: .categories)
            try store.execute("DELETE FROM categories")
            #expect(try store.int("SELECT count(*) FROM sync_tombstones") == 3)
        }
    }

    /// A statement's new entries come in the file's order, not their keys': rows whose keys do not
    /// repeat load in bulk in any order, and leave the store the triggers would have; a key given
    /// twice takes the per-row path.
    @Test(arguments: [false, true])
    func rowsOfDistinctKeysInAnyOrderLoadAsTheTriggersWould(repeatingAKey: Bool) throws {
        let rows = Self.transactions(30) { n in n == 9 ? [.year: "2025"] : [:] }
        var order = rows.enumerated().sorted { ($0.offset % 3, -$0.offset) < ($1.offset % 3, -$1.offset) }.map(\.element)
        if repeatingAKey { order.append(Samples.record(.transactions, [.transactionId: Self.key(5), .note: "again"])) }
        let bulk = try LedgerStore.inMemory(), ordinary = try Self.ordinaryStore()
        for store in [bulk, ordinary] {
            var commit = StoreCommit()
            commit.upserts[.transactions] = order.map { RowWrite(record: $0, expected: nil) }
            commit.changes[.transactions] = .marking(order.map { $0[.transactionId] })
            try store.commit(commit)
        }
        #expect(try Self.loadedInBulk(bulk, .transactions) == !repeatingAKey)
        #expect(try Self.dump(bulk) == Self.dump(ordinary))
        // In the order written: a later sync appends them to the sheet in that order.
        #expect(try bulk.records(in: .transactions).map { $0[.note] } == order.prefix(rows.count).map { $0[.note] })
    }

    /// A row SQLite refuses midway through the load rolls everything back, the triggers' removal too.
    @Test func refusedRowMidwayLeavesTheStoreAsItWasTriggersIncluded() throws {
        let store = try LedgerStore.inMemory()
        let before = try Self.dump(store)
        let records = Self.transactions(40) { n in n == 30 ? [.amount: "12,50"] : [:] }
        let error = #expect(throws: StoreError.self) { try store.commit(Self.firstPull([.transactions: records])) }
        guard case .rowRejected(.transactions, let key, let reason)? = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(key == Self.key(30))
        #expect(reason == "CHECK constraint failed: amount must be a non-negative decimal like 12.50")
        #expect(try Self.dump(store) == before)
        #expect(try !Self.loadedInBulk(store, .transactions))
        #expect(try store.int("SELECT count(*) FROM sync_applying") == 0)
    }

    /// A commit binds each row in place (`runInsert`); it must store what an ordinary write stores
    /// through GRDB (`values(of:)`): boolean spellings as 1/0, integers as integers, `""` as NULL.
    @Test func aFirstPullStoresTheValuesAnOrdinaryWriteStores() throws {
        let records = [
            Samples.record(.categories, [.name: "A", .isActive: "1", .sortOrder: ""]),
            Samples.record(.categories, [.name: "B", .isActive: "false", .sortOrder: "-30"]),
            Samples.record(.categories, [.name: "C", .isActive: "True", .emoji: "", .sortOrder: "7"]),
        ]
        let pulled = try LedgerStore.inMemory(), written = try LedgerStore.inMemory()
        try pulled.commit(Self.firstPull([.categories: records]))
        for record in records { try written.upsert(record, in: .categories) }
        let sql =
            "SELECT quote(name), quote(type), quote(emoji), quote(colorHex), quote(isActive), quote(sortOrder) FROM categories ORDER BY name"
        let rows = { (store: LedgerStore) in try store.writer.read { db in try Row.fetchAll(db, sql: sql).map { "\($0)" } } }
        #expect(try rows(pulled) == rows(written))
        #expect(try pulled.text("SELECT group_concat(quote(isActive) || '/' || quote(sortOrder)) FROM categories") == "1/NULL,0/-30,1/7")
    }

    /// Records of another layout (the same fields in another order) are read by name, not by
    /// position: the store they leave is the one records of the tab's own layout leave.
    @Test func recordsOfAnotherLayoutLoadAsTheTabsOwn() throws {
        let names = Tab.transactions.schema.fieldNames
        let reordered = try #require(LedgerRowTemplate(names: names.reversed()).layout)
        let own = Self.transactions(12) { n in n == 5 ? [.year: "2025"] : n == 9 ? [.recurringRuleId: Samples.ruleId.uppercased()] : [:] }
        let other = own.map { record in LedgerRow(layout: reordered, values: names.reversed().map { record[named: $0] }) }
        #expect(other.allSatisfy { $0.layout !== own[0].layout })
        let a = try LedgerStore.inMemory(), b = try LedgerStore.inMemory()
        try a.commit(Self.firstPull([.transactions: own]))
        try b.commit(Self.firstPull([.transactions: other]))
        #expect(try Self.dump(a) == Self.dump(b))
        #expect(try a.int("SELECT count(*) FROM transactions") == 12)
    }

    /// A text the column cannot take is refused by name before SQLite sees it, and nothing is kept.
    @Test(arguments: [(FieldKey.isActive, "maybe", "boolean (TRUE, FALSE, 1 or 0)"), (.sortOrder, "2.5", "integer")])
    func aFirstPullRefusesTextsTheColumnCannotTake(_ field: FieldKey, _ value: String, _ expected: String) throws {
        let store = try LedgerStore.inMemory()
        let before = try Self.dump(store)
        let records = [Samples.record(.categories, [.name: "A"]), Samples.record(.categories, [.name: "B", field: value])]
        #expect(throws: StoreError.invalidValue(tab: .categories, key: "B", field: field.rawValue, value: value, expected: expected)) {
            try store.commit(Self.firstPull([.categories: records]))
        }
        #expect(try Self.dump(store) == before)
    }

    /// `needsFixOnInsert` says what the fix trigger's WHEN clause says: a row the trigger rewrites
    /// reads back different from what was written.
    @Test(arguments: [
        [:] as [FieldKey: String], [.transactionId: Samples.transactionId.uppercased()], [.recurringRuleId: Samples.ruleId.uppercased()],
        [.recurringRuleId: ""], [.year: "2025"], [.month: "12"], [.year: "02026"], [.month: "03"],
        [.createdAt: ""], [.lastModifiedAt: ""],
    ])
    func fixPredicateAgreesWithTheTrigger(_ overrides: [FieldKey: String]) throws {
        let record = Samples.record(.transactions, overrides)
        let store = try LedgerStore.inMemory()
        try store.writer.write { db in
            try db.execute(sql: "INSERT INTO sync_applying (id) VALUES (1)")
            try DataTable(.transactions).insert(record, db)
            try db.execute(sql: "DELETE FROM sync_applying")
        }
        let stored = try #require(try store.records(in: .transactions).first)
        var written = record
        written[.transactionId] = record[.transactionId].lowercased()
        written[.month] = Int(record[.month]).map(String.init) ?? record[.month]
        written[.year] = Int(record[.year]).map(String.init) ?? record[.year]
        let table = DataTable(.transactions)
        #expect(table.needsFixOnInsert(record) == (stored != written))
    }
}
