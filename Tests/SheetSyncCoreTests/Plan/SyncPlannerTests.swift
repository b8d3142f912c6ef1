import Foundation
import SheetSyncCore
import SheetValues
import Testing

/// Every guard of the planner, on values: no files, no store.
@Suite struct SyncPlannerTests {
    static let ids = (0..<30).map { String(format: "00000000-0000-4000-8000-%012d", $0) }

    static func table(_ tab: Tab, _ records: [LedgerRow]) -> Table {
        let schema = tab.schema
        return Table(
            header: TablePatcher.newHeader(schema),
            rows: records.map { r in schema.fields.map { FieldParser.cell(r[$0.key], $0, typed: false) } })
    }

    /// A ledger whose store, base and workbook agree: one category and `count` transactions.
    static func agreed(_ count: Int, modified: (Int) -> String = { _ in RC.t0 }) -> (workbook: [Tab: Table], ledger: LedgerState) {
        let category = RC.category("Food")
        let transactions = (0..<count).map { RC.transaction(ids[$0], modified: modified($0)) }
        let rows: [Tab: [String: LedgerRow]] = [
            .categories: ["Food": category],
            .transactions: Dictionary(uniqueKeysWithValues: transactions.map { ($0[.transactionId], $0) }),
        ]
        var workbook: [Tab: Table] = [:]
        for tab in Tab.allCases { workbook[tab] = table(tab, Array((rows[tab] ?? [:]).values)) }
        return (workbook, LedgerState(rows: rows, base: rows))
    }

    static func plan(
        _ workbook: [Tab: Table], _ ledger: LedgerState, purpose: PlanPurpose = .sync(.sync),
        allowMassDelete: Bool = false, scope: ChangeScope? = nil
    ) -> SyncPlan {
        SyncPlanner(purpose: purpose, allowMassDelete: allowMassDelete, now: RC.now, newID: { "00000000-0000-4000-8000-999999999999" })
            .plan(workbook: workbook, ledger: ledger, scope: scope)
    }

    static func tab(_ plan: SyncPlan, _ tab: Tab) -> TabPlan? { plan.tabs.first { $0.tab == tab } }

    @Test func aMissingTabTheBaseKnowsIsUnreadableNotEmpty() {
        var (workbook, ledger) = Self.agreed(3)
        workbook[.transactions] = nil
        let plan = Self.plan(workbook, ledger)
        #expect(plan.missingTabs == [.transactions])
        #expect(plan.tabErrors.map(\.tab) == [.transactions])
        #expect(Self.tab(plan, .transactions) == nil)
        #expect(plan.tabs.allSatisfy { $0.localDeletes.isEmpty })
        #expect(!plan.converges)
        // A tab never synced is new, not missing: it is created by the push.
        ledger.base[.transactions] = [:]
        let fresh = Self.plan(workbook, ledger)
        #expect(fresh.missingTabs.isEmpty)
        #expect(Self.tab(fresh, .transactions)?.remoteAppends.count == 3)
    }

    @Test func aMissingSettingsTabIsRecreatedFromTheStore() {
        var (workbook, ledger) = Self.agreed(1)
        let settings = LedgerRow([
            .datasetId: Self.ids[20], .schemaVersion: "1", .timezone: "UTC", .rootFolderId: "",
            .dataSpreadsheetId: "", .receiptsFolderId: "", .createdAt: RC.t0, .lastModifiedAt: RC.t0,
        ])
        ledger.rows[.settings] = [Self.ids[20]: settings]
        ledger.base[.settings] = [Self.ids[20]: settings]
        workbook[.settings] = nil
        let plan = Self.plan(workbook, ledger)
        #expect(plan.tabErrors.isEmpty)
        #expect(Self.tab(plan, .settings)?.remoteAppends == [settings])
        #expect(Self.tab(plan, .settings)?.localDeletes.isEmpty == true)
    }

