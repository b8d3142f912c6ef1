import SheetSyncCore
import SheetSyncStore

extension Conflict {
    /// The conflict as the log keeps it: stamped with the run that decided it.
    func resolved(at now: Timestamp) -> Conflict {
        var logged = self
        logged.resolvedAt = now.description
        return logged
    }
}

extension StoreSnapshot {
    /// The store's side of a plan.
    var ledger: LedgerState {
        var renames: [String: String] = [:]
        for (key, value) in state where key.hasPrefix(LedgerState.renamePrefix) {
            renames[String(key.dropFirst(LedgerState.renamePrefix.count))] = value
        }
        var ledger = LedgerState(rows: rows, base: base, tombstones: tombstones, renames: renames)
        ledger.deleted = deleted
        let sets = [
            (LedgerState.writtenBackPrefix, \LedgerState.writtenBack), (LedgerState.deletedByNamePrefix, \.deletedByName),
        ]
        for (prefix, set) in sets {
            for (tab, key, _) in remembered(under: prefix) { ledger[keyPath: set][tab, default: []].insert(key) }
        }
        for (tab, key, when) in remembered(under: LedgerState.appendedHerePrefix) { ledger.appendedHere[tab, default: [:]][key] = when }
        return ledger
    }

    /// The rows remembered under `prefix` in the store's state (`prefix` + tab + ":" + key → value).
    private func remembered(under prefix: String) -> [(Tab, String, String)] {
        state.compactMap { key, value in
            guard key.hasPrefix(prefix) else { return nil }
            let parts = key.dropFirst(prefix.count).split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let tab = Tab(rawValue: String(parts[0])) else { return nil }
            return (tab, String(parts[1]), value)
        }
    }
}

extension StoreCommit {
    /// What applying `plans` does to the store: rows, base, tombstones, conflicts and the rejected-row
    /// log (a rejection seen before keeps its first-seen time).
    init(plans: [TabPlan], local: StoreSnapshot, previous: [Rejection], now: Timestamp) {
        self.init()
        var earlier: [String: Rejection] = [:]
        for row in previous { earlier[row.identity] = row }
        var rejected: [Rejection] = []
        for plan in plans {
            let tab = plan.tab
            upserts[tab] = plan.localUpserts
            deletes[tab] = plan.localDeletes
            let oldBase = local.base[tab] ?? [:]
            baseUpserts[tab] = plan.base.filter { oldBase[$0.key] != $0.value }.map(\.value)
            baseDeletes[tab] = oldBase.keys.filter { plan.base[$0] == nil }
            clearTombstones[tab] = plan.clearedTombstones.filter { local.tombstones[tab]?[$0] != nil }
            changes[tab] = plan.changes
            if let load = plan.load { loads[tab] = load }
            conflicts += plan.conflicts.map { $0.resolved(at: now) }
            for rejection in plan.rejections {
                var row = rejection
                row.firstSeenAt = earlier[row.identity]?.firstSeenAt ?? now.description
                rejected.append(row)
            }
        }
        self.rejected = rejected
        state[SyncEngine.stateLastSync] = now.description
        state[SyncEngine.stateCounter] = String(local.changeCounter)
        changeCounter = local.changeCounter
    }
}
