import SheetValues

/// Everything the engine knows about one tab at the start of a sync.
public struct TabState: Sendable {
    public var schema: TabSchema
    /// Each row's values as of the last successful sync.
    public var base: [String: LedgerRow]
    /// Local rows, canonical.
    public var local: [String: LedgerRow]
    /// Local rows exactly as the store returned them (what a write expects to find).
    public var localAsRead: [String: LedgerRow]
    public var tombstones: [String: String]
    /// The sheet's rows, read.
    public var remote: [SheetRow]
    /// Keys of store rows held back (they fail a check): frozen like rejected sheet rows.
    public var heldLocal: Set<String>
    /// Key → `lastModifiedAt` of the last version of rows deleted from the store (kept for `restore`): a
    /// sheet row with such a key and no newer time is an old copy of a deleted row, not a new one.
    public var deleted: [String: String]

    public init(
        schema: TabSchema, base: [String: LedgerRow], local: [String: LedgerRow], localAsRead: [String: LedgerRow]? = nil,
        tombstones: [String: String] = [:], remote: [SheetRow], heldLocal: Set<String> = [], deleted: [String: String] = [:]
    ) {
        self.deleted = deleted
        self.schema = schema
        self.base = base
        self.local = local
        self.localAsRead = localAsRead ?? local
        self.tombstones = tombstones
        self.remote = remote
        self.heldLocal = heldLocal
    }
}

/// Inputs that are not data: the time, a source of new ids, and row checks across tabs.
public struct ReconcileContext: Sendable {
    public var now: Timestamp
    public var newID: @Sendable () -> String
    /// Extra checks on a sheet row (unknown category, missing transaction): a problem rejects it.
    public var validate: @Sendable (LedgerRow) -> FieldProblem?
    /// False for a plan nobody applies (a check): against an empty ledger the store writes are then
    /// counted but not listed (`localUpserts` stays empty) nor put in key order, and the sheet's
    /// fixes are listed in sheet order. Counts, result, base, rejections and notices are the same.
    public var listsStoreWrites: Bool
    /// Whether a copy of a row with a duplicate key gets an id made from what it holds (the same id
    /// every time the same file is read) instead of a new random one. An import, which never writes
    /// the id into the file it reads, needs it: otherwise every import of that file adds the copy again.
    public var stableCopyIDs: Bool
    /// False for a pull and a check: the ids they would give rows are written nowhere (the next sync or
    /// push gives them).
    public var givesIDs: Bool

    public init(
        now: Timestamp, newID: @escaping @Sendable () -> String, validate: @escaping @Sendable (LedgerRow) -> FieldProblem? = { _ in nil },
        listsStoreWrites: Bool = true, stableCopyIDs: Bool = false, givesIDs: Bool = true
    ) {
        self.now = now
        self.newID = newID
        self.validate = validate
        self.listsStoreWrites = listsStoreWrites
        self.stableCopyIDs = stableCopyIDs
        self.givesIDs = givesIDs
    }

    /// The id for the `occurrence`th (from 1) copy of `key` holding `record`'s values: its fields by
    /// name but `keyField` and those in `filled` (defaults of this read, such as an empty time's now).
    func copyID(of key: String, record: LedgerRow, keyField: FieldKey, filled: Set<String>, occurrence: Int) -> String {
        guard stableCopyIDs else { return newID() }
        let fields = record.namedValues.filter { $0.0 != keyField.rawValue && !filled.contains($0.0) }.sorted { $0.0 < $1.0 }
        let name = "copy \(occurrence) of \(key): " + fields.map { "\($0.0)=\($0.1)" }.joined(separator: "\u{1F}")
        return UUIDv5.make(namespace: UUIDv5.sheetsyncNamespace, name: name)
    }

    /// When the tab read was last saved (its file's modification time, the spreadsheet's Drive time),
    /// where the remote tells: the best evidence of when a hand edit found in it was made.
    public var savedAt: Timestamp?

    /// The `lastModifiedAt` of a hand edit to a row whose time still reads `baseStamp`: when its tab was
    /// last saved, where known, else the time of this read. Never earlier than the base's time (it is a
    /// newer version than the one both sides agreed on) nor later than now. Stamped with the read's
    /// time, a hand edit would beat a store edit made after it but before the sync.
    func handEditTime(after baseStamp: String) -> String {
        guard var time = savedAt else { return now.description }
        if let base = Timestamp(iso: baseStamp), time <= base { time = base.adding(milliseconds: 1) }
        return min(time, now).description
    }

