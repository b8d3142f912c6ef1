import Foundation
import SheetSyncCore
import SheetValues
import Testing

/// Cost follows change: which rows a sync leaves out, and that leaving them out changes no
/// outcome. On values: the store's side is what `ChangeIndex` and a narrowed `LedgerState` hold.
@Suite struct ChangeScopeTests {
    typealias P = SyncPlannerTests

    /// The store's index after a sync of `workbook` and `ledger` that agree: the hashes that sync recorded.
    static func index(after workbook: [Tab: Table], _ ledger: LedgerState) -> ChangeIndex {
        let scope = ChangeScope.find(
            workbook: workbook, index: ChangeIndex(baseHashes: [:], dirty: [:], tombstones: [:], renamesPending: false))
        let plan = SyncPlanner(purpose: .sync(.sync), now: RC.now, newID: { P.ids[29] }).plan(
            workbook: workbook, ledger: ledger, scope: scope)
        var hashes: [Tab: BaseHashes] = [:]
        for tabPlan in plan.tabs {
            var recorded: [String: Int64] = [:]
            for key in (ledger.base[tabPlan.tab] ?? [:]).keys { recorded[key] = tabPlan.changes.rowHashes[key] ?? 0 }
            hashes[tabPlan.tab] = BaseHashes(recorded)
        }
        return ChangeIndex(baseHashes: hashes, dirty: [:], tombstones: [:], renamesPending: false)
    }

    /// The ledger as the store loads it for `scope`: a narrowed tab holds only the keys to load.
    static func narrowed(_ ledger: LedgerState, _ scope: ChangeScope) -> LedgerState {
        var result = ledger
        for (tab, tabScope) in scope.narrowed {
            result.rows[tab] = (ledger.rows[tab] ?? [:]).filter { tabScope.keysToLoad.contains($0.key) }
            result.base[tab] = (ledger.base[tab] ?? [:]).filter { tabScope.keysToLoad.contains($0.key) }
        }
        return result
    }

    static func setNote(_ note: String, row: Int, in table: inout Table) {
        let column = table.header.firstIndex(of: "note") ?? 0
        table.rows[row][column] = .text(note)
    }

    @Test func anUntouchedLedgerLeavesEveryTransactionOut() throws {
        let (workbook, ledger) = P.agreed(20)
        let index = Self.index(after: workbook, ledger)
        #expect(index.baseHashes[.transactions]?.hashes.allSatisfy { $0 != 0 } == true, "every agreed row's hash is recorded")
        let scope = ChangeScope.find(workbook: workbook, index: index)
        let transactions = try #require(scope.narrowed[.transactions])
        #expect(transactions.unchanged.count == 20)
        #expect(transactions.keysToLoad.isEmpty)
        let plan = P.plan(workbook, Self.narrowed(ledger, scope), scope: scope)
        #expect(plan.tabs.allSatisfy { !$0.changesLocal && !$0.changesRemote })
        #expect(plan.held.isEmpty && plan.converges)
    }

    @Test func oneEditedCellIsTheOneRowReadAndTheOutcomeIsTheFullPlans() throws {
        var (workbook, ledger) = P.agreed(20)
        let index = Self.index(after: workbook, ledger)
        var table = try #require(workbook[.transactions])
        Self.setNote("edited by hand", row: 7, in: &table)
        let column = try #require(table.header.firstIndex(of: "lastModifiedAt"))
        table.rows[7][column] = .text("2026-02-01T00:00:00Z")
        workbook[.transactions] = table
        let key = table.rows[7][0].rawText

        let scope = ChangeScope.find(workbook: workbook, index: index)
        let narrowed = try #require(scope.narrowed[.transactions])
        #expect(narrowed.keysToLoad == [key])
        #expect(narrowed.unchanged.count == 19 && !narrowed.unchanged.contains(key))
        let fast = try #require(P.tab(P.plan(workbook, Self.narrowed(ledger, scope), scope: scope), .transactions))
        let full = try #require(P.tab(P.plan(workbook, ledger), .transactions))
        #expect(fast.localUpserts == full.localUpserts && fast.localUpserts.count == 1)
        #expect(fast.localUpserts.first?.record[.note] == "edited by hand")
        #expect(fast.remoteUpdates == full.remoteUpdates && fast.remoteAppends == full.remoteAppends)
        #expect(fast.conflicts == full.conflicts && fast.rejections == full.rejections)
        // Only the edited row's base is rewritten; its new hash is the edited row's.
        #expect(fast.base.keys.sorted() == [key])
        #expect(fast.changes.rowHashes[key] == scope.hashes[.transactions]?[7])
    }

