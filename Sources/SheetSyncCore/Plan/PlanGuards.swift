import SheetValues

/// A run that would delete more than half of a tab's rows (and more than 10), or every row of a tab
/// that had any, in either direction, is far more often an accident than a wish: it stops whole. Rows
/// a sheetsync command deleted by name (`rule delete`) are wishes, not counted.
enum MassDeleteGuard {
    /// - Parameter renamed: old names of pending category renames (their deletes are half of a rename).
    /// - Parameter emptied: tabs the workbook has with no rows at all while the base had some: cleared.
    ///   Any delete of theirs trips, however few: rows the store edited since come back (an edit beats
    ///   a delete), and the rest must not go with them.
    /// - Parameter deletedByName: rows a command deleted from the store by name (`LedgerState.deletedByName`).
    static func trips(
        _ plans: [TabPlan], base: [Tab: [String: LedgerRow]], renamed: Set<String>, emptied: Set<Tab> = [],
        deletedByName: [Tab: Set<String>] = [:]
    ) -> [SyncIssue] {
        plans.compactMap { plan in
            let rows = (base[plan.tab]?.count ?? 0) + plan.unchanged.count
            let named = deletedByName[plan.tab] ?? []
            let remoteDeletes = plan.remoteDeletes.filter {
                (plan.tab != .categories || !renamed.contains($0.key)) && !named.contains($0.key)
            }.count
            for (count, side) in [(plan.localDeletes.count, "the store"), (remoteDeletes, "the workbook")] {
                let what: String
                if count > 0 && count == rows {
                    what = "every row (\(count) of \(rows))"
                } else if count > 10 && count * 2 > rows {
                    what = "\(count) of \(rows) rows"
                } else {
                    continue
                }
                return .heldBack(
                    .massDelete, at: .tab(plan.tab),
                    "this run would delete \(what) from \(side); nothing was changed. "
                        + "If that is intended, run again with --allow-mass-delete" + (side == "the store" ? wayBack : ""))
            }
            if emptied.contains(plan.tab), !plan.localDeletes.isEmpty {
                return .heldBack(
                    .massDelete, at: .tab(plan.tab),
                    "the workbook's tab has no rows (cleared?), and this run would delete "
                        + "\(plan.localDeletes.count) of \(rows) rows from the store; nothing was changed. "
                        + "If that is intended, run again with --allow-mass-delete" + wayBack)
            }
            return nil
        }
    }

    /// How to undo rows gone from the workbook by mistake: the store still has them.
    static let wayBack =
        "; if not, put the rows back in the workbook (the spreadsheet's undo or version history, the copy in "
        + ".sheetsync-backup/ beside a CSV or XLSX workbook, or the tab of `sheetsync export DIR`): the store still has every one"

}

/// An old copy saved over the workbook (or a backup copied back, or a file cut at a line end) lacks
/// the rows created or changed after it was made. Deleting those from the store would lose them, so
/// they are written back to the workbook instead and the run says so. So is every other row such a
/// tab lacks: a tab that looks like an old copy deletes nothing (deleting only its older missing rows
/// would lose them to a file cut short, this run or the next). One newer row missing alone is taken
/// as a deliberate delete, unless the copy also carries rows older than the versions both sides agreed on
/// or the row is one this store's own run added (below).
/// The copy's age is the newest time it carries: rows typed into it without a time do not count.
enum StaleCopyGuard {
    /// Rewrites `plan` so the newer rows go back to the workbook; returns the message, or nil.
    ///
    /// The newer rows it lacks are written back alone, once, where this store's own runs added every one
    /// of them to the workbook (`appendedHere`) and the copy could be older than those runs
    /// (`couldPredate`), and the copy lacks no older row: rows cron added while the file was open in a
    /// spreadsheet program, which the person's save lacks, or rows the person added with `sheetsync add`,
    /// synced, and deleted in the sheet. (A copy lacking older rows too may be a file cut at a line end:
    /// every row it lacks goes back.) `writtenBack` holds the rows written back so, whose absence in a later read is a delete meant
    /// (the person deleted them on purpose, and again after they came back). One newer row missing alone
    /// that this store did not add is another writer's delete.
    static func apply(
        to plan: inout TabPlan, remote: [SheetRow], base: [String: LedgerRow], local: [String: LedgerRow], writtenBack: Set<String>,
        appendedHere: [String: String]
    ) -> SyncIssue? {
        guard !plan.localDeletes.isEmpty else { return nil }
        var newest = ""
        var regressions = 0
        for row in remote {
            // A row whose time this read filled in (typed without one) says nothing of the copy's age:
            // an old copy saved with one new expense typed into it is still an old copy.
            guard case .record(let record, let fixes) = row.outcome, !fixes.contains(FieldKey.lastModifiedAt.rawValue) else { continue }
            let stamp = record[.lastModifiedAt]
            if stamp > newest { newest = stamp }
            if let key = row.key, let b = base[key], stamp < b[.lastModifiedAt] { regressions += 1 }
        }
        // A workbook tab with no rows at all is the mass-delete guard's case.
        guard !newest.isEmpty else { return nil }
        let late = plan.localDeletes.filter { (base[$0.key]?[.lastModifiedAt] ?? "") > newest }
        // In a copy carrying nothing older than both sides agreed on, a row written back once already
        // and missing again is a delete meant; the other newer rows are judged.
        let judged = regressions > 0 ? late : late.filter { !writtenBack.contains($0.key) }
        guard !judged.isEmpty else { return nil }
        let older = plan.localDeletes.count - late.count
        // Only rows this store's own runs added, which the copy could predate: a copy current but for
        // them. (With older rows missing too it may be a file cut at a line end: nothing is deleted.)
        let ownAdds = regressions == 0 && older == 0 && judged.allSatisfy { couldPredate(appendedHere[$0.key], newest: newest) }
        // One newer row missing alone that this store did not add is another writer's delete.
        guard
            ownAdds || regressions > 0 || judged.count >= 2
                || older > 0 && judged.count == 1 && couldPredate(appendedHere[judged[0].key], newest: newest)
        else { return nil }
        let missing = ownAdds ? judged : late
        plan.writeBack(ownAdds ? judged : plan.localDeletes, local: local)
        if ownAdds { plan.writtenBack = judged.map(\.key) }
        let ids = missing.map(\.key).sorted()
        let shown = ids.prefix(10).joined(separator: ", ") + (ids.count > 10 ? ", …" : "")
        let alsoOlder = older > 0 ? " It also lacks \(older) older row(s), kept the same way." : ""
        let one = ids.count == 1
        return .heldBack(
            .olderCopy, at: .tab(plan.tab),
            "the workbook looks like an older copy saved over the file (or one cut short): it lacks "
                + "\(ids.count) row(s) created or changed after its newest lastModifiedAt (\(newest)): \(shown).\(alsoOlder) "
                + "None were deleted from the store; all are written back to the workbook. If you deleted "
                + (ownAdds
                    ? (one
                        ? "it on purpose, delete it again: the next sync deletes it"
                        : "them on purpose, delete them again: the next sync deletes them")
                    : "them on purpose, delete them again and run with --allow-mass-delete"),
            hint: "`sheetsync restore` brings back any row a run deleted")
    }