    /// How far in the future a `lastModifiedAt` may be before it is clamped to now.
    public static let futureTolerance: Int64 = 5 * 60 * 1000
}

/// The three-way reconcile (docs/several-writers.md): base, local and remote rows in, a plan out. Pure.
public enum Reconciler {
    public static func plan(_ state: TabState, context: ReconcileContext) -> TabPlan {
        plan(state, context: context, sharesBase: true)
    }

    /// - Parameter sharesBase: with neither base nor local rows (a check, a first pull) every key
    ///   ends with the same row in the plan's `base` and `result`, or in neither: the base is then
    ///   the result's dictionary, shared, instead of a second one built insert by insert. False for
    ///   `PlanStrategy.reconcileEveryKey`, which shows that it changes nothing.
    static func plan(_ state: TabState, context: ReconcileContext, sharesBase: Bool) -> TabPlan {
        var plan = TabPlan(tab: state.schema.tab)
        plan.forms = state.schema.forms
        var remote = RemoteIndex.build(state, context: context, plan: &plan)
        remote.frozen.formUnion(state.heldLocal)
        var local = state.local
        clampFuture(&local, &remote, context: context, plan: &plan)

        // A check or a first pull has no base and no local rows: no lookups (each hashes the key) there.
        let (noBase, noLocal, noFrozen) = (state.base.isEmpty, local.isEmpty, remote.frozen.isEmpty)
        // A sheet row with the key of a row deleted here is decided row by row (an old copy's is deleted again).
        let revivesDeleted = !state.deleted.isEmpty && state.deleted.keys.contains { remote.rows.index(forKey: $0) != nil }
        let baseIsResult = sharesBase && noBase && noLocal && !revivesDeleted
        let step = Step(state: state, context: context, writesBase: !baseIsResult)
        if baseIsResult {
            if context.listsStoreWrites {
                step.writeRemoteOnly(KeyOrder.visits(state.base, local, remote.rows, remote.frozen), remote: remote, plan: &plan)
            } else {
                step.countRemoteOnly(remote: remote, plan: &plan)
            }
            // Every key is the sheet's alone, and each row not frozen is the result as read: the
            // result is the remote index's own dictionary mapped (its buckets copied, no key hashed
            // again), less the frozen keys, which end in neither result nor base. Made after the
            // visits are gone: a million rows' index, visits and result are never held at once.
            plan.result = remote.rows.mapValues(\.record)
            for key in remote.frozen { plan.result.removeValue(forKey: key) }
            plan.base = plan.result
            finish(&plan, remote: remote, state: state)
            return plan
        }
        let visits = KeyOrder.visits(state.base, local, remote.rows, remote.frozen)
        plan.result.reserveCapacity(visits.count)
        plan.base.reserveCapacity(visits.count)
        for visit in visits {
            let key = visit.key
            let b: LedgerRow?, l: LedgerRow?, r: RemoteIndex.Row?
            switch visit.source {
            case .remote(let at):
                // Found among the remote rows only: neither the base nor the local rows have it.
                (b, l, r) = (nil, nil, remote.rows.values[at])
            case .frozen:
                (b, l, r) = (nil, nil, nil)
            case .baseOrLocal:
                b = noBase ? nil : state.base[key]
                l = noLocal ? nil : local[key].map { row in b.map { Reconciler.datedAfterBase(row, base: $0) } ?? row }
                r = remote.rows[key]
            }
            if !noFrozen, remote.frozen.contains(key) {
                // A rejected row is frozen: present and unchanged; keep the last good version.
                if let b { plan.base[key] = b }
                if let kept = l ?? b { plan.result[key] = kept }
                continue
            }
            step.resolve(key: key, b: b, l: l, r: r, plan: &plan)
        }
        finish(&plan, remote: remote, state: state)
        return plan
    }

    /// Deletes suspended by an unreadable key, and the rejection counts.
    private static func finish(_ plan: inout TabPlan, remote: RemoteIndex, state: TabState) {
        let schema = state.schema
        if remote.suspendDeletes, !plan.localDeletes.isEmpty {
            plan.notices.append(
                .notice(.unreadableKeySuspendsDeletes, at: .tab(schema.tab), "a row whose key cannot be read suspends deletes this run"))
            plan.keepLocalDeletes(base: state.base)
        }
        plan.localCounts.rejected = plan.rejections.count
        plan.remoteCounts.rejected = plan.rejections.count
        // Transactions new to the workbook go in date order (a rule's months read down the sheet), the
        // key breaking ties; keys are visited in id order, which is no order to a person.
        if schema.tab == .transactions, plan.remoteAppends.count > 1 {
            let keys = plan.remoteAppends.map { ($0[.date], $0[schema.keyField]) }
            let order = keys.indices.sorted { keys[$0] < keys[$1] }
            if !order.elementsEqual(keys.indices) { plan.remoteAppends = order.map { plan.remoteAppends[$0] } }
        }
    }

