import SheetValues
import Testing

@testable import SheetSyncCore

/// One test per row of the reconcile table (what each side did since the base, and what a sync does).
@Suite struct ReconcileTableTests {
    @Test func onlyLocalChangedWritesLocalToTheRemote() {
        let b = RC.category("Food")
        let l = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let plan = RC.plan(base: [b], local: [l], remote: [b])
        #expect(plan.remoteUpdates.count == 1)
        #expect(plan.remoteUpdates.first?.fields["emoji"] == "🍔")
        #expect(plan.localUpserts.isEmpty)
        #expect(plan.base["Food"] == l)
    }

    @Test func onlyRemoteChangedAppliesRemoteLocally() {
        let b = RC.category("Food")
        let r = RC.category("Food", color: "#ff0000", modified: RC.t1)
        let plan = RC.plan(base: [b], local: [b], remote: [r])
        #expect(plan.localUpserts.map(\.record) == [r])
        #expect(plan.localUpserts.first?.expected == b)
        #expect(!plan.changesRemote)
    }

    @Test func handEditWithUnchangedTimestampIsStampedWithTimeSeenAndWrittenBack() {
        let b = RC.category("Food")
        let r = RC.category("Food", emoji: "🥗")  // same lastModifiedAt as the base
        let plan = RC.plan(base: [b], local: [b], remote: [r])
        let applied = plan.localUpserts.first?.record
        #expect(applied?[.emoji] == "🥗")
        #expect(applied?[.lastModifiedAt] == RC.now.description)
        #expect(plan.remoteUpdates.first?.fields["lastModifiedAt"] == RC.now.description)
    }

    /// A spreadsheet that saves timestamps to the second (or minute, or day) shows the base's own
    /// time more coarsely: not an older copy. The edit is kept and the times the sheet rounded read
    /// as the base's (no millisecond lost in the store, no cell rewritten).
    @Test func handEditSavedWithTimestampsToTheSecondIsKeptNotTakenForAnOldCopy() {
        let b = RC.category("Food", emoji: "🍔", created: "2026-01-02T10:20:30.943Z", modified: "2026-01-05T08:09:10.321Z")
        for (created, modified) in [
            ("2026-01-02T10:20:30Z", "2026-01-05T08:09:10Z"),  // truncated to the second
            ("2026-01-02 10:20:31", "2026-01-05 08:09:10"),  // rounded to the second, shown with a space
            ("2026-01-02 10:20", "2026-01-05 08:09"),  // to the minute
        ] {
            let r = RC.category("Food", emoji: "🥗", created: created, modified: modified)
            let plan = RC.plan(base: [b], local: [b], remote: [r])
            #expect(plan.conflicts.isEmpty, "\(modified)")
            let applied = plan.localUpserts.first?.record
            #expect(applied?[.emoji] == "🥗", "\(modified)")
            #expect(applied?[.createdAt] == b[.createdAt], "\(created)")
            #expect(applied?[.lastModifiedAt] == RC.now.description)
            #expect(plan.remoteUpdates.first?.fields.keys.sorted() == ["lastModifiedAt"], "\(modified)")
        }
    }

    @Test func timestampsResavedMoreCoarselyAloneChangeNothing() {
        let b = RC.category("Food", emoji: "🍔", created: "2026-01-02T00:00:00.000Z", modified: "2026-01-05T08:09:10.321Z")
        for modified in ["2026-01-05T08:09:10Z", "2026-01-05 08:09", "2026-01-05T08:09:11.000Z"] {
            let r = RC.category("Food", emoji: "🍔", created: "2026-01-02", modified: modified)
            let plan = RC.plan(base: [b], local: [b], remote: [r])
            #expect(plan.localUpserts.isEmpty && plan.remoteUpdates.isEmpty && plan.conflicts.isEmpty, "\(modified)")
            #expect(plan.base["Food"] == b)
        }
    }

