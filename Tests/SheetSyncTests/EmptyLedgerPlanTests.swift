import Foundation
import SheetValues
import Testing

@testable import SheetSyncCore

/// A check or a first pull plans against an empty ledger; the reconciler then shares one dictionary
/// as the plan's result and base instead of building both. These plans must be exactly the plans the
/// general path makes, for every purpose, on the samples and on generated rows with every kind of
/// trouble (duplicate keys, missing ids, unknown categories, rejected rows, receipts of missing or
/// rejected transactions, future timestamps, non-ASCII keys).
@Suite struct EmptyLedgerPlanTests {
    static let now = Timestamp(iso: "2026-02-01T12:00:00.000Z")!
    static let purposes: [PlanPurpose] = [.checking, .sync(.pull), .sync(.sync), .sync(.push), .importing]

    /// Both plans of `workbook`, each with ids from the same seeded sequence.
    static func plans(_ workbook: [Tab: Table], ledger: LedgerState, purpose: PlanPurpose) -> (shared: SyncPlan, general: SyncPlan) {
        func plan(_ strategy: PlanStrategy) -> SyncPlan {
            let ids = SeededIDs(seed: 14)
            return SyncPlanner(purpose: purpose, now: now, strategy: strategy, newID: { ids.next() }).plan(
                workbook: workbook, ledger: ledger)
        }
        return (plan(.planWhole), plan(.reconcileEveryKey))
    }

    static func expectSame(_ workbook: [Tab: Table], ledger: LedgerState = LedgerState(rows: [:], base: [:])) {
        for purpose in purposes {
            let (shared, general) = plans(workbook, ledger: ledger, purpose: purpose)
            #expect(shared.tabs.map(\.tab) == general.tabs.map(\.tab), "\(purpose)")
            for (a, var b) in zip(shared.tabs, general.tabs) {
                let at = "\(purpose) \(a.tab.rawValue)"
                if purpose == .checking {
                    // Nobody applies a check's plan: its store writes are counted, not listed, and
                    // its sheet fixes come in sheet order (the general path lists them in key order).
                    #expect(a.localUpserts.isEmpty, "\(at)")
                    #expect(b.localUpserts.count == b.localCounts.added, "\(at)")
                    b.localUpserts = []
                    b.remoteUpdates.sort { $0.index < $1.index }
                }
                #expect(a.base == b.base, "\(at)")
                #expect(a.result == b.result, "\(at)")
                #expect(a.localUpserts == b.localUpserts, "\(at)")
                #expect(a.localDeletes == b.localDeletes, "\(at)")
                #expect(a.remoteUpdates == b.remoteUpdates, "\(at)")
                #expect(a.remoteAppends == b.remoteAppends, "\(at)")
                #expect(a.remoteDeletes == b.remoteDeletes, "\(at)")
                #expect(a.clearedTombstones == b.clearedTombstones, "\(at)")
                #expect(a.conflicts == b.conflicts, "\(at)")
                #expect(a.rejections == b.rejections, "\(at)")
                #expect(a.notices == b.notices, "\(at)")
                #expect(a.localCounts == b.localCounts && a.remoteCounts == b.remoteCounts, "\(at)")
                #expect(a.changes == b.changes && a.unchanged == b.unchanged, "\(at)")
                #expect(a == b, "\(at)")
            }
            #expect(shared.tabErrors == general.tabErrors, "\(purpose)")
            #expect(shared.missingTabs == general.missingTabs, "\(purpose)")
            #expect(shared.held == general.held, "\(purpose)")
            #expect(shared.blocked == general.blocked, "\(purpose)")
            #expect(shared.settings == general.settings, "\(purpose)")
        }
    }

    static func sample(_ name: String) throws -> [Tab: Table] {
        let workbook = TestWorkbook(folder: CLI.repoRoot.appendingPathComponent("samples").appendingPathComponent(name))
        var tables: [Tab: Table] = [:]
        for tab in Tab.allCases { tables[tab] = try workbook.table(tab) }
        return tables
    }

    /// A table of `tab` in its new header's column order, from rows of header name → cell text.
    static func table(_ tab: Tab, _ rows: [[String: String]]) -> Table {
        let header = TablePatcher.newHeader(tab.schema)
        return Table(header: header, rows: rows.map { row in header.map { row[$0].map(Cell.text) ?? .empty } })
    }

