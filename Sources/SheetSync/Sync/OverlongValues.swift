import SheetSyncCore
import SheetValues

/// Rows holding a value longer than the remote's cells hold (Google: 50,000 characters) are held back
/// before the write: Google refuses the whole request over one such cell, so sending them would keep
/// every other row out too. A held-back row is not written, keeps its old base (so it stays a pending
/// change and the store loses nothing), and is reported as a rejection naming tab, id and field; it is
/// written on the first run after the value is shortened.
enum OverlongValues {
    /// Characters as Google counts them: UTF-16 code units, the stricter count for text outside the BMP.
    static func length(_ value: String) -> Int { value.utf16.count }

    static func holdBack(_ plans: inout [TabPlan], limit: Int, base: [Tab: [String: LedgerRow]]) {
        for i in plans.indices {
            var plan = plans[i]
            let tabBase = base[plan.tab] ?? [:]
            let schema = plan.tab.schema
            func overlong(_ fields: [String: String]) -> (name: String, length: Int)? {
                for field in schema.fields {
                    if let value = fields[field.name], length(value) > limit { return (field.name, length(value)) }
                }
                return nil
            }
            var held: [(key: String, row: Int, field: (name: String, length: Int), record: LedgerRow?)] = []
            plan.remoteUpdates.removeAll { update in
                guard let field = overlong(update.fields) else { return false }
                held.append((update.key, Table.sheetRowNumber(ofDataRow: update.index), field, plan.result[update.key]))
                plan.remoteCounts.updated = max(0, plan.remoteCounts.updated - 1)
                return true
            }
            plan.remoteAppends.removeAll { record in
                guard let field = overlong(record.fields) else { return false }
                held.append((record[schema.keyField], Rejection.storeRow, field, record))
                plan.remoteCounts.added = max(0, plan.remoteCounts.added - 1)
                return true
            }
            for row in held {
                if let old = tabBase[row.key] { plan.base[row.key] = old } else { plan.base.removeValue(forKey: row.key) }
                plan.rejections.append(
                    Rejection(
                        tab: plan.tab, row: row.row, id: row.key,
                        message: "\(row.field.name) is \(row.field.length) characters long and a Google Sheets cell holds at most "
                            + "\(limit); this row was not written to the sheet",
                        hint: "shorten \(row.field.name) in the store; the row is kept there and written on the first run after",
                        rawCells: schema.fields.map { row.record?[$0.key] ?? "" }, code: .overlongValue))
                plan.remoteCounts.rejected += 1
            }
            plans[i] = plan
        }
    }
}
