import Foundation
import GRDB
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// A sync reads, parses and reconciles only the rows that changed, through the binary on
/// the sample ledger: what each side holds after, and the same outcome as reading every row.
@Suite struct CostFollowsChangeTests {
    static let lunch = DataSafetyTests.lunch

    /// The store's change-tracking state, read as another SQLite client would.
    static func tracking(_ ledger: Ledger) throws -> (dirty: [String], unhashed: Int, based: Int) {
        let db = try DatabaseQueue(path: ledger.store.path)
        return try db.read { db in
            let dirty = try String.fetchAll(db, sql: "SELECT tab || '/' || key FROM sync_dirty ORDER BY 1")
            let unhashed = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_base WHERE raw_hash = 0") ?? -1
            let based = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_base") ?? -1
            return (dirty, unhashed, based)
        }
    }

    static func unhashed(_ ledger: Ledger) throws -> [String] {
        try DatabaseQueue(path: ledger.store.path).read { db in
            try String.fetchAll(db, sql: "SELECT tab || '/' || key FROM sync_base WHERE raw_hash = 0 ORDER BY 1")
        }
    }

    /// Another SQLite client's write, with the store's triggers doing their part.
    static func sql(_ ledger: Ledger, _ statement: String) throws {
        try DatabaseQueue(path: ledger.store.path).write { try $0.execute(sql: statement) }
    }

    @Test func afterASyncEveryRowIsHashedAndNothingIsMarkedChanged() async throws {
        let ledger = try await Ledger.synced()
        #expect(try await ledger.run("sync").status == 0)
        let state = try Self.tracking(ledger)
        #expect(state.dirty.isEmpty, "\(state.dirty)")
        #expect(state.unhashed == 0 && state.based > 10)
    }

    @Test func aRowEditedByHandIsPulledAndNoOtherRowMoves() async throws {
        let ledger = try await Ledger.synced()
        #expect(try await ledger.run("sync").status == 0)
        let storeBefore = try ledger.storeRows(.transactions)
        try ledger.workbook.edit(.transactions) { table in
            let row = table.rows.firstIndex { $0[0].rawText == Self.lunch } ?? 0
            table.rows[row][8] = .text("lunch, edited by hand")
            table.rows[row][13] = .text("2030-01-01T00:00:00Z")
        }
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        let storeAfter = try ledger.storeRows(.transactions)
        #expect(storeAfter[Self.lunch]?[.note] == "lunch, edited by hand")
        #expect(storeAfter.filter { $0.key != Self.lunch } == storeBefore.filter { $0.key != Self.lunch })
        #expect(try ledger.sheetRows(.transactions) == storeAfter)
        #expect(try Self.tracking(ledger).dirty.isEmpty)
    }

