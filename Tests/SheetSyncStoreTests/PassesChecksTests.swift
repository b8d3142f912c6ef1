import Foundation
import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// A load sets SQLite's CHECKs aside for rows whose texts pass them as decided in Swift
/// (`DataTable.passesChecks`): that must never take a text SQLite's own CHECK refuses. Each field
/// kind's edge cases go through SQLite's CHECK for the field; and the canonical texts a load writes
/// do pass in Swift, so the quick way is the one taken.
@Suite struct PassesChecksTests {
    /// Texts around every CHECK's edges, for every kind.
    static let candidates: [String] = {
        var texts = [
            "", " ", "0", "1", "00", "01", "9", "12", "13", "-1", "+1", "1.5", "1e3", "TRUE", "FALSE", "true", "yes",
            "expense", "Expense", "income", "both", "paid", "unpaid", "reimbursed", "daily", "weekly", "monthly", "yearly",
            "12.50", "12.5", "0.00", ".5", "5.", "1.2.3", "1,234.50", "$5", "12.50 ", "٣",
            "2026-01-05", "2026-1-5", "2026-02-29", "2024-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "0000-01-01",
            "9999-12-31", "2026/01/05", "2026-01-05 ",
            "2026-11-21T22:31:20.123Z", "2026-11-21T22:31:20Z", "2026-11-21T24:00:00.000Z", "2026-11-21T23:60:00.000Z",
            "2026-11-21T23:59:60.000Z", "2026-02-30T00:00:00.000Z", "2026-11-21T22:31:20.123+00:00", "2026-11-21 22:31:20.123Z",
            "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
            "3f8c0191-d8b4-551c-a3d9-0f9981b54cb1", "3F8C0191-D8B4-551C-A3D9-0F9981B54CB1", "{3f8c0191-d8b4-551c-a3d9-0f9981b54cb1}",
            "3f8c0191d8b4551ca3d90f9981b54cb1", "3f8c0191-d8b4-551c-a3d9-0f9981b54cbg", "3f8c0191-d8b4-551c-a3d9-0f9981b54cb",
            "100000", "100001", "9999", "10000", "999999999999999999",
        ]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let alphabet = Array("0123456789-.:TZabcdef")
            texts.append(String((0..<Int.random(in: 1...26, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        return texts
    }()

    @Test func whatPassesInSwiftPassesSQLitesCheck() throws {
        let db = try DatabaseQueue()
        var quick = 0
        for tab in Tab.allCases {
            for field in tab.schema.fields {
                let key = field.key == tab.schema.keyField
                let checks = DataTable.checks(for: field, key: key)
                guard !checks.isEmpty else { continue }
                let type = field.isIntegerColumn ? "INTEGER" : "TEXT"
                let table = "t_\(tab.schema.tableName)_\(field.name)"
                let name = field.name.quotedDatabaseIdentifier
                try db.write { db in
                    try db.execute(
                        sql: "CREATE TABLE \(table) (\(name) \(type), \(checks.map { "CHECK (\($0.sql))" }.joined(separator: ", ")))")
                }
                let column = DataTable.ColumnPlan.byTab[tab].all.first { $0.slot.name == field.name }!
                for text in Self.candidates {
                    var copy = text
                    let passes = copy.withUTF8 { DataTable.passesChecks($0, field) }
                    // Bound as a load binds it (`columnValue`); a text it refuses never reaches SQLite.
                    guard passes, let value = try? DataTable(tab).columnValue(text, column, key: "k").databaseValue else { continue }
                    quick += 1
                    let refused = (try? db.write { try $0.execute(sql: "INSERT INTO \(table) VALUES (?)", arguments: [value]) }) == nil
                    #expect(!refused, "\(tab.rawValue).\(field.name): '\(text)' passes in Swift but SQLite's CHECK refuses it")
                }
            }
        }
        #expect(quick > 100)
    }

    /// The texts a load writes for the sample's rows all pass in Swift (the CHECKs are then set aside).
    @Test func canonicalTextsPass() {
        let samples: [(Tab, FieldKey, String)] = [
            (.transactions, .transactionId, "3f8c0191-d8b4-551c-a3d9-0f9981b54cb1"), (.transactions, .type, "expense"),
            (.transactions, .date, "2026-01-05"), (.transactions, .year, "2026"), (.transactions, .month, "1"),
            (.transactions, .amount, "1450.00"), (.transactions, .paidFlag, "paid"), (.transactions, .reimbursedFlag, ""),
            (.transactions, .createdAt, "2026-01-01T09:00:00.000Z"), (.receipts, .transactionId, "3f8c0191-d8b4-551c-a3d9-0f9981b54cb1"),
            (.receipts, .fileName, "a b.jpg"),
        ]
        for (tab, name, text) in samples {
            var copy = text
            let field = tab.schema.field(name)!
            #expect(copy.withUTF8 { DataTable.passesChecks($0, field) }, "\(tab.rawValue).\(name.rawValue) '\(text)'")
        }
    }

    /// Every text a load can write for a cell that reads fast (`FieldParser.appendCanonical`) passes
    /// in Swift: a load of plain rows keeps SQLite's CHECKs aside to the end.
    @Test func whatALoadWritesPasses() {
        var seen = 0
        for tab in [Tab.transactions, .receipts] {
            for field in tab.schema.fields {
                guard let rule = FieldParser.FastRule(field.kind) else { continue }
                for text in Self.candidates where !text.isEmpty {
                    var copy = text
                    let loaded: [UInt8]? = copy.withUTF8 { p in
                        guard FieldParser.readsFast(p, rule) else { return nil }
                        var out: [UInt8] = []
                        return FieldParser.appendCanonical(p, field.kind, to: &out) ? out : nil
                    }
                    guard let loaded else { continue }
                    seen += 1
                    let passes = loaded.withUnsafeBufferPointer { DataTable.passesChecks($0, field) }
                    #expect(passes, "\(tab.rawValue).\(field.name): '\(text)' loads as '\(String(decoding: loaded, as: UTF8.self))'")
                }
            }
        }
        #expect(seen > 100)
    }
}