    /// One key's decision, with what every key's decision reads.
    private struct Step {
        let state: TabState
        let context: ReconcileContext
        /// False when the plan's base is its result (see `plan(_:context:sharesBase:)`).
        let writesBase: Bool
        /// The time of this read: what an empty `lastModifiedAt` cell reads as.
        let now: String
        /// Whether the run writes the workbook: a pull's notes say what the next sync or push does there.
        var writesWorkbook: Bool { context.givesIDs }

        init(state: TabState, context: ReconcileContext, writesBase: Bool) {
            self.state = state
            self.context = context
            self.writesBase = writesBase
            self.now = context.now.description
        }

        func resolve(key: String, b: LedgerRow?, l: LedgerRow?, r: RemoteIndex.Row?, plan: inout TabPlan) {
            switch (b, l, r) {
            case (_, nil, nil):
                plan.clearedTombstones.append(key)
            case (nil, let l?, nil):
                push(l, key: key, plan: &plan)
            case (nil, nil, let r?):
                if let gone = state.deleted[key], !r.fixes.contains(FieldKey.lastModifiedAt.rawValue), r.record[.lastModifiedAt] <= gone {
                    deleteOldCopy(r, key: key, deletedAt: gone, plan: &plan)
                    return
                }
                applyLocally(r.record, key: key, plan: &plan)
                finishRemote(r, result: r.record, plan: &plan)
            case (nil, let l?, let r?):
                let x = newOnBothSides(l, r, key: key, plan: &plan)
                applyLocally(x, key: key, plan: &plan)
                finishRemote(r, result: x, plan: &plan)
            case (let b?, nil, let r?):
                deletedHere(b, r, key: key, plan: &plan)
            case (let b?, let l?, nil):
                deletedThere(b, l, key: key, plan: &plan)
            case (let b?, let l?, let r?):
                let x =
                    (l != b ? handEdit(ofLocal: l, r) : nil)
                    ?? Reconciler.merge(base: b, local: l, remote: r.record, key: key, tab: state.schema.tab, plan: &plan)
                applyLocally(x, key: key, plan: &plan)
                finishRemote(r, result: x, plan: &plan)
            }
        }

        /// A sheet row of a key deleted here after this version (or a later one): an old copy saved
        /// over the workbook brought it back. Deleted there again; an edit made after the delete
        /// would be newer.
        @inline(__always)
        func deleteOldCopy(_ r: RemoteIndex.Row, key: String, deletedAt gone: String, plan: inout TabPlan) {
            let tab = state.schema.tab
            plan.remoteDeletes.append(SheetRowDelete(index: r.index, key: key))
            plan.remoteCounts.deleted += 1
            // What that version holds goes to the conflict log: an edit another writer made without
            // seeing the delete (or a hand edit, which keeps the row's time) is never gone unlogged.
            for (name, value) in r.record.namedValues where !value.isEmpty && name != FieldKey.lastModifiedAt.rawValue {
                plan.conflicts.append(
                    Conflict(
                        tab: tab, key: key, field: name, losingValue: value, winningValue: "",
                        losingModifiedAt: r.record[.lastModifiedAt], winningModifiedAt: gone))
            }
            plan.notices.append(
                .notice(
                    .deletedRowCameBack, at: .key(key, of: tab),
                    "the workbook has a version of a row deleted since (an old copy saved over it?); "
                        + (writesWorkbook ? "deleted there again" : "the next sync or push deletes it there again"),
                    hint: "`sheetsync restore \(key)` brings it back"))
        }

