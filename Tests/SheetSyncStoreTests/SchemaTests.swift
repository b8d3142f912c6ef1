import Foundation
import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// The tables are a documented interface: people query and edit them from the sqlite3 shell.
@Suite struct SchemaTests {
    /// `name TYPE [NOT NULL] [PK]` for each column, from `PRAGMA table_info`.
    func columns(_ store: LedgerStore, _ table: String) throws -> [String] {
        try store.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid",
                arguments: [table]
            ).map { row in
                let name: String = row["name"]
                let type: String = row["type"]
                let notNull: Bool = row["notnull"]
                let pk: Int = row["pk"]
                return [name, type, notNull ? "NOT NULL" : nil, pk > 0 ? "PK" : nil].compactMap { $0 }.joined(separator: " ")
            }
        }
    }

    @Test func dataTablesHaveTheSeedColumnsInOrderWithDocumentedTypes() throws {
        let store = try LedgerStore.inMemory()
        #expect(
            try columns(store, "transactions") == [
                "transactionId TEXT NOT NULL PK", "type TEXT NOT NULL", "date TEXT NOT NULL", "year INTEGER NOT NULL",
                "month INTEGER NOT NULL", "amount TEXT NOT NULL", "category TEXT NOT NULL", "tagsCSV TEXT", "note TEXT",
                "paidFlag TEXT", "reimbursedFlag TEXT", "recurringRuleId TEXT", "createdAt TEXT NOT NULL",
                "lastModifiedAt TEXT NOT NULL",
            ])
        #expect(
            try columns(store, "receipts") == [
                "receiptId TEXT NOT NULL PK", "transactionId TEXT NOT NULL", "driveFileId TEXT NOT NULL",
                "fileName TEXT NOT NULL", "createdAt TEXT NOT NULL", "lastModifiedAt TEXT NOT NULL",
            ])
        #expect(
            try columns(store, "categories") == [
                "name TEXT NOT NULL PK", "type TEXT NOT NULL", "emoji TEXT", "colorHex TEXT", "isActive INTEGER NOT NULL",
                "sortOrder INTEGER", "createdAt TEXT NOT NULL", "lastModifiedAt TEXT NOT NULL",
            ])
        #expect(
            try columns(store, "recurring_rules") == [
                "recurringRuleId TEXT NOT NULL PK", "isEnabled INTEGER NOT NULL", "type TEXT NOT NULL",
                "amount TEXT NOT NULL", "category TEXT NOT NULL", "tagsCSV TEXT", "note TEXT", "startDate TEXT NOT NULL",
                "cadence TEXT NOT NULL", "interval INTEGER NOT NULL", "endDate TEXT", "lastGeneratedDate TEXT",
                "createdAt TEXT NOT NULL", "lastModifiedAt TEXT NOT NULL",
            ])
        #expect(
            try columns(store, "app_settings") == [
                "datasetId TEXT NOT NULL PK", "schemaVersion INTEGER NOT NULL", "timezone TEXT NOT NULL",
                "rootFolderId TEXT", "dataSpreadsheetId TEXT", "receiptsFolderId TEXT", "createdAt TEXT NOT NULL",
                "lastModifiedAt TEXT NOT NULL",
            ])
    }

    @Test func everyTabSchemaMatchesItsTable() throws {
        let store = try LedgerStore.inMemory()
        for tab in Tab.allCases {
            let names = try columns(store, tab.schema.tableName).map { String($0.prefix { $0 != " " }) }
            #expect(names == tab.schema.fieldNames, "table \(tab.schema.tableName)")
        }
    }

    /// Every sync reads each base key with its row hash: from a covering index, not the table whose
    /// rows carry the base's JSON (it read 55 MB of a 72 MB store at 100k rows).
    @Test func baseHashesAreReadFromACoveringIndex() throws {
        let store = try LedgerStore.inMemory()
        let plan = try store.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT key, raw_hash FROM sync_base WHERE tab = ?", arguments: ["Transactions"])
                .map { String(describing: $0["detail"] ?? "") }.joined(separator: "; ")
        }
        #expect(plan.contains("COVERING INDEX sync_base_hashes"), "\(plan)")
    }

    @Test func bookkeepingTablesExist() throws {
        let store = try LedgerStore.inMemory()
        #expect(
            try columns(store, "sync_base") == [
                "tab TEXT NOT NULL PK", "key TEXT NOT NULL PK", "fields TEXT NOT NULL", "raw_hash INTEGER NOT NULL",
            ])
        #expect(try columns(store, "sync_dirty") == ["tab TEXT NOT NULL PK", "key TEXT NOT NULL PK", "seq INTEGER NOT NULL"])
        #expect(
            try columns(store, "sync_tombstones") == [
                "tab TEXT NOT NULL PK", "key TEXT NOT NULL PK", "deletedAt TEXT NOT NULL",
            ])
        #expect(
            try columns(store, "sync_rejected").map { String($0.prefix { $0 != " " }) } == [
                "id", "tab", "row", "key", "message", "hint", "rawCells", "firstSeenAt", "code",
            ])
        #expect(
            try columns(store, "sync_conflicts").map { String($0.prefix { $0 != " " }) } == [
                "id", "tab", "key", "field", "losingValue", "winningValue", "losingModifiedAt", "winningModifiedAt",
                "resolvedAt",
            ])
        #expect(try columns(store, "sync_state") == ["key TEXT NOT NULL PK", "value TEXT NOT NULL"])
        #expect(try store.int("SELECT value FROM sync_change_counter WHERE id = 1") == 0)
        #expect(try store.int("SELECT count(*) FROM sync_applying") == 0)
    }

    /// Inserts the sample row of `tab` with `column` set to the SQL literal `value`.
    func insertSample(_ store: LedgerStore, _ tab: Tab, _ column: String, _ value: String) throws {
        let record = Samples.record(tab)
        let schema = tab.schema
        let literals = schema.fields.map { field -> String in
            if field.name == column { return value }
            let text = record[field.key]
            if text.isEmpty { return "NULL" }
            if field.kind == .boolean { return text == "TRUE" ? "1" : "0" }
            return field.isIntegerColumn ? text : "'\(text.replacingOccurrences(of: "'", with: "''"))'"
        }
        try store.execute("INSERT INTO \(schema.tableName) VALUES (\(literals.joined(separator: ", ")))")
    }

    @Test(arguments: [
        (Tab.transactions, "type", "'Expense'"), (Tab.transactions, "paidFlag", "'yes'"),
        (Tab.transactions, "date", "'2026-02-30'"),
        (Tab.transactions, "createdAt", "'2026-02-03T04:05:06.007+01:00'"), (Tab.transactions, "amount", "'-5.00'"),
        (Tab.transactions, "amount", "'$5'"), (Tab.transactions, "date", "'3/15/2026'"),
        (Tab.transactions, "lastModifiedAt", "'2026-02-03 04:05:06'"),
        (Tab.transactions, "recurringRuleId", "'not-a-uuid'"), (Tab.transactions, "category", "NULL"),
        (Tab.categories, "isActive", "2"), (Tab.categories, "name", "''"), (Tab.categories, "type", "'savings'"),
        (Tab.recurringRules, "interval", "0"), (Tab.recurringRules, "cadence", "'fortnightly'"),
        (Tab.settings, "schemaVersion", "0"),
    ])
    func sqliteRefusesValuesOutsideTheDomain(tab: Tab, column: String, literal: String) throws {
        let store = try LedgerStore.inMemory()
        let error = #expect(throws: DatabaseError.self) { try insertSample(store, tab, column, literal) }
        // The message names the column, and for a CHECK the rule in words.
        #expect(error?.message?.contains(column) == true, "\(String(describing: error?.message))")
        #expect(try store.records(in: tab).isEmpty)
    }

    @Test func checkFailureStatesTheRule() throws {
        let store = try LedgerStore.inMemory()
        let error = #expect(throws: DatabaseError.self) { try insertSample(store, .recurringRules, "interval", "0") }
        #expect(error?.message == "CHECK constraint failed: interval must be between 1 and 100000")
    }

    @Test(arguments: [
        (Tab.transactions, "amount", "'12.5'"), (Tab.transactions, "amount", "'7'"),
        (Tab.transactions, "paidFlag", "NULL"), (Tab.categories, "sortOrder", "NULL"),
    ])
    func sqliteAcceptsPlainValuesAPersonTypes(tab: Tab, column: String, literal: String) throws {
        let store = try LedgerStore.inMemory()
        try insertSample(store, tab, column, literal)
        #expect(try store.records(in: tab).count == 1)
    }

    @Test func conflictLogCannotBeRewritten() throws {
        let store = try LedgerStore.inMemory()
        let entry = Conflict(
            tab: .transactions, key: Samples.transactionId, field: "note", losingValue: "a",
            winningValue: "b", losingModifiedAt: Samples.created, winningModifiedAt: Samples.modified,
            resolvedAt: Samples.modified)
        try store.commit(StoreCommit(conflicts: [entry]))
        #expect(throws: DatabaseError.self) { try store.execute("UPDATE sync_conflicts SET losingValue = 'x'") }
        #expect(try store.conflicts(limit: 10).map(\.losingValue) == ["a"])
    }
}
