import Foundation
import GRDB
import SheetSyncCore

@testable import SheetSyncStore

/// Sample rows, one per tab, with every field filled the way the engine writes it.
enum Samples {
    static let transactionId = "6f1c2b0e-8a4d-4c3e-9f00-0123456789ab"
    static let ruleId = "0b7e9c52-1f3a-4d8e-a6b1-9c0d2e3f4a5b"
    static let created = "2026-01-02T03:04:05.006Z"
    static let modified = "2026-02-03T04:05:06.007Z"

    static func record(_ tab: Tab, _ overrides: [FieldKey: String] = [:]) -> LedgerRow {
        var fields = Dictionary(uniqueKeysWithValues: tab.schema.fields.map { ($0.key, "") })
        fields.merge(base(tab)) { _, new in new }
        fields.merge(overrides) { _, new in new }
        return LedgerRow(fields)
    }

    private static func base(_ tab: Tab) -> [FieldKey: String] {
        let stamps: [FieldKey: String] = [.createdAt: created, .lastModifiedAt: modified]
        switch tab {
        case .transactions:
            return stamps.merging([
                .transactionId: transactionId, .type: "expense", .date: "2026-03-15", .year: "2026", .month: "3",
                .amount: "12.50", .category: "Food", .tagsCSV: "lunch, work", .note: "soup \"and\" bread, =1+1",
                .paidFlag: "paid", .recurringRuleId: ruleId,
            ]) { a, _ in a }
        case .receipts:
            return stamps.merging([
                .receiptId: "a2c4e6f8-0b1d-4f3a-8c5e-7a9b1c3d5e7f", .transactionId: transactionId,
                .driveFileId: "1AbCdEf", .fileName: "20260315_Food_\(transactionId)_1.jpg",
            ]) { a, _ in a }
        case .categories:
            return stamps.merging([
                .name: "Food", .type: "expense", .emoji: "🍜", .colorHex: "#FF8800", .isActive: "TRUE",
                .sortOrder: "-3",
            ]) { a, _ in a }
        case .recurringRules:
            return stamps.merging([
                .recurringRuleId: ruleId, .isEnabled: "FALSE", .type: "income", .amount: "1200.00",
                .category: "Salary", .startDate: "2026-01-31", .cadence: "monthly", .interval: "2",
                .lastGeneratedDate: "2026-03-31",
            ]) { a, _ in a }
        case .settings:
            return stamps.merging([
                .datasetId: "d3b07384-d113-4ec6-a1a6-2b5e0f0c9d11", .schemaVersion: "1",
                .timezone: "Europe/Berlin", .dataSpreadsheetId: "1SheetId_x",
            ]) { a, _ in a }
        }
    }
}

/// Raw SQL, as a person in the sqlite3 shell (or any other client) would write it.
extension LedgerStore {
    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try writer.write { try $0.execute(sql: sql, arguments: arguments) }
    }

    func text(_ sql: String, _ arguments: StatementArguments = []) throws -> String? {
        try writer.read { try String.fetchOne($0, sql: sql, arguments: arguments) }
    }

    func int(_ sql: String, _ arguments: StatementArguments = []) throws -> Int64? {
        try writer.read { try Int64.fetchOne($0, sql: sql, arguments: arguments) }
    }

    func tombstoneKeys(_ tab: Tab) throws -> [String] {
        try writer.read {
            try String.fetchAll($0, sql: "SELECT key FROM sync_tombstones WHERE tab = ? ORDER BY key", arguments: [tab.rawValue])
        }
    }
}

/// A temporary folder removed when the test ends.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sheetsync-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
