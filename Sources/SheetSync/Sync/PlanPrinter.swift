import SheetSyncCore
import SheetValues

/// The plan as lines a person reads before saying yes (`--dry-run`).
enum PlanPrinter {
    static func lines(_ plans: [TabPlan]) -> [String] {
        var lines: [String] = []
        for plan in plans {
            let tab = plan.tab.rawValue
            let keyField = plan.tab.schema.keyField
            // The rows loaded as read and the others, in one key order as the reconcile lists them.
            var loaded = (plan.load?.keys ?? [])[...]
            for write in plan.localUpserts {
                let key = write.record[keyField]
                while let next = loaded.first, next < key {
                    lines.append("store \(tab) add \(next)")
                    loaded.removeFirst()
                }
                if let old = write.expected {
                    lines.append("store \(tab) \(key): \(fieldChanges(from: old, to: write.record))")
                } else {
                    lines.append("store \(tab) add \(key)")
                }
            }
            for key in loaded { lines.append("store \(tab) add \(key)") }
            for delete in plan.localDeletes { lines.append("store \(tab) delete \(delete.key)") }
            for update in plan.remoteUpdates {
                let fields = update.fields.keys.sorted().map { "\($0)=\(quoted(update.fields[$0] ?? ""))" }
                lines.append(
                    "workbook \(tab) row \(Table.sheetRowNumber(ofDataRow: update.index)) (\(update.key)): set \(fields.joined(separator: ", "))"
                )
            }
            for append in plan.remoteAppends { lines.append("workbook \(tab) add \(append[keyField])") }
            for delete in plan.remoteDeletes {
                lines.append("workbook \(tab) delete row \(Table.sheetRowNumber(ofDataRow: delete.index)) (\(delete.key))")
            }
        }
        return lines
    }

    static func fieldChanges(from old: LedgerRow, to new: LedgerRow) -> String {
        new.fields.keys.sorted().filter { old[named: $0] != new[named: $0] }
            .map { "\($0) \(quoted(old[named: $0])) → \(quoted(new[named: $0]))" }.joined(separator: ", ")
    }

    static func quoted(_ s: String) -> String { "'\(s)'" }
}

extension TabPlan {
    /// The plan without its workbook writes, for listing what a run that writes no workbook does.
    var storeSide: TabPlan {
        var plan = self
        plan.remoteUpdates = []
        plan.remoteAppends = []
        plan.remoteDeletes = []
        return plan
    }
}