    @Test func aStoreEditIsLoadedAndPushedWhileTheRestStaysOut() throws {
        var (workbook, ledger) = P.agreed(20)
        var index = Self.index(after: workbook, ledger)
        let key = P.ids[3]
        var edited = try #require(ledger.rows[.transactions]?[key])
        edited[.note] = "edited in the store"
        edited[.lastModifiedAt] = "2026-02-01T00:00:00.000Z"
        ledger.rows[.transactions]?[key] = edited
        index.dirty[.transactions] = [key]
        let scope = ChangeScope.find(workbook: workbook, index: index)
        #expect(scope.narrowed[.transactions]?.keysToLoad == [key])
        let plan = try #require(P.tab(P.plan(workbook, Self.narrowed(ledger, scope), scope: scope), .transactions))
        #expect(plan.remoteUpdates.map(\.key) == [key])
        // The sheet row is rewritten: no hash is kept for it, so the next run reads it again once.
        #expect(plan.changes.rowHashes[key] == nil)
        #expect(plan.changes.settled == [key] && plan.changes.unsettled.isEmpty && !plan.changes.wholeTab)
        _ = workbook
    }

    @Test func aRowMissingFromTheSheetReadsTheTabWhole() throws {
        var (workbook, ledger) = P.agreed(20)
        let index = Self.index(after: workbook, ledger)
        workbook[.transactions]?.rows.remove(at: 4)
        #expect(ChangeScope.find(workbook: workbook, index: index).narrowed[.transactions] == nil)
        // The emptied tab still trips the guard: it sees the whole tab.
        workbook[.transactions]?.rows = []
        let scope = ChangeScope.find(workbook: workbook, index: index)
        #expect(scope.narrowed.isEmpty)
        #expect(P.plan(workbook, Self.narrowed(ledger, scope), scope: scope).blocked)
        _ = ledger
    }

    @Test func aChangedCategoryOrAPendingRenameReadsTransactionsWhole() throws {
        let (workbook, ledger) = P.agreed(5)
        var index = Self.index(after: workbook, ledger)
        var categories = try #require(workbook[.categories])
        let color = try #require(categories.header.firstIndex(of: "colorHex"))
        categories.rows[0][color] = .text("#123456")
        var changed = workbook
        changed[.categories] = categories
        #expect(ChangeScope.find(workbook: changed, index: index).narrowed.isEmpty)
        index.renamesPending = true
        #expect(ChangeScope.find(workbook: workbook, index: index).narrowed.isEmpty)
        index.renamesPending = false
        index.dirty[.categories] = ["Food"]
        #expect(ChangeScope.find(workbook: workbook, index: index).narrowed.isEmpty)
        _ = ledger
    }

    @Test func aRepeatedKeyOrAMovedColumnLeavesNoRowOut() throws {
        var (workbook, ledger) = P.agreed(6)
        let index = Self.index(after: workbook, ledger)
        var table = try #require(workbook[.transactions])
        table.rows.append(table.rows[2])
        workbook[.transactions] = table
        // Neither copy counts as the base's row, so the base key looks unseen: the tab is read whole.
        #expect(ChangeScope.find(workbook: workbook, index: index).narrowed[.transactions] == nil)

        table.rows.removeLast()
        table.header.swapAt(7, 8)
        for i in table.rows.indices { table.rows[i].swapAt(7, 8) }
        workbook[.transactions] = table
        let moved = try #require(ChangeScope.find(workbook: workbook, index: index).narrowed[.transactions])
        #expect(moved.unchanged.count == 0 && moved.keysToLoad.count == 6)
        _ = ledger
    }

