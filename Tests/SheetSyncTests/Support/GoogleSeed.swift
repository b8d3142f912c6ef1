import Foundation
import GRDB
import SheetSyncCore
import SheetValues
import SheetsEmulator

/// Spreadsheets as a person keeps them (typed cells: dates become dates, amounts numbers), put straight
/// into the emulator so a test starts from any size of ledger without a slow first push.
enum GoogleSeed {
    static let categories = ["Food", "Rent", "Fun"]
    static let stamp = "2026-02-01T00:00:00.000Z"

    /// A five-tab spreadsheet with the Settings row, three categories and `transactions` rows (ids from
    /// `ids`; notes `n0`, `n1`, …); links `bed`'s config to it and returns the transaction ids in row order.
    @discardableResult
    static func ledger(in bed: GoogleTestBed, transactions count: Int, ids: SeededIDs, tabs present: [Tab] = Tab.allCases) throws
        -> [String]
    {
        let keys = (0..<count).map { _ in ids.next() }
        let transactions = keys.enumerated().map { i, key in
            [
                key, "expense", "2026-02-\(10 + i % 18)", "2026", "2", "\(i % 90 + 1).25", categories[i % 3], "", "n\(i)", "", "", "",
                stamp, stamp,
            ]
        }
        let tabs: [Tab: [[String]]] = [
            .settings: [[ids.next(), "1", "UTC", "", "", "", stamp, stamp]],
            .categories: categories.enumerated().map { i, name in [name, "expense", "", "", "TRUE", "\(i + 1)", stamp, stamp] },
            .transactions: transactions,
        ]
        let id = try bed.emulator.createSpreadsheet(
            title: "Ledger",
            tabs: present.map { tab in
                let rows = [TablePatcher.newHeader(tab.schema)] + (tabs[tab] ?? [])
                return EmulatedTab(name: tab.rawValue, typed: rows, rowCount: max(1000, rows.count + 100))
            })
        try bed.writeConfig(spreadsheetId: id)
        return keys
    }

    /// Adds `count` transactions to the store in one SQLite transaction, as another client would (notes from
    /// `note`); returns their ids in order.
    @discardableResult
    static func storeTransactions(_ bed: GoogleTestBed, count: Int, ids: SeededIDs, note: (Int) -> String = { "s\($0)" }) throws
        -> [String]
    {
        let keys = (0..<count).map { _ in ids.next() }
        let queue = try DatabaseQueue(path: bed.storeURL.path)
        try queue.write { db in
            let statement = try db.makeStatement(
                sql: "INSERT INTO transactions (transactionId, type, date, year, month, amount, category, tagsCSV, note, "
                    + "createdAt, lastModifiedAt) VALUES (?, 'expense', ?, 2026, 3, ?, ?, 'a,b', ?, ?, ?)")
            for (i, key) in keys.enumerated() {
                try statement.execute(arguments: [
                    key, "2026-03-\(String(format: "%02d", 1 + i % 28))", "\(i % 500 + 1).\(String(format: "%02d", i % 100))",
                    categories[i % 3], note(i), stamp, stamp,
                ])
            }
        }
        return keys
    }

    /// Runs SQL on the store as another SQLite client would (the store's triggers stamp the change).
    static func sql(_ bed: GoogleTestBed, _ statement: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: bed.storeURL.path)
        try queue.write { try $0.execute(sql: statement, arguments: arguments) }
    }
}