        /// A row both sides have and the base lacks: the same, a hand edit of the store's version, or
        /// the later of the two.
        @inline(__always)
        func newOnBothSides(_ l: LedgerRow, _ r: RemoteIndex.Row, key: String, plan: inout TabPlan) -> LedgerRow {
            let tab = state.schema.tab
            if l == r.record { return l }
            if let edited = handEdit(ofLocal: l, r) { return edited }
            if r.fixes.contains(FieldKey.lastModifiedAt.rawValue), r.record[.lastModifiedAt] == now {
                // The sheet's row has no time of its own (an empty cell, read as now): it cannot be
                // later than the store's, which wins (a pull that loaded the row and a store write
                // since, such as a rule's lastGeneratedDate, must not be undone by the next read).
                return Reconciler.keep(l, over: r.record, key: key, tab: tab, plan: &plan)
            }
            return Reconciler.lastWriteWins(l, r.record, key: key, tab: tab, plan: &plan)
        }

        /// Deleted here: unchanged there, deleted there; edited there, the edit wins and the row comes back.
        @inline(__always)
        func deletedHere(_ b: LedgerRow, _ r: RemoteIndex.Row, key: String, plan: inout TabPlan) {
            if r.record == b && r.fixes.isEmpty {
                // The store records the plan only after the workbook confirmed it, so the tombstone goes
                // in the same commit (else it would stay forever, keeping every later quiet run off its
                // fast path).
                plan.remoteDeletes.append(SheetRowDelete(index: r.index, key: key))
                plan.remoteCounts.deleted += 1
            } else {
                applyLocally(r.record, key: key, plan: &plan)
                finishRemote(r, result: r.record, plan: &plan)
            }
            plan.clearedTombstones.append(key)
        }

        /// Deleted there: unchanged here, deleted here; edited here, the edit wins and the row comes
        /// back, as a version made now. Under its edit's time, a machine that knew the version the
        /// delete removed (a later one) would take it for an old copy and write the deleted version back.
        @inline(__always)
        func deletedThere(_ b: LedgerRow, _ l: LedgerRow, key: String, plan: inout TabPlan) {
            if l == b {
                plan.localDeletes.append(RowDelete(key: key, expected: state.localAsRead[key] ?? l))
                plan.localCounts.deleted += 1
                return
            }
            var back = l
            if back[.lastModifiedAt] < now { back[.lastModifiedAt] = now }
            push(back, key: key, plan: &plan)
            plan.broughtBack.append(key)
        }

        /// The sheet's row when it carries the very time this store gave its own (changed) version, with
        /// other values: that version, written there by a run that died before recording it, then edited
        /// by hand (a store edit always takes a time of its own, and a hand edit keeps the row's). The hand
        /// edit is the later version: it wins, dated as one (`ReconcileContext.handEditTime`).
        func handEdit(ofLocal l: LedgerRow, _ r: RemoteIndex.Row) -> LedgerRow? {
            guard !r.fixes.contains(FieldKey.lastModifiedAt.rawValue), r.record[.lastModifiedAt] == l[.lastModifiedAt], r.record != l
            else { return nil }
            var edited = r.record
            edited[.lastModifiedAt] = context.handEditTime(after: l[.lastModifiedAt])
            return edited
        }

        /// With neither base nor local rows: every remote row not frozen goes to the store, in key
        /// order, and to the sheet where it needs fixing. The plan's result is left to the caller.
        func writeRemoteOnly(_ visits: consuming [KeyOrder.Visit<RemoteIndex.Row>], remote: RemoteIndex, plan: inout TabPlan) {
            let noFrozen = remote.frozen.isEmpty
            plan.localUpserts.reserveCapacity(remote.rows.count)
            for visit in visits {
                guard case .remote(let at) = visit.source, noFrozen || !remote.frozen.contains(visit.key) else { continue }
                let r = remote.rows.values[at]
                writeLocally(r.record, key: visit.key, plan: &plan)
                finishRemote(r, result: r.record, plan: &plan)
            }
        }

        /// `writeRemoteOnly` for a plan nobody applies: every remote row not frozen counts as a store
        /// write, unlisted and in no order; the sheet's fixes are listed in sheet order.
        func countRemoteOnly(remote: RemoteIndex, plan: inout TabPlan) {
            for (key, r) in remote.rows where remote.frozen.isEmpty || !remote.frozen.contains(key) {
                plan.localCounts.added += 1
                finishRemote(r, result: r.record, plan: &plan)
            }
            plan.remoteUpdates.sort { $0.index < $1.index }
        }

        /// Writes a local-only row to the sheet.
        func push(_ l: LedgerRow, key: String, plan: inout TabPlan) {
            plan.remoteAppends.append(l)
            plan.remoteCounts.added += 1
            if writesBase { plan.base[key] = l }
            plan.result[key] = l
            // A row whose future lastModifiedAt was clamped goes to the store too: both sides hold the clamp.
            writeLocally(l, key: key, plan: &plan)
        }

