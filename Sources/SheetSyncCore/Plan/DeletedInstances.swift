import SheetValues

/// Recurring instances a store made from a stale copy of its rules that the workbook shows as made
/// and deleted since (an instance deleted by hand is never created again, on any machine).
///
/// A store that last synced before another machine materialized an occurrence still has the rule's
/// old `lastGeneratedDate`, so its own `materialize` makes that occurrence again, under the same
/// deterministic id. When the workbook's rule has already advanced past the occurrence's date and the
/// workbook lacks the row, the user deleted it there: the store's copy (new, never synced) is read as
/// deleted with it, a local delete kept restorable like any other, instead of pushed back.
enum DeletedInstances {
    /// The store's transactions (keys) to read as deleted in the workbook, with a note for each.
    static func find(
        local: [String: LedgerRow], base: [String: LedgerRow], sheet: [SheetRow], rules: [SheetRow]
    ) -> [(key: String, note: SyncIssue)] {
        var progress: [String: String] = [:]
        for row in rules {
            guard case .record(let rule, _) = row.outcome, !rule[.lastGeneratedDate].isEmpty else { continue }
            progress[rule[.recurringRuleId].lowercased()] = rule[.lastGeneratedDate]
        }
        guard !progress.isEmpty else { return [] }
        var found: [(key: String, note: SyncIssue)] = []
        var inSheet: Set<String>?
        let (ruleSlot, dateSlot) = (FieldSlot(.recurringRuleId, of: .transactions), FieldSlot(.date, of: .transactions))
        let (createdSlot, modifiedSlot) = (FieldSlot(.createdAt, of: .transactions), FieldSlot(.lastModifiedAt, of: .transactions))
        // Only a row as `materialize` made it (both times its occurrence's midnight): one edited or
        // restored in the store since is a local change, which wins over the delete.
        // Read by position, the key hashed last: a sync of every row walks them all.
        for (key, row) in local where !row[ruleSlot].isEmpty && row[modifiedSlot] == row[createdSlot] && base[key] == nil {
            let rule = row[ruleSlot].lowercased(), date = row[dateSlot]
            guard let through = progress[rule], date <= through, let day = LocalDate(iso: date),
                key == Materializer.instanceId(ruleId: rule, date: day)
            else { continue }
            if inSheet == nil { inSheet = Set(sheet.compactMap(\.key)) }
            guard inSheet?.contains(key) == false else { continue }
            found.append(
                (
                    key,
                    .notice(
                        .instanceDeleted, at: .key(key, of: .transactions),
                        "rule \(rule)'s instance of \(date) was made before (the workbook's rule is "
                            + "generated through \(through)) and is gone from the workbook, so it was deleted there; this "
                            + "store's copy, made from an older copy of the rule, is deleted too",
                        hint: "`sheetsync restore` brings it back")
                ))
        }
        return found.sorted { $0.key < $1.key }
    }
}
