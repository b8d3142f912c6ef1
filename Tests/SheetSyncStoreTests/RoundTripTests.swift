import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// Records go in and come out as the same texts; SQL values read as text without interpretation.
@Suite struct RoundTripTests {
    @Test(arguments: Tab.allCases)
    func localUpsertRoundTripsEveryField(tab: Tab) throws {
        let store = try LedgerStore.inMemory()
        let record = Samples.record(tab)
        #expect(try store.upsert(record, in: tab) == record)
        #expect(try store.records(in: tab) == [record])
    }

    @Test(arguments: Tab.allCases)
    func engineCommitRoundTripsRowsAndBase(tab: Tab) throws {
        let store = try LedgerStore.inMemory()
        let record = Samples.record(tab)
        let key = record[tab.schema.keyField]
        try store.commit(
            StoreCommit(
                upserts: [tab: [RowWrite(record: record, expected: nil)]],
                baseUpserts: [tab: [record]]))
        let snapshot = try store.snapshot()
        #expect(snapshot.rows[tab] == [key: record])
        #expect(snapshot.base[tab] == [key: record])
        #expect(Set(snapshot.rows.keys) == Set(Tab.allCases))
    }

    @Test func emptyFieldsAreStoredAsNull() throws {
        let store = try LedgerStore.inMemory()
        try store.upsert(Samples.record(.transactions, [.note: "", .tagsCSV: ""]), in: .transactions)
        #expect(try store.int("SELECT count(*) FROM transactions WHERE note IS NULL AND tagsCSV IS NULL") == 1)
        #expect(try store.text("SELECT typeof(year) || ',' || typeof(amount) FROM transactions") == "integer,text")
    }

    @Test func sqlValuesReadAsPlainText() throws {
        let store = try LedgerStore.inMemory()
        try store.execute(
            """
            INSERT INTO categories (name, type, isActive, sortOrder) VALUES ('A', 'both', 1, 2.5), ('B', 'both', 0, 3.0)
            """)
        let rows = try store.records(in: .categories)
        #expect(rows.map { $0[.isActive] } == ["TRUE", "FALSE"])
        #expect(rows.map { $0[.sortOrder] } == ["2.5", "3"])
        #expect(rows.map { $0[.emoji] } == ["", ""])
    }

    @Test func booleanTextsBecomeZeroOrOne() throws {
        let store = try LedgerStore.inMemory()
        try store.upsert(Samples.record(.categories, [.name: "A", .isActive: "1"]), in: .categories)
        try store.upsert(Samples.record(.categories, [.name: "B", .isActive: "false"]), in: .categories)
        #expect(try store.text("SELECT group_concat(isActive) FROM categories") == "1,0")
    }

    @Test func badBooleanOrIntegerTextIsRefusedNamingTheField() throws {
        let store = try LedgerStore.inMemory()
        #expect(
            throws: StoreError.invalidValue(
                tab: .categories, key: "Food", field: "isActive", value: "maybe",
                expected: "boolean (TRUE, FALSE, 1 or 0)")
        ) {
            try store.upsert(Samples.record(.categories, [.isActive: "maybe"]), in: .categories)
        }
        let error = #expect(throws: StoreError.self) {
            try store.upsert(Samples.record(.recurringRules, [.interval: "2.5"]), in: .recurringRules)
        }
        #expect(error?.description == "invalid integer '2.5' in field 'interval' of RecurringRules row '\(Samples.ruleId)'")
    }
}