        /// Makes the store hold `x` (counting it when that changes the store).
        func applyLocally(_ x: LedgerRow, key: String, plan: inout TabPlan) {
            plan.result[key] = x
            if writesBase { plan.base[key] = x }
            writeLocally(x, key: key, plan: &plan)
        }

        /// The store write (if any) that makes the store hold `x`, the plan's result already holding it.
        func writeLocally(_ x: LedgerRow, key: String, plan: inout TabPlan) {
            let asRead = state.localAsRead.isEmpty ? nil : state.localAsRead[key]
            guard asRead != x else { return }
            plan.localUpserts.append(RowWrite(record: x, expected: asRead))
            let local = state.local.isEmpty ? nil : state.local[key]
            if local == nil { plan.localCounts.added += 1 } else if local != x { plan.localCounts.updated += 1 }
        }

        /// Makes the sheet row hold `x`, rewriting only fields whose value changed or needs fixing.
        func finishRemote(_ r: RemoteIndex.Row, result x: LedgerRow, plan: inout TabPlan) {
            if r.fixes.isEmpty && x == r.record { return }
            var fields: [String: String] = [:]
            let sameLayout = x.layout === r.record.layout
            for (i, (name, value)) in x.namedValues.enumerated() {
                let old = sameLayout ? r.record.values[i] : r.record[named: name]
                if value != old || r.fixes.contains(name) { fields[name] = value }
            }
            guard !fields.isEmpty else { return }
            plan.remoteUpdates.append(SheetRowUpdate(index: r.index, key: x[plan.tab.schema.keyField], fields: fields))
            plan.remoteCounts.updated += 1
        }
    }

    /// Field-by-field three-way merge; same-field conflicts go to the later write.
    static func merge(base b: LedgerRow, local l: LedgerRow, remote r: LedgerRow, key: String, tab: Tab, plan: inout TabPlan) -> LedgerRow {
        if l == r { return l }
        if l == b { return r }
        if r == b { return l }
        let localWins = wins(l, over: r)
        var x = b
        for name in mergedNames(b, l, r) where name != FieldKey.lastModifiedAt.rawValue {
            let (bv, lv, rv) = (b[named: name], l[named: name], r[named: name])
            if lv == bv {
                x[named: name] = rv
            } else if rv == bv || lv == rv {
                x[named: name] = lv
            } else {
                var (winner, loser) = localWins ? (l, r) : (r, l)
                if tab == .recurringRules, name == FieldKey.lastGeneratedDate.rawValue, loser[named: name] > winner[named: name] {
                    // A rule's progress only moves forward: the later date, whichever row is newer.
                    (winner, loser) = (loser, winner)
                }
                x[named: name] = winner[named: name]
                if name != FieldKey.createdAt.rawValue {
                    plan.conflicts.append(conflict(tab, key, name, winner: winner, loser: loser))
                }
            }
        }
        x = derive(x, tab: tab)
        x[.lastModifiedAt] = mergedTime(x, newer: localWins ? l : r)
        return x
    }

    /// A merge that is the newer side's row is that row, time and all. One that mixes both sides is a
    /// version nobody wrote: it is dated a millisecond after the newer side, so that every machine sees a
    /// newer version than the one it knew (its content under a time a machine knew would read as a hand
    /// edit, dated again there), and no edit made after both sides is beaten by it.
    static func mergedTime(_ x: LedgerRow, newer: LedgerRow) -> String {
        let time = newer[.lastModifiedAt]
        if x.namedValues.allSatisfy({ $0.0 == FieldKey.lastModifiedAt.rawValue || $0.1 == newer[named: $0.0] }) { return time }
        return Timestamp(iso: time)?.adding(milliseconds: 1).description ?? time
    }

    /// No base: the later row wins whole; its rival's differing values are logged.
    static func lastWriteWins(_ l: LedgerRow, _ r: LedgerRow, key: String, tab: Tab, plan: inout TabPlan) -> LedgerRow {
        wins(l, over: r) ? keep(l, over: r, key: key, tab: tab, plan: &plan) : keep(r, over: l, key: key, tab: tab, plan: &plan)
    }

