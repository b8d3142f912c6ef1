/// What the store keeps after a run so the next one can leave unchanged rows out (`ChangeScope`).
public struct ChangeRecord: Hashable, Sendable {
    /// Key → `RowHash` of the sheet row that reads exactly as the key's new base.
    public var rowHashes: [String: Int64] = [:]
    /// The plan covered every key of the tab: every dirty mark of it can go but `unsettled`.
    public var wholeTab = false
    /// Keys the plan covered whose store row equals its new base: their dirty marks go.
    public var settled: [String] = []
    /// Keys whose store row still differs from its base after this run: they stay marked.
    public var unsettled: [String] = []

    public init() {}

    /// Keys written by something other than a sync (an import): marked, so the next sync reads them.
    public static func marking(_ keys: [String]) -> ChangeRecord {
        var record = ChangeRecord()
        record.unsettled = keys
        return record
    }

    /// The record of `plan`, carried out as planned.
    /// - Parameters:
    ///   - rows: the sheet rows the plan read; `hashes` their `RowHash` and `keys` their key when
    ///     readable and not repeated, by row index (nil: record none, the workbook is not the one
    ///     synced with).
    ///   - local: the store rows as read; `oldBase`: the base as read.
    static func of(
        _ plan: TabPlan, rows: [SheetRow], hashes: [Int64]?, keys: [RowKey?]?, local: [String: LedgerRow],
        oldBase: [String: LedgerRow], wholeTab: Bool
    ) -> ChangeRecord {
        var record = ChangeRecord()
        record.wholeTab = wholeTab
        if let hashes, let keys { record.rowHashes = Self.hashes(plan, rows: rows, hashes: hashes, keys: keys) }
        // Each key the plan covered: its store row after the run against its new base. Written so a
        // first pull (100k upserts, nothing local) costs one base lookup per row and no second map.
        let keyField = FieldSlot(plan.tab.schema.keyField, of: plan.tab)
        // Returns whether the new base has the key (one lookup serves both questions).
        @discardableResult func judge(_ key: String, _ row: LedgerRow?) -> Bool {
            let newBase = plan.base[key]
            if row == newBase {
                if !wholeTab { record.settled.append(key) }
            } else {
                record.unsettled.append(key)
            }
            return newBase != nil
        }
        var written: [String: LedgerRow?] = [:]
        let needsLookup = !local.isEmpty || !oldBase.isEmpty
        if needsLookup {
            written.reserveCapacity(plan.localUpserts.count + plan.localDeletes.count)
            for write in plan.localUpserts { written[write.record[keyField]] = write.record }
            for delete in plan.localDeletes { written[delete.key] = .some(nil) }
        }
        var covered = 0  // keys of the new base judged so far
        for write in plan.localUpserts {
            if judge(write.record[keyField], write.record) { covered += 1 }
        }
        for delete in plan.localDeletes {
            if judge(delete.key, nil) { covered += 1 }
        }
        for (key, row) in local where written[key] == nil {
            if judge(key, row) { covered += 1 }
        }
        for key in oldBase.keys where local[key] == nil && written[key] == nil && plan.base[key] == nil {
            judge(key, nil)
        }
        if covered < plan.base.count {
            // A base with no store row and no write (a row the run lets the store lack).
            if !needsLookup {
                for write in plan.localUpserts { written[write.record[keyField]] = write.record }
                for delete in plan.localDeletes { written[delete.key] = .some(nil) }
            }
            for key in plan.base.keys where local[key] == nil && written[key] == nil { judge(key, nil) }
        }
        record.settled.sort()
        record.unsettled.sort()
        return record
    }

    /// A hash is kept only for a row that reads, unchanged and unfixed, as the key's new base and
    /// that this run does not rewrite: the next run may then trust the hash alone.
    private static func hashes(_ plan: TabPlan, rows: [SheetRow], hashes: [Int64], keys: [RowKey?]) -> [String: Int64] {
        var rewritten = Set(plan.remoteUpdates.map(\.key))
        rewritten.formUnion(plan.remoteDeletes.map(\.key))
        rewritten.formUnion(plan.rejections.map(\.id))
        var result: [String: Int64] = [:]
        result.reserveCapacity(rows.count)
        for row in rows {
            // A repeated or unreadable key has no entry in `keys`: no hash is kept for it.
            guard let key = row.key, !key.isEmpty, row.index < hashes.count, row.index < keys.count, keys[row.index] == RowKey(key),
                case .record(let read, let fixes) = row.outcome, fixes.isEmpty, !rewritten.contains(key),
                plan.base[key] == read
            else { continue }
            result[key] = hashes[row.index]
        }
        return result
    }
}