    @Test func emptyingATabIsHeldWhateverTheCount() {
        var (workbook, ledger) = Self.agreed(2)
        workbook[.transactions] = Self.table(.transactions, [])
        let plan = Self.plan(workbook, ledger)
        #expect(plan.blocked)
        #expect(plan.held.map(\.code) == [.massDelete] && plan.held.first?.place == .tab(.transactions))
        #expect(
            plan.held.map(\.text) == [
                "Transactions: this run would delete every row (2 of 2) from the store; nothing was changed. "
                    + "If that is intended, run again with --allow-mass-delete; if not, put the rows back in the workbook "
                    + "(the spreadsheet's undo or version history, the copy in .sheetsync-backup/ beside a CSV or XLSX workbook, "
                    + "or the tab of `sheetsync export DIR`): the store still has every one"
            ])
        #expect(!Self.plan(workbook, ledger, allowMassDelete: true).blocked)
        // The store side too: a `DELETE FROM transactions`.
        (workbook, ledger) = Self.agreed(2)
        ledger.rows[.transactions] = [:]
        let held = Self.plan(workbook, ledger).held.first
        #expect(held?.code == .massDelete && held?.text.contains("from the workbook") == true)
    }

    /// A cleared tab stays held when some of its rows were changed in the store since: the edit wins
    /// over the delete for those, but the rest must not go (after a held clear, any local
    /// edit let 8 of 9 rows, or 11 of 22, be deleted with exit 0).
    @Test func anEmptiedTabIsHeldEvenWhenStoreEditsBringSomeRowsBack() {
        for count in [9, 22] {
            var (workbook, ledger) = Self.agreed(count)
            workbook[.transactions] = Self.table(.transactions, [])
            for i in 0..<(count / 2) {
                ledger.rows[.transactions]?[Self.ids[i]] = RC.transaction(Self.ids[i], note: "edited", modified: RC.t1)
            }
            let plan = Self.plan(workbook, ledger)
            #expect(plan.blocked, "\(count) rows")
            #expect(
                plan.held.first?.code == .massDelete && plan.held.first?.place == .tab(.transactions)
                    && plan.held.first?.message.hasPrefix("the workbook's tab has no rows") == true, "\(plan.held)")
            #expect(!Self.plan(workbook, ledger, allowMassDelete: true).blocked)
        }
    }

    @Test func deletingMoreThanHalfAndMoreThanTenIsHeldButAFewIsNot() {
        var (workbook, ledger) = Self.agreed(24)
        let kept = (0..<24).filter { $0 >= 12 }.map { RC.transaction(Self.ids[$0]) }
        workbook[.transactions] = Self.table(.transactions, kept)
        #expect(!Self.plan(workbook, ledger).blocked)  // 12 of 24: not more than half
        workbook[.transactions] = Self.table(.transactions, Array(kept.dropFirst()))
        #expect(Self.plan(workbook, ledger).blocked)  // 13 of 24
        (workbook, ledger) = Self.agreed(24)
        workbook[.transactions] = Self.table(.transactions, (3..<24).map { RC.transaction(Self.ids[$0]) })
        let few = Self.plan(workbook, ledger)
        #expect(!few.blocked && Self.tab(few, .transactions)?.localDeletes.count == 3)
    }

    @Test func anOlderCopyLackingNewerRowsWritesThemBackInsteadOfDeleting() {
        // Rows 0–4 are old; rows 5 and 6 were added after the copy was made.
        let (_, ledger) = Self.agreed(7) { $0 >= 5 ? RC.t2 : RC.t0 }
        let old = Self.table(.transactions, (0..<5).map { RC.transaction(Self.ids[$0]) })
        var workbook = Self.agreed(0).workbook
        workbook[.transactions] = old
        let plan = Self.plan(workbook, ledger)
        let transactions = Self.tab(plan, .transactions)
        #expect(transactions?.localDeletes.isEmpty == true)
        #expect(Set(transactions?.remoteAppends.map { $0[.transactionId] } ?? []) == [Self.ids[5], Self.ids[6]])
        #expect(plan.held.first?.code == .olderCopy && plan.held.first?.place == .tab(.transactions), "\(plan.held)")
        #expect(!plan.blocked)
        // With --allow-mass-delete the deletes are applied.
        #expect(Self.tab(Self.plan(workbook, ledger, allowMassDelete: true), .transactions)?.localDeletes.count == 2)
    }

    /// The one row newer than everything in the workbook, missing: a row an older copy never had (cron
    /// added it while the file was open) looks exactly like the newest row deleted on purpose. It is
    /// written back once (held, saying so); once written back so, its absence is a delete.
    @Test func theOneNewestRowMissingIsWrittenBackOnceThenDeleted() {
        var (_, ledger) = Self.agreed(6) { $0 == 5 ? RC.t2 : RC.t0 }
        var workbook = Self.agreed(0).workbook
        workbook[.transactions] = Self.table(.transactions, (0..<5).map { RC.transaction(Self.ids[$0]) })
        // A row another store added (and deleted): a delete here.
        #expect(Self.plan(workbook, ledger).held.isEmpty)
        // A row this store added to the workbook itself: written back once.
        ledger.appendedHere[.transactions] = [Self.ids[5]: RC.t2]
        let first = Self.plan(workbook, ledger)
        #expect(first.held.first?.code == .olderCopy && first.held.first?.text.contains("delete it again") == true)
        #expect(Self.tab(first, .transactions)?.localDeletes.isEmpty == true)
        #expect(Self.tab(first, .transactions)?.remoteAppends.map { $0[.transactionId] } == [Self.ids[5]])
        #expect(Self.tab(first, .transactions)?.writtenBack == [Self.ids[5]])
        var remembered = ledger
        remembered.writtenBack[.transactions] = [Self.ids[5]]
        let plan = Self.plan(workbook, remembered)
        #expect(plan.held.isEmpty)
        #expect(Self.tab(plan, .transactions)?.localDeletes.map(\.key) == [Self.ids[5]])
        // A copy carrying a time well after this store's run wrote the row saw the row: its lack is a delete.
        var seen = ledger
        seen.appendedHere[.transactions] = [Self.ids[5]: "2025-12-31T23:54:59.999Z"]
        #expect(Self.plan(workbook, seen).held.isEmpty)
        #expect(Self.tab(Self.plan(workbook, seen), .transactions)?.localDeletes.map(\.key) == [Self.ids[5]])
        seen.appendedHere[.transactions] = [Self.ids[5]: "2025-12-31T23:55:00.000Z"]
        #expect(
            Self.plan(workbook, seen).held.first?.code == .olderCopy
                && Self.plan(workbook, seen).held.first?.text.contains("delete it again") == true)
        // But one such row missing from a copy that also carries older versions is a stale copy.
        var regressed = (0..<5).map { RC.transaction(Self.ids[$0]) }
        var ledger2 = ledger
        ledger2.base[.transactions]?[Self.ids[0]] = RC.transaction(Self.ids[0], note: "newer", modified: RC.t1)
        ledger2.rows[.transactions]?[Self.ids[0]] = RC.transaction(Self.ids[0], note: "newer", modified: RC.t1)
        regressed[0] = RC.transaction(Self.ids[0], modified: RC.t0)
        workbook[.transactions] = Self.table(.transactions, regressed)
        #expect(
            Self.plan(workbook, ledger2).held.first?.code == .olderCopy
                && Self.plan(workbook, ledger2).held.first?.place == .tab(.transactions))
    }

    /// Several newest rows this store's own runs added, all missing (the person deleted the rows they
    /// had just added, or saved a copy opened before they were there): written back once, said once;
    /// missing again, they are deleted, with no `--allow-mass-delete`.
    @Test func theNewestRowsThisStoreAddedAreWrittenBackOnceThenDeleted() {
        var (_, ledger) = Self.agreed(12) { $0 >= 10 ? RC.t2 : RC.t0 }
        ledger.appendedHere[.transactions] = [Self.ids[10]: RC.t2, Self.ids[11]: RC.t2]
        var workbook = Self.agreed(0).workbook
        workbook[.transactions] = Self.table(.transactions, (0..<10).map { RC.transaction(Self.ids[$0]) })
        let first = Self.plan(workbook, ledger)
        #expect(
            first.held.first?.code == .olderCopy
                && first.held.first?.text.contains("delete them again: the next sync deletes them") == true, "\(first.held)")
        #expect(Self.tab(first, .transactions)?.localDeletes.isEmpty == true)
        #expect(Set(Self.tab(first, .transactions)?.remoteAppends.map { $0[.transactionId] } ?? []) == [Self.ids[10], Self.ids[11]])
        #expect(Set(Self.tab(first, .transactions)?.writtenBack ?? []) == [Self.ids[10], Self.ids[11]])
        var remembered = ledger
        remembered.writtenBack[.transactions] = [Self.ids[10], Self.ids[11]]
        let second = Self.plan(workbook, remembered)
        #expect(second.held.isEmpty && !second.blocked, "\(second.held)")
        #expect(Set(Self.tab(second, .transactions)?.localDeletes.map(\.key) ?? []) == [Self.ids[10], Self.ids[11]])
        // One of them added by another store: no telling what this copy saw; all are kept, as before.
        var mixed = ledger
        mixed.appendedHere[.transactions] = [Self.ids[10]: RC.t2]
        let kept = Self.plan(workbook, mixed)
        #expect(kept.held.first?.code == .olderCopy && kept.held.first?.text.contains("--allow-mass-delete") == true, "\(kept.held)")
        #expect(Self.tab(kept, .transactions)?.writtenBack.isEmpty == true)
    }

    /// The one newest row this store added, missing with an older row: a copy that lacks older rows
    /// too may be a file cut at a line end, so nothing is deleted and every row goes back.
    @Test func theOneNewestRowMissingWithAnOlderOneDeletesNothing() {
        var (_, ledger) = Self.agreed(6) { $0 == 5 ? RC.t2 : RC.t0 }
        ledger.appendedHere[.transactions] = [Self.ids[5]: RC.t2]
        var workbook = Self.agreed(0).workbook
        workbook[.transactions] = Self.table(.transactions, (0..<4).map { RC.transaction(Self.ids[$0]) })
        let plan = Self.plan(workbook, ledger)
        let transactions = Self.tab(plan, .transactions)
        #expect(
            plan.held.first?.code == .olderCopy
                && plan.held.first?.text.contains("It also lacks 1 older row(s), kept the same way") == true, "\(plan.held)")
        #expect(Set(transactions?.remoteAppends.map { $0[.transactionId] } ?? []) == [Self.ids[4], Self.ids[5]])
        #expect(transactions?.localDeletes.isEmpty == true)
        #expect(transactions?.writtenBack.isEmpty == true)
    }

    @Test func aDamagedRowSuspendsDeletesAndTheTabIsNotWritten() {
        var (workbook, ledger) = Self.agreed(4)
        var table = Self.table(.transactions, (0..<2).map { RC.transaction(Self.ids[$0]) })
        table.damagedRows = [1: "a quoted field runs over 2 lines that look like rows"]
        workbook[.transactions] = table
        ledger.rows[.transactions]?[Self.ids[9]] = RC.transaction(Self.ids[9], modified: RC.t1)  // a local add
        let plan = Self.plan(workbook, ledger)
        let transactions = Self.tab(plan, .transactions)
        #expect(transactions?.localDeletes.isEmpty == true)
        #expect(transactions?.changesRemote == false)
        #expect(transactions?.rejections.first?.code == .damagedRow && transactions?.rejections.first?.row == 3, "\(plan)")
        #expect(transactions?.rejections.first?.message.contains("look like rows") == true, "the reader's reason reaches the user")

        #expect(plan.held.first?.code == .damagedTab && plan.held.first?.place == .tab(.transactions), "\(plan.held)")

    }

    @Test func aStoreRowWithAnUnknownCategoryIsHeldBackAndReported() {
        let (workbook, base) = Self.agreed(1)
        var ledger = base
        ledger.rows[.transactions]?[Self.ids[5]] = LedgerRow(RC.transaction(Self.ids[5]).fields.merging(["category": "Nope"]) { $1 })
        let plan = Self.plan(workbook, ledger)
        let transactions = Self.tab(plan, .transactions)
        #expect(transactions?.remoteAppends.isEmpty == true)
        #expect(transactions?.rejections.map(\.row) == [Rejection.storeRow])
        #expect(transactions?.rejections.first?.message == "unknown category 'Nope' in the store")
    }

    @Test func aPendingRenameMovesSheetRowsTheStoreNeverSaw() {
        var (workbook, ledger) = Self.agreed(1)
        ledger.rows[.categories] = ["Meals": RC.category("Meals", modified: RC.t1)]
        ledger.renames = ["Food": "Meals"]
        let typed = RC.transaction(Self.ids[7])  // category Food, in the sheet only
        workbook[.transactions] = Self.table(.transactions, [RC.transaction(Self.ids[0]), typed])
        let plan = Self.plan(workbook, ledger)
        #expect(!plan.blocked)  // the rename's delete of the only category is not a mass delete
        let transactions = Self.tab(plan, .transactions)
        #expect(transactions?.rejections.isEmpty == true)
        #expect(transactions?.result[Self.ids[7]]?[.category] == "Meals")
        #expect(transactions?.remoteUpdates.contains { $0.key == Self.ids[7] && $0.fields["category"] == "Meals" } == true)
    }

    /// Two machines each added "the same" category, spelled in another case (`category add` refuses
    /// that on one machine, but cannot see the other's): both are kept, as names are case-sensitive,
    /// and the run that brings them together says so once, with the command that merges them.
    @Test func aCategoryDifferingOnlyInCaseFromAnotherIsNamedWhenItArrives() {
        var (workbook, ledger) = Self.agreed(1)
        ledger.rows[.categories]?["books"] = RC.category("books", modified: RC.t1)
        workbook[.categories] = Self.table(.categories, [RC.category("Food"), RC.category("Books", modified: RC.t1)])
        let plan = Self.plan(workbook, ledger)
        let categories = Self.tab(plan, .categories)
        #expect(Set(categories?.result.keys ?? [:].keys) == ["Food", "Books", "books"])
        let notes = categories?.notices.filter { $0.code == .categoryCaseVariant } ?? []
        #expect(notes.count == 1, "\(categories?.notices ?? [])")
        #expect(notes.first?.text.contains("`sheetsync category rename") == true, "\(notes)")
        // Once both are in the base, no run says it again.
        var synced = ledger
        synced.rows[.categories] = categories?.result
        synced.base[.categories] = categories?.result
        workbook[.categories] = Self.table(.categories, Array(categories?.result.values ?? [:].values))
        let again = Self.tab(Self.plan(workbook, synced), .categories)
        #expect(again?.notices.filter { $0.code == .categoryCaseVariant } == [])
    }

    @Test func importOfATransactionsOnlyFileChecksAgainstTheStoresCategories() {
        let (_, agreed) = Self.agreed(1)
        var ledger = agreed
        for tab in Tab.allCases { ledger.base[tab] = ledger.rows[tab] ?? [:] }
        let workbook: [Tab: Table] = [.transactions: Self.table(.transactions, [RC.transaction(Self.ids[3])])]
        let plan = Self.plan(workbook, ledger, purpose: .importing)
        #expect(plan.tabErrors.isEmpty)
        #expect(plan.tabs.map(\.tab) == [.transactions])
        #expect(Self.tab(plan, .transactions)?.localUpserts.map { $0.record[.transactionId] } == [Self.ids[3]])
    }

    @Test func checkNamesEveryMissingTab() {
        let workbook: [Tab: Table] = [.transactions: Self.table(.transactions, [])]
        let plan = Self.plan(workbook, LedgerState(rows: [:], base: [:]), purpose: .checking)
        #expect(Set(plan.missingTabs) == [.settings, .categories, .recurringRules, .receipts])
    }
}
