import SheetSyncCore
import SheetSyncStore

extension RejectedRow {
    init(_ rejection: Rejection, firstSeenAt: String) {
        self.init(tab: rejection.tab, row: rejection.row, key: rejection.id.isEmpty ? nil : rejection.id,
                  message: rejection.message, hint: rejection.hint.isEmpty ? nil : rejection.hint,
                  rawCells: rejection.rawCells, firstSeenAt: firstSeenAt)
    }

    /// What makes a rejection "the same" across runs: the row's content and the problem, not its
    /// position (people sort rows).
    var identity: String {
        ([tab.rawValue, key ?? "", message] + rawCells).joined(separator: "\u{1F}")
    }
}

extension ConflictEntry {
    init(_ conflict: Conflict, resolvedAt: String) {
        self.init(tab: conflict.tab, key: conflict.key, field: conflict.field, losingValue: conflict.losingValue,
                  winningValue: conflict.winningValue, losingModifiedAt: conflict.losingModifiedAt,
                  winningModifiedAt: conflict.winningModifiedAt, resolvedAt: resolvedAt)
    }
}

extension SyncReport.RejectedEntry {
    init(_ row: RejectedRow) {
        self.init(tab: row.tab.rawValue, row: row.row, id: row.key ?? "", message: row.message, hint: row.hint ?? "")
    }
}

extension StoreSnapshot {
    /// The store's side of a plan.
    var ledger: LedgerState {
        var renames: [String: String] = [:]
        for (key, value) in state where key.hasPrefix(LedgerState.renamePrefix) {
            renames[String(key.dropFirst(LedgerState.renamePrefix.count))] = value
        }
        return LedgerState(rows: rows, base: base, tombstones: tombstones, renames: renames)
    }
}

extension LedgerState {
    static let renamePrefix = "categoryRename:"
    /// The `sync_state` key of a pending category rename (old name → new name).
    static func renameKey(_ old: String) -> String { renamePrefix + old }
}

extension StoreCommit {
    /// What applying `plans` does to the store: rows, base, tombstones, conflicts and the rejected-row
    /// log (a rejection seen before keeps its first-seen time).
    init(plans: [TabPlan], local: StoreSnapshot, previous: [RejectedRow], now: Timestamp) {
        self.init()
        var earlier: [String: RejectedRow] = [:]
        for row in previous { earlier[row.identity] = row }
        var rejected: [RejectedRow] = []
        for plan in plans {
            let tab = plan.tab
            upserts[tab] = plan.localUpserts.map { RowWrite(record: $0.record, expected: $0.expected) }
            deletes[tab] = plan.localDeletes.map { SheetSyncStore.RowDelete(key: $0.key, expected: $0.expected) }
            let oldBase = local.base[tab] ?? [:]
            baseUpserts[tab] = plan.base.filter { oldBase[$0.key] != $0.value }.map(\.value)
            baseDeletes[tab] = oldBase.keys.filter { plan.base[$0] == nil }
            clearTombstones[tab] = plan.clearedTombstones.filter { local.tombstones[tab]?[$0] != nil }
            conflicts += plan.conflicts.map { ConflictEntry($0, resolvedAt: now.description) }
            for rejection in plan.rejections {
                var row = RejectedRow(rejection, firstSeenAt: now.description)
                if let first = earlier[row.identity] { row.firstSeenAt = first.firstSeenAt }
                rejected.append(row)
            }
        }
        self.rejected = rejected
        state[SyncEngine.stateLastSync] = now.description
        state[SyncEngine.stateCounter] = String(local.changeCounter)
    }
}
