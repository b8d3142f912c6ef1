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