    /// An emptied `createdAt` on a row already seen means when it was first seen: the base's time,
    /// written back to the cell, never the time of this read.
    @Test func emptiedCreatedAtOfAKnownRowGetsItsOwnTimeBack() {
        let b = RC.category("Food", emoji: "🍔", created: "2026-01-02T10:20:30.943Z", modified: "2026-01-05T08:09:10.321Z")
        let cleared = RC.category("Food", emoji: "🍔", created: "", modified: "2026-01-05T08:09:10.321Z")
        let plan = RC.plan(base: [b], local: [b], remote: [cleared])
        #expect(plan.localUpserts.isEmpty && plan.conflicts.isEmpty)
        #expect(plan.remoteUpdates.map(\.fields) == [["createdAt": "2026-01-02T10:20:30.943Z"]])
        #expect(plan.base["Food"] == b)

        let edited = RC.category("Food", emoji: "🥗", created: "", modified: "2026-01-05T08:09:10.321Z")
        let applied = RC.plan(base: [b], local: [b], remote: [edited]).localUpserts.first?.record
        #expect(applied?[.emoji] == "🥗")
        #expect(applied?[.createdAt] == "2026-01-02T10:20:30.943Z")
    }

    /// An emptied `lastModifiedAt` alone is no edit: the base's time comes back to the cell.
    @Test func emptiedLastModifiedAtAloneChangesNothingButTheCell() {
        let b = RC.category("Food", emoji: "🍔", created: "2026-01-02T10:20:30.943Z", modified: "2026-01-05T08:09:10.321Z")
        let cleared = RC.category("Food", emoji: "🍔", created: "2026-01-02T10:20:30.943Z", modified: "")
        let plan = RC.plan(base: [b], local: [b], remote: [cleared])
        #expect(plan.localUpserts.isEmpty && plan.conflicts.isEmpty)
        #expect(plan.remoteUpdates.map(\.fields) == [["lastModifiedAt": "2026-01-05T08:09:10.321Z"]])
    }

    /// Without a base (a row a pull loaded but could not stamp in the sheet), a sheet row whose
    /// `lastModifiedAt` is empty has no time of its own: the store's version wins, not "now".
    @Test func rowWithoutBaseAndAnEmptyTimeLosesToTheStoresVersion() {
        let l = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let r = RC.category("Food", emoji: "", modified: "")
        let plan = RC.plan(base: [], local: [l], remote: [r])
        #expect(plan.result["Food"] == l)
        #expect(plan.localUpserts.isEmpty)
        #expect(plan.remoteUpdates.first?.fields["emoji"] == "🍔")
        // The sheet's empty emoji held no value to lose: no conflict is logged.
        #expect(plan.conflicts.isEmpty)
    }

    /// Coarser is not older: a copy a whole second (or more) before the base at its own precision is
    /// still an old copy.
    @Test func anOlderCopyToTheSecondIsStillAConflict() {
        let b = RC.category("Food", emoji: "🍔", created: "2026-01-02T10:20:30.943Z", modified: "2026-01-05T08:09:10.321Z")
        let stale = RC.category("Food", emoji: "🍕", created: "2026-01-02T10:20:30Z", modified: "2026-01-05T08:09:09Z")
        let plan = RC.plan(base: [b], local: [b], remote: [stale])
        #expect(plan.localUpserts.isEmpty)
        #expect(plan.conflicts.map(\.losingValue) == ["🍕"])
        #expect(plan.remoteUpdates.first?.fields["emoji"] == "🍔")
    }

    @Test func remoteOlderThanBaseIsAConflictAndTheNewerVersionWins() {
        let b = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let stale = RC.category("Food", emoji: "🍕", modified: RC.t0)
        let plan = RC.plan(base: [b], local: [b], remote: [stale])
        #expect(plan.localUpserts.isEmpty)
        #expect(plan.remoteUpdates.first?.fields["emoji"] == "🍔")
        #expect(plan.conflicts.map(\.losingValue) == ["🍕"])
    }