    @Test func storeDeletesStillTripTheMassDeleteGuardWhenNarrowed() throws {
        var (workbook, ledger) = P.agreed(30)
        var index = Self.index(after: workbook, ledger)
        let gone = Array(P.ids[0..<20])
        for key in gone {
            ledger.rows[.transactions]?[key] = nil
            ledger.tombstones[.transactions, default: [:]][key] = RC.t0
        }
        index.tombstones[.transactions] = Set(gone)
        index.dirty[.transactions] = Set(gone)
        let scope = ChangeScope.find(workbook: workbook, index: index)
        #expect(scope.narrowed[.transactions]?.unchanged.count == 10)
        let plan = P.plan(workbook, Self.narrowed(ledger, scope), scope: scope)
        #expect(plan.blocked, "20 of 30 rows is a mass delete, counted against the whole tab")
        #expect(plan.held.first?.code == .massDelete && plan.held.first?.text.contains("20 of 30") == true, "\(plan.held)")
    }

    @Test func receiptsOfUnchangedTransactionsStayValid() throws {
        var (workbook, ledger) = P.agreed(4)
        let receipt = LedgerRow([
            .receiptId: P.ids[25], .transactionId: P.ids[1], .driveFileId: "drive-1", .fileName: "r.jpg", .createdAt: RC.t0,
            .lastModifiedAt: RC.t0,
        ])
        ledger.rows[.receipts] = [P.ids[25]: receipt]
        ledger.base[.receipts] = [P.ids[25]: receipt]
        workbook[.receipts] = P.table(.receipts, [receipt])
        let index = Self.index(after: workbook, ledger)
        var table = try #require(workbook[.receipts])
        let name = try #require(table.header.firstIndex(of: "fileName"))
        table.rows[0][name] = .text("renamed.jpg")
        workbook[.receipts] = table
        let scope = ChangeScope.find(workbook: workbook, index: index)
        #expect(scope.narrowed[.receipts]?.keysToLoad == [P.ids[25]])
        let plan = try #require(P.tab(P.plan(workbook, Self.narrowed(ledger, scope), scope: scope), .receipts))
        #expect(plan.rejections.isEmpty, "its transaction was left out as unchanged, not missing: \(plan.rejections)")
        #expect(plan.localUpserts.first?.record[.fileName] == "renamed.jpg")
    }

    @Test func theHashIsStableAndSeesEveryCell() {
        let seed = RowHash.seed(header: ["a", "b"])
        #expect(RowHash.of([.text("x"), .text("y")], seed: seed) == RowHash.of([.text("x"), .text("y"), .empty], seed: seed))
        #expect(RowHash.of([.text("xy"), .text("")], seed: seed) != RowHash.of([.text("x"), .text("y")], seed: seed))
        #expect(RowHash.of([.text("1")], seed: seed) != RowHash.of([.number("1")], seed: seed))
        #expect(RowHash.of([.text("x")], seed: seed) != RowHash.of([.text("x")], seed: RowHash.seed(header: ["b", "a"])))
        // Fixed across processes and machines (FNV-1a), so a stored hash means the same tomorrow.
        #expect(RowHash.of([.text("x")], seed: RowHash.seed(header: [])) == RowHash.of([.text("x")], seed: RowHash.seed(header: [])))
        #expect(RowHash.seed(header: []) == 0xcbf2_9ce4_8422_2325)
    }

    /// Cells are hashed eight bytes a step: a change to any one byte of a long cell, a zero byte
    /// added at the end, or bytes moved between cells still changes the hash.
    @Test func everyByteOfALongCellCounts() {
        let seed = RowHash.seed(header: ["note", "b"])
        let note = "A longer note, over several words of eight bytes: 12.50 at the market"
        let original = RowHash.of([.text(note), .text("b")], seed: seed)
        var hashes: Set<Int64> = [original]
        for offset in 0..<note.utf8.count {
            var bytes = Array(note.utf8)
            bytes[offset] ^= 0x01
            hashes.insert(RowHash.of([.text(String(decoding: bytes, as: UTF8.self)), .text("b")], seed: seed))
        }
        #expect(hashes.count == note.utf8.count + 1)
        #expect(RowHash.of([.text("abcdefgh\u{0}"), .text("b")], seed: seed) != RowHash.of([.text("abcdefgh"), .text("b")], seed: seed))
        #expect(RowHash.of([.text("abcdefghi"), .text("b")], seed: seed) != RowHash.of([.text("abcdefgh"), .text("ib")], seed: seed))
    }
}
