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
    ///   - rows: the sheet rows the plan read; `hashes` their `RowHash` by row index (nil: record none,
    ///     the workbook is not the one synced with).
    ///   - local: the store rows as read; `oldBase`: the base as read.
    static func of(
        _ plan: TabPlan, rows: [SheetRow], hashes: [Int64]?, local: [String: LedgerRow], oldBase: [String: LedgerRow],
        wholeTab: Bool
    ) -> ChangeRecord {
        var record = ChangeRecord()
        record.wholeTab = wholeTab
        if let hashes { record.rowHashes = Self.hashes(plan, rows: rows, hashes: hashes) }
        let keyField = plan.tab.schema.keyField
        var after: [String: LedgerRow?] = [:]
        for key in local.keys { after[key] = local[key] }
        for key in oldBase.keys where after[key] == nil { after[key] = .some(nil) }
        for key in plan.base.keys where after[key] == nil { after[key] = .some(nil) }
        for write in plan.localUpserts { after[write.record[keyField]] = write.record }
        for delete in plan.localDeletes { after[delete.key] = .some(nil) }
        for (key, row) in after {
            if row == plan.base[key] {
                if !wholeTab { record.settled.append(key) }
            } else {
                record.unsettled.append(key)
            }
        }
        record.settled.sort()
        record.unsettled.sort()
        return record
    }

    /// A hash is kept only for a row that reads, unchanged and unfixed, as the key's new base and
    /// that this run does not rewrite: the next run may then trust the hash alone.
    private static func hashes(_ plan: TabPlan, rows: [SheetRow], hashes: [Int64]) -> [String: Int64] {
        var rewritten = Set(plan.remoteUpdates.map(\.key))
        rewritten.formUnion(plan.remoteDeletes.map(\.key))
        rewritten.formUnion(plan.rejections.map(\.id))
        var result: [String: Int64] = [:]
        var seen: Set<String> = []
        var repeated: Set<String> = []
        for row in rows {
            guard let key = row.key, !key.isEmpty, row.index < hashes.count else { continue }
            guard seen.insert(key).inserted else {
                repeated.insert(key)
                continue
            }
            guard case .record(let read, let fixes) = row.outcome, fixes.isEmpty, !rewritten.contains(key),
                plan.base[key] == read
            else { continue }
            result[key] = hashes[row.index]
        }
        for key in repeated { result[key] = nil }
        return result
    }
}