    @Test func bothChangedDifferentFieldsMergesFieldByField() {
        let b = RC.category("Food")
        let l = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let r = RC.category("Food", color: "#00ff00", modified: RC.t2)
        let plan = RC.plan(base: [b], local: [l], remote: [r])
        let merged = plan.result["Food"]
        #expect(merged?[.emoji] == "🍔")
        #expect(merged?[.colorHex] == "#00ff00")
        // A version neither side wrote: dated just after the newer side, never as late as the merge's now.
        #expect(merged?[.lastModifiedAt] == "2026-01-03T00:00:00.001Z" && RC.t2 == "2026-01-03T00:00:00.000Z")
        #expect(plan.conflicts.isEmpty)
        #expect(plan.localUpserts.count == 1 && plan.remoteUpdates.count == 1)
    }

    @Test func bothChangedSameFieldLastWriteWinsAndLoserIsLogged() {
        let b = RC.category("Food")
        let l = RC.category("Food", emoji: "🍔", modified: RC.t2)
        let r = RC.category("Food", emoji: "🍕", modified: RC.t1)
        let plan = RC.plan(base: [b], local: [l], remote: [r])
        #expect(plan.result["Food"]?[.emoji] == "🍔")
        #expect(plan.conflicts.count == 1)
        #expect(plan.conflicts.first?.losingValue == "🍕")
    }

    /// Two versions under one time are broken the same way on every machine.
    @Test func sameTimeTieIsBrokenTheSameWayFromEitherSide() {
        let x = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let y = RC.category("Food", emoji: "🍕", modified: RC.t1)
        #expect(Reconciler.wins(x, over: y) != Reconciler.wins(y, over: x))
    }

    /// The sheet's row under the very time of this store's own changed version, with other values, is
    /// that version edited by hand (a hand edit keeps the row's time; a store edit takes its own): it
    /// wins, dated after that time, with no conflict.
    @Test func aSheetRowUnderTheTimeOfThisStoresOwnEditIsAHandEditOfIt() {
        let b = RC.category("Food")
        let mine = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let edited = RC.category("Food", emoji: "🍕", modified: RC.t1)
        for base in [[b], []] {
            let plan = RC.plan(base: base, local: [mine], remote: [edited])
            #expect(plan.result["Food"]?[.emoji] == "🍕")
            #expect((plan.result["Food"]?[.lastModifiedAt] ?? "") > RC.t1)
            #expect(plan.conflicts.isEmpty)
        }
    }

    @Test func bothChangedToEqualContentWritesNothingAndRecordsBase() {
        let b = RC.category("Food")
        let x = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let plan = RC.plan(base: [b], local: [x], remote: [x])
        #expect(!plan.changesLocal && !plan.changesRemote)
        #expect(plan.base["Food"] == x)
    }

    @Test func deletedLocallyUnchangedRemotelyDeletesTheSheetRow() {
        let b = RC.category("Food")
        let plan = RC.plan(base: [b], local: [], remote: [b], tombstones: ["Food": RC.t1])
        #expect(plan.remoteDeletes.map(\.key) == ["Food"])
        #expect(plan.base["Food"] == nil)
        // The tombstone goes with the commit that follows the workbook's write.
        #expect(plan.clearedTombstones == ["Food"])
    }

    @Test func deletedRemotelyUnchangedLocallyDeletesTheStoreRow() {
        let b = RC.category("Food")
        let plan = RC.plan(base: [b], local: [b], remote: [])
        #expect(plan.localDeletes.map(\.key) == ["Food"])
        #expect(plan.base["Food"] == nil)
    }

    @Test func deletedLocallyButEditedRemotelyRestoresTheRow() {
        let b = RC.category("Food")
        let r = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let plan = RC.plan(base: [b], local: [], remote: [r], tombstones: ["Food": RC.t1])
        #expect(plan.localUpserts.map(\.record) == [r])
        #expect(plan.remoteDeletes.isEmpty)
        #expect(plan.clearedTombstones == ["Food"])
    }

    @Test func deletedRemotelyButEditedLocallyRestoresTheRow() {
        let b = RC.category("Food")
        let l = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let plan = RC.plan(base: [b], local: [l], remote: [])
        // It comes back as a version made by this run: dated now, in the sheet and the store alike.
        var back = l
        back[.lastModifiedAt] = RC.now.description
        #expect(plan.remoteAppends == [back])
        #expect(plan.localUpserts.map(\.record) == [back])
        #expect(plan.localDeletes.isEmpty)
    }

