import Foundation
import GRDB
import SheetSync
import SheetValues
import Testing
import Workbook

@testable import SheetSyncCore
@testable import SheetSyncStore

/// A pull into an empty store loads plain Transactions and Receipts as read (`PlainLoad`) instead of
/// planning each row: the store it leaves (every table: rows, base, hashes, dirty marks, state, logs),
/// the report, the dry run's lines and the workbook are exactly those of planning each row, on the
/// sample and on every valid form and kind of problem people write.
@Suite struct PlainLoadTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../samples")
    static let now = Timestamp(iso: "2026-11-26T12:00:00Z")!

    typealias Book = [Tab: [[String]]]

    static func clean() throws -> Book {
        var book: Book = [:]
        for tab in Tab.allCases {
            let url = samples.appendingPathComponent("clean/\(tab.rawValue).csv")
            let file = try CSVReader.parse(Array(try Data(contentsOf: url)), source: url.lastPathComponent)
            book[tab] = [file.table.header] + file.table.rows.map { $0.map(\.rawText) }
        }
        return book
    }

    static func write(_ book: Book, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (tab, rows) in book {
            let text = rows.map { $0.map(field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
            try Data(text.utf8).write(to: folder.appendingPathComponent("\(tab.rawValue).csv"))
        }
    }

    static func field(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Everything a pull leaves: each store table's rows (sorted), the report, and the workbook's bytes.
    struct Outcome: Equatable {
        var tables: [String: [String]]
        var report: String
        var files: [String: Data]
    }

    final class Counter: @unchecked Sendable {
        private var n = 0
        func next() -> String {
            n += 1
            return String(format: "00000000-0000-4000-8000-%012d", n)
        }
    }

    static func pull(_ book: Book, strategy: PlanStrategy, dryRun: Bool = false) async throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plain-load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let workbook = folder.appendingPathComponent("book")
        try write(book, to: workbook)
        let path = folder.appendingPathComponent("sheetsync.sqlite").path
        let store = try LedgerStore(path: path)
        let counter = Counter()
        let engine = SyncEngine(
            store: store, remote: CSVWorkbookRemote(folder: workbook), clock: ManualClock(now), newID: { counter.next() })
        let report: String
        do {
            let result = try await engine.run(SyncOptions(mode: .pull, dryRun: dryRun), strategy: strategy)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            report = String(decoding: try encoder.encode(result), as: UTF8.self)
        } catch {
            report = "error: \(error)"
        }
        let tables = try await DatabaseQueue(path: path).read { db in
            var tables: [String: [String]] = [:]
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'")
            for name in names {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier)")
                tables[name] = rows.map { $0.description }.sorted()
            }
            return tables
        }
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: workbook.path) {
            files[name] = try Data(contentsOf: workbook.appendingPathComponent(name))
        }
        return Outcome(tables: tables, report: report, files: files)
    }

    /// Both ways on `book` (and both dry runs): the same outcome.
    static func compare(_ book: Book, _ name: String) async throws {
        let loaded = try await pull(book, strategy: .loadPlain)
        let planned = try await pull(book, strategy: .planWhole)
        let same = loaded == planned
        #expect(same, "\(name): the load left another store, report or workbook than planning each row")
        if !same {
            for (table, rows) in planned.tables where loaded.tables[table] != rows {
                let missing = rows.filter { !(loaded.tables[table] ?? []).contains($0) }.prefix(3)
                let extra = (loaded.tables[table] ?? []).filter { !rows.contains($0) }.prefix(3)
                Issue.record("\(name): \(table) differs; planned only: \(Array(missing)); loaded only: \(Array(extra))")
            }
            if loaded.report != planned.report { Issue.record("\(name): report \(loaded.report) vs \(planned.report)") }
        }
        let loadedDry = try await pull(book, strategy: .loadPlain, dryRun: true)
        let plannedDry = try await pull(book, strategy: .planWhole, dryRun: true)
        let sameDry = loadedDry == plannedDry
        #expect(sameDry, "\(name), dry run: \(loadedDry.report) vs \(plannedDry.report)")
    }

    static func set(_ book: inout Book, _ tab: Tab, row: Int, _ header: String, _ value: String) {
        let c = book[tab]![0].firstIndex(of: header)!
        while book[tab]![row].count <= c { book[tab]![row].append("") }
        book[tab]![row][c] = value
    }

    /// The planner does load a plain workbook (else the comparisons would show nothing), and only
    /// on a pull into a store that has nothing of the tab.
    @Test func aPullLoadsPlainTabsAndNothingElseDoes() throws {
        let book = try Self.clean()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plain-load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(book, to: folder)
        var tables: [Tab: SheetValues.Table] = [:]
        for tab in Tab.allCases {
            let url = folder.appendingPathComponent("\(tab.rawValue).csv")
            tables[tab] = try CSVReader.parse(Array(try Data(contentsOf: url)), source: url.lastPathComponent).table
        }
        let empty = LedgerState(rows: [:], base: [:])
        let pull = SyncPlanner(purpose: .sync(.pull), now: Self.now) { "" }.plan(workbook: tables, ledger: empty)
        let loaded = pull.tabs.filter { $0.load != nil }.map(\.tab)
        #expect(Set(loaded) == [.transactions, .receipts])
        #expect(pull.tabs.first { $0.tab == .transactions }?.load?.count == book[.transactions]!.count - 1)
        for purpose in [PlanPurpose.sync(.sync), .sync(.push), .checking, .importing] {
            let plan = SyncPlanner(purpose: purpose, now: Self.now) { "" }.plan(workbook: tables, ledger: empty)
            #expect(plan.tabs.allSatisfy { $0.load == nil }, "\(purpose)")
            // Asked for, the load still applies to a pull only.
            let asked = SyncPlanner(purpose: purpose, now: Self.now, strategy: .loadPlain) { "" }.plan(workbook: tables, ledger: empty)
            #expect(asked.tabs.allSatisfy { $0.load == nil }, "\(purpose)")
        }
        // A pull planning whole loads nothing.
        for strategy in [PlanStrategy.planWhole, .reconcileEveryKey] {
            let plan = SyncPlanner(purpose: .sync(.pull), now: Self.now, strategy: strategy) { "" }.plan(workbook: tables, ledger: empty)
            #expect(plan.tabs.allSatisfy { $0.load == nil }, "\(strategy)")
        }
    }

    @Test func theSampleLoadsAsPlanned() async throws {
        try await Self.compare(try Self.clean(), "the clean sample")
    }

    /// Valid forms people and tools write, and problems: each pulled both ways.
    @Test func formsAndProblemsLoadAsPlanned() async throws {
        let base = try Self.clean()
        let id = base[.transactions]![3][0]
        let edits: [(String, (inout Book) -> Void)] = [
            ("upper-case id", { Self.set(&$0, .transactions, row: 3, "transactionId", id.uppercased()) }),
            ("id in braces", { Self.set(&$0, .transactions, row: 3, "transactionId", "{\(id)}") }),
            ("Expense", { Self.set(&$0, .transactions, row: 3, "type", "Expense") }),
            ("slashed date", { Self.set(&$0, .transactions, row: 2, "date", "2026/1/5") }),
            ("month with a zero", { Self.set(&$0, .transactions, row: 4, "month", "0" + $0[.transactions]![4][4]) }),
            ("currency amount", { Self.set(&$0, .transactions, row: 3, "amount", "$1,234.50") }),
            ("whole amount", { Self.set(&$0, .transactions, row: 3, "amount", "12") }),
            ("PAID", { Self.set(&$0, .transactions, row: 3, "paidFlag", "PAID") }),
            ("spaced category", { Self.set(&$0, .transactions, row: 3, "category", " Groceries ") }),
            ("quoted note", { Self.set(&$0, .transactions, row: 3, "note", "a \"quoted\", two-line\nnote\u{7F}") }),
            ("Z timestamps", { Self.set(&$0, .transactions, row: 3, "lastModifiedAt", "2026-01-01T09:00:00Z") }),
            ("offset timestamp", { Self.set(&$0, .transactions, row: 3, "createdAt", "2026-01-01T10:00:00+01:00") }),
            ("fraction timestamp", { Self.set(&$0, .transactions, row: 3, "createdAt", "2026-01-01T10:00:00.5Z") }),
            ("upper-case rule id", { $0[.transactions]![3][11] = $0[.recurringRules]![1][0].uppercased() }),
            (
                "user column",
                { book in
                    for r in book[.transactions]!.indices { book[.transactions]![r].append(r == 0 ? "Shop" : "Aldi, Main St") }
                }
            ),
            ("blank row", { $0[.transactions]!.append(Array(repeating: "", count: 14)) }),
            ("columns reordered", { book in book[.transactions] = book[.transactions]!.map { Array($0.reversed()) } }),
            (
                "receipt points at an upper-case id",
                { Self.set(&$0, .receipts, row: 1, "transactionId", $0[.receipts]![1][1].uppercased()) }
            ),
            // Problems: the tab is planned row by row, and reports the same.
            ("unknown category", { Self.set(&$0, .transactions, row: 3, "category", "Nope") }),
            ("no id", { Self.set(&$0, .transactions, row: 3, "transactionId", "") }),
            ("an id twice", { $0[.transactions]!.append($0[.transactions]![2]) }),
            ("year not the date's", { Self.set(&$0, .transactions, row: 3, "year", "1999") }),
            ("no createdAt", { Self.set(&$0, .transactions, row: 3, "createdAt", "") }),
            ("far future", { Self.set(&$0, .transactions, row: 3, "lastModifiedAt", "2030-01-01T00:00:00Z") }),
            ("receipt of no transaction", { Self.set(&$0, .receipts, row: 1, "transactionId", "11111111-2222-3333-4444-555555555555") }),
            ("a bad category row", { Self.set(&$0, .categories, row: 1, "type", "bogus") }),
            ("no Receipts file", { $0[.receipts] = nil }),
            ("header only", { $0[.transactions] = [$0[.transactions]![0]] }),
            // A year the store's CHECK refuses though the row reads: the CHECKs come back on for it.
            (
                "year 0",
                { book in
                    Self.set(&book, .transactions, row: 3, "date", "0000-03-01")
                    Self.set(&book, .transactions, row: 3, "year", "0")
                    Self.set(&book, .transactions, row: 3, "month", "3")
                }
            ),
        ]
        for (name, edit) in edits {
            var book = base
            edit(&book)
            try await Self.compare(book, name)
        }
    }

    /// The sample's Transactions as a load, read from its file.
    static func transactionsLoad() throws -> PlainLoad {
        let url = samples.appendingPathComponent("clean/Transactions.csv")
        let table = try CSVReader.parse(Array(try Data(contentsOf: url)), source: url.lastPathComponent).table
        let categories: Set<String> = ["Groceries", "Rent", "Dining", "Transport", "Utilities", "Salary", "Gifts"]
        let plain = try #require(PlainRows.scan(table, schema: Tab.transactions.schema, now: now, categories: categories))
        return try #require(PlainLoad(table, tab: .transactions, plain: plain, hashes: nil))
    }

    /// A new store in a folder of its own (the caller removes the folder).
    static func emptyStore() throws -> (LedgerStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plain-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try LedgerStore(path: folder.appendingPathComponent("s.sqlite").path), folder)
    }

    /// Another SQLite client wrote a transaction between the run's read and its commit: nothing of the
    /// load is written (the rows are reported as skipped; the next run plans them one by one).
    @Test func aTabWrittenToDuringTheRunIsNotLoaded() throws {
        let (store, folder) = try Self.emptyStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let load = try Self.transactionsLoad()
        let stamp = "2026-01-01T09:00:00.000Z"
        let other = LedgerRow([
            .transactionId: "11111111-2222-4333-8444-555555555555", .type: "expense", .date: "2026-01-02", .year: "2026",
            .month: "1", .amount: "1.00", .category: "Groceries", .createdAt: stamp, .lastModifiedAt: stamp,
        ])
        _ = try store.upsert(other, in: .transactions)
        var commit = StoreCommit()
        commit.loads[.transactions] = load
        let outcome = try store.commit(commit)
        #expect(outcome.skipped[.transactions] == load.keys.sorted())
        #expect(try store.snapshot().rows[.transactions]?.keys.sorted() == [other[.transactionId]])
        #expect(try store.snapshot().base[.transactions]?.isEmpty ?? true)
    }

    /// After a load SQLite checks every write again: the CHECKs were set aside for the load only.
    @Test func theChecksAreBackAfterALoad() throws {
        let (store, folder) = try Self.emptyStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let load = try Self.transactionsLoad()
        var commit = StoreCommit()
        commit.loads[.transactions] = load
        #expect(try store.commit(commit).skipped.isEmpty)
        #expect(try store.snapshot().rows[.transactions]?.count == load.count)
        #expect(try store.snapshot().base[.transactions]?.count == load.count)
        let bad = """
            INSERT INTO transactions (transactionId, type, date, year, month, amount, category, createdAt, lastModifiedAt)
            VALUES ('22222222-2222-4333-8444-555555555555', 'expense', '2026-01-02', 2026, 1, 'abc', 'Groceries',
            '2026-01-01T09:00:00.000Z', '2026-01-01T09:00:00.000Z')
            """
        #expect(throws: DatabaseError.self) { try store.writer.write { try $0.execute(sql: bad) } }
        let flag = try store.writer.read { try Int.fetchOne($0, sql: "PRAGMA ignore_check_constraints") }
        #expect(flag == 0)
    }
}
