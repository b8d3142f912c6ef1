import Foundation
import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// A new store's schema is the exact SQL every existing store holds: the tables' CHECKs and the
/// triggers are generated (from the field rules and the tab schemas), and a change to their text
/// would need a migration. `Fixtures/store-schema.sql` is that text, as SQLite keeps it.
@Suite struct StoreSchemaTextTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/store-schema.sql")

    /// Every table, index and trigger of a new store, in creation order, as `sqlite_master` holds it.
    static func schemaText(_ store: LedgerStore) throws -> String {
        try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
                .map { row -> String in
                    let (type, name, sql): (String, String, String) = (row[0], row[1], row[2])
                    return "-- \(type) \(name)\n\(sql);\n"
                }
                .joined(separator: "\n")
        }
    }

    @Test func aNewStoreHasTheSchemaTextEveryStoreHas() throws {
        let actual = try Self.schemaText(LedgerStore.inMemory())
        let expected = try String(contentsOf: Self.fixture, encoding: .utf8)
        let (new, old) = (actual.split(separator: "\n"), expected.split(separator: "\n"))
        let changed = zip(new, old).first { $0 != $1 }.map { "'\($0.0)' where it was '\($0.1)'" }
        let difference = changed ?? (new.count == old.count ? nil : "\(new.count) lines where there were \(old.count)")
        #expect(difference == nil, "the store's schema text changed")
    }
}