    @Test func aMergeThatIsTheNewerSideKeepsItsTime() {
        let b = RC.category("Food")
        let l = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let r = RC.category("Food", emoji: "🍕", modified: RC.t2)
        let plan = RC.plan(base: [b], local: [l], remote: [r])
        #expect(plan.result["Food"] == r)
        #expect(plan.conflicts.map(\.losingValue) == ["🍔"])
    }

    @Test func firstSyncWithoutBaseIsAUnionByKeyWithLastWriteWins() {
        let l = [RC.category("Food", emoji: "🍔", modified: RC.t2), RC.category("Rent")]
        let r = [RC.category("Food", emoji: "🍕", modified: RC.t1), RC.category("Travel")]
        let plan = RC.plan(local: l, remote: r)
        #expect(Set(plan.result.keys) == ["Food", "Rent", "Travel"])
        #expect(plan.result["Food"]?[.emoji] == "🍔")
        #expect(plan.remoteAppends.map { $0[.name] } == ["Rent"])
        #expect(plan.localUpserts.map { $0.record[.name] } == ["Travel"])
        #expect(plan.conflicts.map(\.losingValue) == ["🍕"])
    }

    @Test func farFutureTimestampIsClampedToNowOnBothSides() {
        let future = RC.category("Food", emoji: "🍔", modified: "2030-01-01T00:00:00.000Z")
        let plan = RC.plan(base: [], local: [], remote: [future])
        #expect(plan.localUpserts.first?.record[.lastModifiedAt] == RC.now.description)
        #expect(plan.remoteUpdates.first?.fields["lastModifiedAt"] == RC.now.description)
        #expect(plan.notices.map(\.code) == [.futureTimestamp], "\(plan.notices)")
    }
}

/// A rule's progress (`lastGeneratedDate`) advanced on both sides since the base: the later date is
/// kept whichever side's row is newer, so one machine's run cannot set it back and let an instance
/// deleted by hand be made again (two machines, one rule).
@Suite struct RuleProgressMergeTests {
    static func rule(lastGenerated: String, amount: String, modified: String) -> LedgerRow {
        LedgerRow([
            .recurringRuleId: "9d6b4c1e-0000-4000-8000-000000000001", .isEnabled: "TRUE", .type: "expense", .amount: amount,
            .category: "Rent", .tagsCSV: "", .note: "", .startDate: "2026-01-01", .cadence: "monthly", .interval: "1",
            .endDate: "", .lastGeneratedDate: lastGenerated, .createdAt: RC.t0, .lastModifiedAt: modified,
        ])
    }

    static func plan(base: LedgerRow, local: LedgerRow, remote: LedgerRow) -> TabPlan {
        let key = base[.recurringRuleId]
        let state = TabState(
            schema: .recurringRules, base: [key: base], local: [key: local],
            remote: [SheetRow(index: 0, cells: [], outcome: .record(remote, fixes: []), key: key)])
        return Reconciler.plan(state, context: ReconcileContext(now: RC.now, newID: { "new-id" }))
    }

    @Test func bothSidesAdvancedKeepsTheLaterDateEvenWhenTheOtherRowIsNewer() {
        let base = Self.rule(lastGenerated: "2026-01-31", amount: "1450.00", modified: RC.t0)
        // This store ran through April; the workbook's row is newer (its amount edited) but only through March.
        let local = Self.rule(lastGenerated: "2026-04-30", amount: "1450.00", modified: RC.t1)
        let remote = Self.rule(lastGenerated: "2026-03-31", amount: "1500.00", modified: RC.t2)
        let plan = Self.plan(base: base, local: local, remote: remote)
        let result = plan.result[base[.recurringRuleId]]
        #expect(result?[.lastGeneratedDate] == "2026-04-30")
        #expect(result?[.amount] == "1500.00")
        #expect(plan.conflicts.map(\.losingValue) == ["2026-03-31"], "the earlier date is logged, not lost")
        // And the other way round.
        let swapped = Self.plan(base: base, local: remote, remote: local)
        #expect(swapped.result[base[.recurringRuleId]]?[.lastGeneratedDate] == "2026-04-30")
    }
}