    /// `winner` whole; each field where `loser` differs goes to the conflict log, unless the loser's
    /// cell is empty: with no base, an empty cell is no value that was set and lost (a new Settings
    /// row whose Drive ids `init` filled in on one side is no conflict).
    static func keep(_ winner: LedgerRow, over loser: LedgerRow, key: String, tab: Tab, plan: inout TabPlan) -> LedgerRow {
        for (name, value) in loser.namedValues
        where !value.isEmpty && value != winner[named: name] && name != FieldKey.lastModifiedAt.rawValue
            && name != FieldKey.createdAt.rawValue
        {
            plan.conflicts.append(conflict(tab, key, name, winner: winner, loser: loser))
        }
        return winner
    }

    /// Later `lastModifiedAt` wins; a tie goes to the greater content, the same on every machine.
    static func wins(_ a: LedgerRow, over b: LedgerRow) -> Bool {
        if a[.lastModifiedAt] != b[.lastModifiedAt] { return a[.lastModifiedAt] > b[.lastModifiedAt] }
        return contentKey(a) >= contentKey(b)
    }

    static func contentKey(_ r: LedgerRow) -> String {
        r.layout.names.sorted().map { "\($0)=\(r[named: $0])" }.joined(separator: "\u{1F}")
    }

    /// Every field name of the three rows once: the shared layout's names, in order, when they share one.
    private static func mergedNames(_ b: LedgerRow, _ l: LedgerRow, _ r: LedgerRow) -> [String] {
        if b.layout === l.layout && l.layout === r.layout { return b.layout.names }
        return Array(Set(b.layout.names).union(l.layout.names).union(r.layout.names))
    }

    private static func conflict(_ tab: Tab, _ key: String, _ field: String, winner: LedgerRow, loser: LedgerRow) -> Conflict {
        Conflict(
            tab: tab, key: key, field: field, losingValue: loser[named: field], winningValue: winner[named: field],
            losingModifiedAt: loser[.lastModifiedAt], winningModifiedAt: winner[.lastModifiedAt])
    }

    /// Fields derived from others (a merge may take `date` from one side and `year` from the other).
    static func derive(_ record: LedgerRow, tab: Tab) -> LedgerRow {
        guard tab == .transactions, let date = LocalDate(iso: record[.date]) else { return record }
        var r = record
        r[.year] = String(date.year)
        r[.month] = String(date.month)
        return r
    }

    /// A store row changed since the version both sides agreed on, yet dated before it, was edited on a
    /// machine whose clock is behind the one that made that version. It is the later version all the same
    /// (it was made on that version): dated a millisecond after it, so that no machine reads it as an
    /// old copy and writes the version it replaced back.
    static func datedAfterBase(_ row: LedgerRow, base b: LedgerRow) -> LedgerRow {
        guard row[.lastModifiedAt] < b[.lastModifiedAt],
            !row.namedValues.allSatisfy({ $0.0 == FieldKey.lastModifiedAt.rawValue || $0.1 == b[named: $0.0] }),
            let time = Timestamp(iso: b[.lastModifiedAt])
        else { return row }
        var dated = row
        dated[.lastModifiedAt] = time.adding(milliseconds: 1).description
        return dated
    }

    /// `lastModifiedAt` values far in the future are clamped to now once, on both sides.
    private static func clampFuture(
        _ local: inout [String: LedgerRow], _ remote: inout RemoteIndex,
        context: ReconcileContext, plan: inout TabPlan
    ) {
        let limit = context.now.adding(milliseconds: ReconcileContext.futureTolerance).description
        let now = context.now.description
        let modified = FieldSlot(.lastModifiedAt, of: plan.tab)
        // Noticed in key order and in sheet order, not in the dictionaries' (random) order: the same
        // input gives the same plan, notices included.
        for key in local.compactMap({ $0.value[modified] > limit ? $0.key : nil }).sorted() {
            let stamp = local[key]?[modified] ?? ""
            local[key]?[modified] = now
            plan.notices.append(
                .notice(.futureTimestamp, at: .key(key, of: plan.tab), "lastModifiedAt \(stamp) is in the future; clamped to \(now)"))
        }
        guard remote.latestModified > limit else { return }
        let late = remote.rows.filter { $0.value.record[modified] > limit }.sorted { $0.value.index < $1.value.index }
        for (key, row) in late {
            remote.rows[key]?.record[modified] = now
            remote.rows[key]?.fixes.insert(FieldKey.lastModifiedAt.rawValue)
            plan.notices.append(
                .notice(
                    .futureTimestamp, at: IssuePlace(tab: plan.tab, row: Table.sheetRowNumber(ofDataRow: row.index), key: key),
                    "lastModifiedAt \(row.record[modified]) is in the future; clamped to \(now)"))
        }
    }
}