    /// Whether a copy whose newest time is `newest` can have been made before this store's run wrote
    /// a row into the workbook at `appendedAt`. A copy carrying a time later than that run (by more than
    /// clocks may disagree: `ReconcileContext.futureTolerance`) was made after the row was there: it
    /// saw the row, and lacks it because someone deleted it (another machine's sync, a person).
    static func couldPredate(_ appendedAt: String?, newest: String) -> Bool {
        guard let appendedAt else { return false }
        guard let at = Timestamp(iso: appendedAt) else { return true }
        return newest <= at.adding(milliseconds: ReconcileContext.futureTolerance).description
    }
}

/// `pull` moves changes into the store only, `push` into the workbook only; what stays behind keeps
/// its old base, so the next run still sees it as a change.
enum DirectionFilter {
    static func restrict(_ plans: inout [TabPlan], to mode: SyncMode, base: [Tab: [String: LedgerRow]]) {
        guard mode != .sync else { return }
        for i in plans.indices {
            let tabBase = base[plans[i].tab] ?? [:]
            let keyField = plans[i].tab.schema.keyField
            func keepOldBase(_ key: String) {
                if let b = tabBase[key] { plans[i].base[key] = b } else { plans[i].base.removeValue(forKey: key) }
            }
            if mode == .pull {
                let newKeys = Set(plans[i].remoteUpdates.filter { $0.fields[keyField.rawValue] != nil }.map(\.key))
                plans[i].remoteUpdates.forEach { keepOldBase($0.key) }
                plans[i].remoteAppends.forEach { keepOldBase($0[keyField]) }
                plans[i].remoteDeletes.forEach { keepOldBase($0.key) }
                // A delete not carried to the workbook keeps its tombstone for the next push.
                let unpushed = Set(plans[i].remoteDeletes.map(\.key))
                plans[i].clearedTombstones.removeAll { unpushed.contains($0) }
                // A hand-added row gets its id on the first push; loading it before would mint a second id.
                if !newKeys.isEmpty {
                    let before = plans[i].localUpserts.count
                    plans[i].localUpserts.removeAll { newKeys.contains($0.record[keyField]) }
                    let waiting = before - plans[i].localUpserts.count
                    plans[i].localCounts.added -= waiting
                    plans[i].notices.append(
                        .notice(
                            .rowsWaitForIds, at: .tab(plans[i].tab),
                            "\(waiting) row(s) without an id of their own wait for the next sync or push, "
                                + "which gives them ids and loads them (a pull writes nothing to the workbook)"))
                }
                plans[i].remoteUpdates = []
                plans[i].remoteAppends = []
                plans[i].remoteDeletes = []
                plans[i].remoteCounts = TabCounts()
            } else {
                plans[i].localUpserts.forEach { keepOldBase($0.record[keyField]) }
                plans[i].localDeletes.forEach { keepOldBase($0.key) }
                plans[i].localUpserts = []
                plans[i].localDeletes = []
                plans[i].localCounts = TabCounts()
            }
        }
    }
}
