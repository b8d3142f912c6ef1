import SheetSyncCore
import Testing

/// One test per row of DESIGN §4's reconcile table.
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
        #expect(applied?["emoji"] == "🥗")
        #expect(applied?["lastModifiedAt"] == RC.now.description)
        #expect(plan.remoteUpdates.first?.fields["lastModifiedAt"] == RC.now.description)
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
        #expect(merged?["emoji"] == "🍔")
        #expect(merged?["colorHex"] == "#00ff00")
        #expect(merged?["lastModifiedAt"] == RC.t2)
        #expect(plan.conflicts.isEmpty)
        #expect(plan.localUpserts.count == 1 && plan.remoteUpdates.count == 1)
    }

    @Test func bothChangedSameFieldLastWriteWinsAndLoserIsLogged() {
        let b = RC.category("Food")
        let l = RC.category("Food", emoji: "🍔", modified: RC.t2)
        let r = RC.category("Food", emoji: "🍕", modified: RC.t1)
        let plan = RC.plan(base: [b], local: [l], remote: [r])
        #expect(plan.result["Food"]?["emoji"] == "🍔")
        #expect(plan.conflicts.count == 1)
        #expect(plan.conflicts.first?.losingValue == "🍕")
    }

    @Test func sameFieldTieIsBrokenTheSameWayFromEitherSide() {
        let b = RC.category("Food")
        let x = RC.category("Food", emoji: "🍔", modified: RC.t1)
        let y = RC.category("Food", emoji: "🍕", modified: RC.t1)
        let one = RC.plan(base: [b], local: [x], remote: [y]).result["Food"]?["emoji"]
        let other = RC.plan(base: [b], local: [y], remote: [x]).result["Food"]?["emoji"]
        #expect(one == other)
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
        #expect(plan.remoteAppends == [l])
        #expect(plan.localDeletes.isEmpty)
    }

    @Test func firstSyncWithoutBaseIsAUnionByKeyWithLastWriteWins() {
        let l = [RC.category("Food", emoji: "🍔", modified: RC.t2), RC.category("Rent")]
        let r = [RC.category("Food", emoji: "🍕", modified: RC.t1), RC.category("Travel")]
        let plan = RC.plan(local: l, remote: r)
        #expect(Set(plan.result.keys) == ["Food", "Rent", "Travel"])
        #expect(plan.result["Food"]?["emoji"] == "🍔")
        #expect(plan.remoteAppends.map { $0["name"] } == ["Rent"])
        #expect(plan.localUpserts.map { $0.record["name"] } == ["Travel"])
        #expect(plan.conflicts.map(\.losingValue) == ["🍕"])
    }

    @Test func farFutureTimestampIsClampedToNowOnBothSides() {
        let future = RC.category("Food", emoji: "🍔", modified: "2030-01-01T00:00:00.000Z")
        let plan = RC.plan(base: [], local: [], remote: [future])
        #expect(plan.localUpserts.first?.record["lastModifiedAt"] == RC.now.description)
        #expect(plan.remoteUpdates.first?.fields["lastModifiedAt"] == RC.now.description)
        #expect(plan.notices.contains { $0.contains("in the future") })
    }
}
