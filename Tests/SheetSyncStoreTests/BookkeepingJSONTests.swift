import Foundation
import GRDB
import SheetSyncCore
import SheetValues
import Testing

@testable import SheetSyncStore

/// The JSON the store keeps in `sync_base.fields` and `sync_rejected.rawCells`: the bytes are what
/// `JSONEncoder` (sorted keys, unescaped slashes) wrote in every earlier version, and any JSON
/// spelling of the same texts, as an earlier version or another tool may have left, reads back.
@Suite struct BookkeepingJSONTests {
    static let awkwardTexts = [
        "", "plain", "quote \" backslash \\ slash / =1+1", "tab\tnewline\ncarriage\rbackspace\u{08}formfeed\u{0C}",
        "controls \u{01}\u{1F}", "delete \u{7F}", "é 😀 \u{2028} 中文",
    ]

    let store: LedgerStore

    init() throws {
        store = try LedgerStore.inMemory()
    }

    static func encoderText<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(arguments: awkwardTexts)
    func baseFieldsAreTheBytesJSONEncoderWrote(_ text: String) throws {
        let record = Samples.record(.transactions, [.note: text, .tagsCSV: text])
        try store.commit(StoreCommit(baseUpserts: [.transactions: [record]]))
        let stored = try #require(try store.text("SELECT fields FROM sync_base"))
        #expect(stored == (try Self.encoderText(record.fields)))
        #expect(try store.snapshot().base[.transactions] == [Samples.transactionId: record])
    }

    /// The commit writes a base without a dictionary per record (`RecordJSON.append`): its bytes
    /// must not depend on how the record was built — the tab's own layout, the same fields in
    /// another order, or fields other than the tab's (which only the encoder writes).
    @Test(arguments: Tab.allCases)
    func baseFieldsAreTheEncoderBytesWhateverTheRecordsLayout(_ tab: Tab) throws {
        let own = Samples.record(tab)
        let key = own[tab.schema.keyField]
        let names = tab.schema.fieldNames
        let other = try #require(names.last { $0 != tab.schema.keyField.rawValue })
        let reordered = try #require(LedgerRowTemplate(names: names.reversed()).layout)
        let records = [
            own,
            LedgerRow(layout: reordered, values: names.reversed().map { own[named: $0] }),
            LedgerRow(own.fields.merging(["userColumn": "x"]) { a, _ in a }),
            LedgerRow(own.fields.filter { $0.key != other }),
            LedgerRow(own.fields.merging([other: "with \u{7F} delete \u{7F}"]) { _, new in new }),
        ]
        for record in records {
            try store.commit(StoreCommit(baseUpserts: [tab: [record]]))
            let stored = try #require(try store.text("SELECT fields FROM sync_base WHERE tab = ? AND key = ?", [tab.rawValue, key]))
            #expect(stored == (try Self.encoderText(record.fields)), "\(record.layout.names)")
        }
    }

    @Test func rawCellsAreTheBytesJSONEncoderWrote() throws {
        let rejected = Rejection(
            tab: .transactions, row: 4, id: "", message: "bad amount", hint: "",
            rawCells: Self.awkwardTexts, firstSeenAt: Samples.created)
        try store.commit(StoreCommit(rejected: [rejected]))
        #expect(try store.text("SELECT rawCells FROM sync_rejected") == (try Self.encoderText(Self.awkwardTexts)))
        #expect(try store.rejectedRows() == [rejected])
    }

    @Test func otherSpellingsOfTheSameTextsReadBack() throws {
        let record = Samples.record(.categories, [.emoji: "😀", .name: "Café/Bar"])
        var fields = record.fields
        fields["emoji"] = nil
        fields["name"] = nil
        // Escaped slash, \u escapes with a surrogate pair, spaces, and keys out of order.
        let members = fields.sorted { $0.key > $1.key }.map { #""\#($0.key)": "\#($0.value)""# }
        let text = "{ " + (members + [#""emoji" : "\ud83d\ude00""#, #""name":"Caf\u00e9\/Bar""#]).joined(separator: " , ") + " }"
        try store.execute("INSERT INTO sync_base (tab, key, fields) VALUES ('Categories', 'Café/Bar', ?)", [text])
        #expect(try store.snapshot().base[.categories] == ["Café/Bar": record])

        try store.execute(
            "INSERT INTO sync_rejected (tab, row, message, rawCells, firstSeenAt) VALUES ('Transactions', 3, 'm', ?, ?)",
            [#"[ "a\/b", "\u00e9", "" ]"#, Samples.created])
        #expect(try store.rejectedRows().first?.rawCells == ["a/b", "é", ""])
    }

    /// The log keeps each rejection's code; a row logged before codes were reads as `rejected-row`.
    @Test func theRejectedRowLogKeepsTheCode() throws {
        let rejected = Rejection(
            tab: .transactions, row: 4, id: "", message: "unknown category 'X'", hint: "", rawCells: ["x"],
            firstSeenAt: Samples.created, code: .unknownCategory)
        try store.commit(StoreCommit(rejected: [rejected]))
        #expect(try store.text("SELECT code FROM sync_rejected") == "unknown-category")
        #expect(try store.rejectedRows().map(\.code) == [.unknownCategory])
        try store.execute("UPDATE sync_rejected SET code = NULL")
        #expect(try store.rejectedRows().map(\.code) == [.rejectedRow])
    }

    // `json_valid` checks keep broken JSON out of these columns; a valid document of the wrong shape can still be there.
    @Test(arguments: [#"{"name":1}"#, #"["name"]"#, #""name""#, #"{"name":null}"#])
    func aBaseThatIsNotAnObjectOfTextsIsReportedNotGuessed(_ text: String) throws {
        try store.execute("INSERT INTO sync_base (tab, key, fields) VALUES ('Categories', 'x', ?)", [text])
        #expect(throws: StoreError.self) { try store.snapshot() }
    }

    @Test(arguments: [#"["a",1]"#, #"{"a":"b"}"#, "null", #"[["a"]]"#])
    func rawCellsThatAreNotAnArrayOfTextsAreReported(_ text: String) throws {
        try store.execute(
            "INSERT INTO sync_rejected (tab, row, message, rawCells, firstSeenAt) VALUES ('Transactions', 3, 'm', ?, ?)",
            [text, Samples.created])
        #expect(throws: StoreError.self) { try store.rejectedRows() }
    }
}