    /// The hand-edited sample with hundreds of generated rows of every kind of trouble added.
    static func troubled(sortedByKey: Bool = false) throws -> [Tab: Table] {
        var workbook = try sample("hand-edited")
        let ids = SeededIDs(seed: 99)
        let stamp = "2026-01-01T09:00:00Z"
        var transactions: [[String: String]] = []
        var keys: [String] = []
        for i in 0..<600 {
            var id = ids.next()
            if i % 23 == 0, let previous = keys.last { id = previous }  // a copy-pasted row
            let category = i % 13 == 0 ? "Grocery" : i % 31 == 0 ? "groceries" : i % 7 == 0 ? "Café" : "Groceries"
            var row = [
                "transactionId": i % 17 == 0 ? "" : id, "type": i % 5 == 0 ? "income" : "expense", "date": "2026-01-\(10 + i % 18)",
                "amount": i % 19 == 0 ? "abc" : "\(i).25", "category": category, "note": "row \(i)",
                "createdAt": stamp, "lastModifiedAt": i % 41 == 0 ? "2099-01-01T00:00:00Z" : stamp,
            ]
            if i % 29 == 0 { row["note"] = "a second purchase" }
            if i % 37 == 0 { row["transactionId"] = "not-an-id" }
            transactions.append(row)
            keys.append(id)
        }
        // A row whose key cannot be read at all: deletes are suspended.
        transactions.append(["transactionId": "", "amount": "abc", "category": "Groceries", "date": "2026-01-03"])
        if sortedByKey { transactions.sort { ($0["transactionId"] ?? "") < ($1["transactionId"] ?? "") } }
        var receipts: [[String: String]] = []
        for i in 0..<200 {
            // Receipts of loaded, rejected, missing and unreadable transactions.
            let target = i % 9 == 0 ? ids.next() : keys[(i * 7) % keys.count]
            receipts.append([
                "receiptId": i % 11 == 0 ? "" : ids.next(), "transactionId": target, "driveFileId": "drive-\(i)",
                "fileName": "r\(i).jpg", "createdAt": stamp, "lastModifiedAt": stamp,
            ])
        }
        var categories = workbook[.categories] ?? table(.categories, [])
        let added = table(
            .categories,
            [
                ["name": "Café", "type": "expense", "isActive": "TRUE", "createdAt": stamp, "lastModifiedAt": stamp],
                ["name": "Café", "type": "income", "isActive": "TRUE", "createdAt": stamp, "lastModifiedAt": stamp],
                ["name": "Zoo", "type": "nonsense", "isActive": "TRUE", "createdAt": stamp, "lastModifiedAt": stamp],
            ])
        let header = categories.header
        categories.rows += added.rows.map { cells in header.map { name in added.header.firstIndex(of: name).map { cells[$0] } ?? .empty } }
        workbook[.categories] = categories
        workbook[.transactions] = table(.transactions, transactions)
        workbook[.receipts] = table(.receipts, receipts)
        return workbook
    }

    @Test func theSamplesPlanAlikeBothWays() throws {
        for name in ["clean", "hand-edited"] {
            Self.expectSame(try Self.sample(name))
        }
    }

    @Test func troubledRowsPlanAlikeBothWays() throws {
        let workbook = try Self.troubled()
        Self.expectSame(workbook)
        Self.expectSame(try Self.troubled(sortedByKey: true))
        // The rows really are troubled, and the shortcut really was taken.
        let check = Self.plans(workbook, ledger: LedgerState(rows: [:], base: [:]), purpose: .checking).shared
        let transactions = try #require(check.tabs.first { $0.tab == .transactions })
        #expect(transactions.rejections.contains { $0.code == .unknownCategory }, "\(transactions.rejections)")
        #expect(transactions.rejections.count > 50)
        #expect(transactions.notices.contains { $0.code == .duplicateId })
        #expect(transactions.notices.contains { $0.code == .futureTimestamp })
        #expect(transactions.result.count > 400 && transactions.base == transactions.result)
        let receipts = try #require(check.tabs.first { $0.tab == .receipts })
        #expect(receipts.rejections.contains { $0.message.hasPrefix("transaction '") && $0.message.hasSuffix("' does not exist") })
        let categories = try #require(check.tabs.first { $0.tab == .categories })
        #expect(categories.rejections.contains { $0.message == "duplicate name 'Café'" })
    }

    /// Store rows that all fail to read leave no local rows, yet the store still has them as read.
    @Test func unreadableStoreRowsPlanAlikeBothWays() throws {
        let workbook = try Self.troubled()
        let id = "0b6f5c1e-3d4a-4e2b-9c1d-2f3e4a5b6c7d"
        let broken = LedgerRow([
            .transactionId: id, .type: "expense", .date: "2026-01-15", .year: "2026", .month: "1", .amount: "abc",
            .category: "Groceries", .tagsCSV: "", .note: "", .paidFlag: "", .reimbursedFlag: "", .recurringRuleId: "",
            .createdAt: "2026-01-01T09:00:00.000Z", .lastModifiedAt: "2026-01-01T09:00:00.000Z",
        ])
        Self.expectSame(workbook, ledger: LedgerState(rows: [.transactions: [id: broken]], base: [:]))
    }

    /// The key order is `String` order whatever the keys and however they arrive.
    @Test func visitsComeInStringOrder() {
        let ids = SeededIDs(seed: 5)
        let uuids = (0..<300).map { _ in ids.next() }
        let cases: [[String]] = [
            uuids, uuids.sorted(), uuids.sorted().reversed(), ["b", "a", "ab", "a\u{0}", ""],
            ["Zoo", "Café", "Cafe", "\u{e9}x", "Ärger"],
            ["same-prefix-long-key-2", "same-prefix-long-key-10", "same-prefix-long-key-1", "same-prefix-long"],
            ["same-prefix-long-key-2", "same-prefix-long-key-\u{e9}", "same-prefix-long-key-1"], ["b", "a", "ab", "a\u{7f}", "a\u{0}"],
        ]
        for keys in cases {
            let remote = Dictionary(keys.map { ($0, 0) }, uniquingKeysWith: { a, _ in a })
            let visits = KeyOrder.visits([String: Int](), [String: Int](), remote, [])
            #expect(visits.map(\.key) == Array(remote.keys).sorted())
            let split = Dictionary(uniqueKeysWithValues: remote.keys.enumerated().filter { $0.offset % 3 == 0 }.map { ($0.element, 1) })
            let frozenOnly = "~ frozen only"
            let frozen = Set(remote.keys.enumerated().filter { $0.offset % 3 == 1 }.map(\.element)).union([frozenOnly])
            let remoteOnly = remote.filter { split[$0.key] == nil }
            let mixed = KeyOrder.visits(split, [String: Int](), remoteOnly, frozen)
            #expect(mixed.map(\.key) == (Array(remote.keys) + [frozenOnly]).sorted())
            for visit in mixed {
                switch visit.source {
                case .baseOrLocal: #expect(split[visit.key] != nil)
                case .remote(let at): #expect(split[visit.key] == nil && remoteOnly.keys[at] == visit.key)
                case .frozen: #expect(visit.key == frozenOnly)
                }
            }
        }
    }
}