    @Test func aStoreRowChangedByAnotherSQLiteClientIsPushed() async throws {
        let ledger = try await Ledger.synced()
        #expect(try await ledger.run("sync").status == 0)
        try Self.sql(ledger, "UPDATE transactions SET note = 'changed with sqlite3' WHERE transactionId = '\(Self.lunch)'")
        #expect(try Self.tracking(ledger).dirty == ["Transactions/\(Self.lunch)"])
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.sheetRows(.transactions)[Self.lunch]?[.note] == "changed with sqlite3")
        #expect(try ledger.sheetRows(.transactions) == ledger.storeRows(.transactions))
        #expect(try Self.tracking(ledger).dirty.isEmpty)
        // The rewritten sheet row has no hash yet: the next sync that reads the workbook reads it once.
        #expect(try Self.tracking(ledger).unhashed == 1)
        try ledger.workbook.edit(.categories) { $0.rows[0][3] = .text("#303030") }
        #expect(try await ledger.run("sync").status == 0)
        // The pushed row was read and hashed; the recoloured category got a new lastModifiedAt written
        // back to its sheet row, so it is the one read again next time.
        #expect(try Self.unhashed(ledger) == ["Categories/Groceries"])
    }

    static func rawHash(_ ledger: Ledger, _ key: String) throws -> Int64? {
        try DatabaseQueue(path: ledger.store.path).read { db in
            try Int64.fetchOne(db, sql: "SELECT raw_hash FROM sync_base WHERE tab = 'Transactions' AND key = ?", arguments: [key])
        }
    }

    @Test func aCellOfAUserColumnEditedByHandIsSeenToo() async throws {
        let ledger = try await Ledger.synced()
        try ledger.workbook.edit(.transactions) { table in
            table.header.append("Memo")
            for i in table.rows.indices { table.rows[i].append(.text("m\(i)")) }
        }
        #expect(try await ledger.run("sync").status == 0)
        let before = try #require(try Self.rawHash(ledger, Self.lunch))
        let storeBefore = try ledger.storeRows(.transactions)
        try ledger.workbook.edit(.transactions) { table in
            let row = table.rows.firstIndex { $0[0].rawText == Self.lunch } ?? 0
            table.rows[row][table.header.count - 1] = .text("changed memo")
        }
        #expect(try await ledger.run("sync").status == 0)
        // The row was read again (its new hash is recorded); nothing of it is stored, so the store is as it was.
        let after = try #require(try Self.rawHash(ledger, Self.lunch))
        #expect(after != before && after != 0)
        #expect(try ledger.storeRows(.transactions) == storeBefore)
        #expect(try ledger.workbook.table(.transactions).rows.contains { $0.last == .text("changed memo") })
    }

    @Test func aPushCopiesEveryOtherRowAsItWasWritten() async throws {
        let ledger = try await Ledger.synced()
        #expect(try await ledger.run("sync").status == 0)
        // A row quoted where it need not be, as another program may write it: the same cells.
        let url = ledger.workbook.url(.transactions)
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let other = try #require(lines.indices.first { $0 > 0 && !lines[$0].hasPrefix(Self.lunch) && lines[$0].contains(",expense,") })
        lines[other] = lines[other].replacingOccurrences(of: ",expense,", with: ",\"expense\",")
        try lines.joined(separator: "\n").write(to: url, atomically: false, encoding: .utf8)
        try Self.sql(ledger, "UPDATE transactions SET note = 'pushed' WHERE transactionId = '\(Self.lunch)'")
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        let after = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        #expect(after[other] == lines[other], "the untouched row keeps its quotes")
        #expect(try ledger.sheetRows(.transactions)[Self.lunch]?[.note] == "pushed")
    }

    @Test func aTransactionDeletedInTheStoreWithAReceiptHoldsTheReceiptAndSaysHowToGetItBack() async throws {
        let ledger = try await Ledger.synced()
        let receipt = try #require(try ledger.sheetRows(.receipts).values.first)
        let id = receipt[.transactionId]
        try Self.sql(ledger, "DELETE FROM transactions WHERE transactionId = '\(id)'")
        let run = try await ledger.run("sync", "--json")
        #expect(run.status == 65)
        let rejected = run.report?.rejected.filter { $0.code == .unknownTransaction && $0.tab == .receipts } ?? []
        #expect(rejected.count == 1 && rejected[0].id == receipt[.receiptId] && rejected[0].message.contains(id), "\(run.stdout)")
        #expect(rejected.first?.hint.contains("sheetsync restore") == true, "\(run.stdout)")

        // The receipt is kept on both sides; the transaction can come back.
        #expect(try ledger.sheetRows(.receipts)[receipt[.receiptId]] != nil)
        #expect(try ledger.storeRows(.receipts)[receipt[.receiptId]] != nil)
        #expect(try await ledger.run("restore", id).status == 0)
        #expect(try await ledger.run("sync").status == 0)
        #expect(try ledger.sheetRows(.transactions)[id] != nil && ledger.storeRows(.transactions)[id] != nil)
    }

    /// The same hand edits on two copies of a ledger, one of which has forgotten every row hash (so it
    /// reads every row): both runs end with the same exit code, store and workbook.
    @Test(arguments: Edit.allCases)
    func leavingRowsOutChangesNoOutcome(_ edit: Edit) async throws {
        let fast = try await Ledger.synced("clean")
        let whole = try await Ledger.synced("clean")
        for ledger in [fast, whole] {
            #expect(try await ledger.run("sync").status == 0)
            try edit.apply(ledger)
        }
        try Self.sql(whole, "UPDATE sync_base SET raw_hash = 0")
        let a = try await fast.run("sync")
        let b = try await whole.run("sync")
        #expect(a.status == b.status, "\(a.stderr)\n---\n\(b.stderr)")
        // Timestamps a run or a trigger takes from the clock differ between the two copies.
        func comparable(_ rows: [String: LedgerRow]) -> [String: LedgerRow] {
            rows.mapValues { row in
                var row = row
                row[.lastModifiedAt] = ""
                return row
            }
        }
        for tab in Tab.allCases where tab != .settings {
            let (x, y) = (comparable(try fast.storeRows(tab)), comparable(try whole.storeRows(tab)))
            #expect(x == y, "store \(tab): \(x.filter { y[$0.key] != $0.value }) vs \(y.filter { x[$0.key] != $0.value })")
            let (p, q) = (comparable(try fast.sheetRows(tab)), comparable(try whole.sheetRows(tab)))
            #expect(p == q, "sheet \(tab): \(p.filter { q[$0.key] != $0.value }) vs \(q.filter { p[$0.key] != $0.value })")
            #expect(try fast.workbook.table(tab).rows.count == whole.workbook.table(tab).rows.count)
        }
    }

    enum Edit: String, CaseIterable, Sendable {
        case categoryRemovedByHand, categoryRecoloredAndARowEdited, rowDeletedByHand, columnsSwapped, categoryRenamedInStore

        func apply(_ ledger: Ledger) throws {
            let book = ledger.workbook
            switch self {
            case .categoryRemovedByHand:
                try book.edit(.categories) { table in table.rows.removeAll { $0[0].rawText == "Groceries" } }
            case .categoryRecoloredAndARowEdited:
                try book.edit(.categories) { $0.rows[0][3] = .text("#101010") }
                try book.edit(.transactions) { $0.rows[2][8] = .text("edited") }
            case .rowDeletedByHand:
                try book.edit(.transactions) { $0.rows.remove(at: 4) }
            case .columnsSwapped:
                try book.edit(.transactions) { table in
                    table.header.swapAt(7, 8)
                    for i in table.rows.indices where table.rows[i].count > 8 { table.rows[i].swapAt(7, 8) }
                }
            case .categoryRenamedInStore:
                try CostFollowsChangeTests.sql(ledger, "UPDATE categories SET colorHex = '#202020' WHERE name = 'Groceries'")
                try CostFollowsChangeTests.sql(
                    ledger, "UPDATE transactions SET note = 'store edit' WHERE transactionId = '\(CostFollowsChangeTests.lunch)'")
            }
        }
    }
}
