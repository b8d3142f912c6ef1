import SheetValues

/// The sheet's loadable rows by key, after ids, duplicates, hand edits and old copies are sorted out.
struct RemoteIndex {
    struct Row {
        var index: Int
        var record: LedgerRow
        /// Fields to rewrite even when the value is unchanged (a stale `year`, a new id, a default).
        var fixes: Set<String>
    }

    var rows: [String: Row] = [:]
    /// Keys of rejected rows: frozen, present and unchanged.
    var frozen: Set<String> = []
    /// A rejected row whose key cannot be read: nobody can tell which row it was, so no deletes.
    var suspendDeletes = false
    /// At least the greatest `lastModifiedAt` of the rows in `rows` (it may be higher): when it is
    /// not in the future, no row needs clamping and the rows are not walked for it.
    var latestModified = ""
    /// `lastModifiedAt` of the tab's rows, read by position.
    let modifiedSlot: FieldSlot
    /// The tab's timestamp fields (`createdAt`, `lastModifiedAt`).
    let timestampSlots: [FieldSlot]

    init(tab: Tab) {
        modifiedSlot = FieldSlot(.lastModifiedAt, of: tab)
        timestampSlots = tab.schema.fields.filter { $0.kind == .timestamp }.map { FieldSlot($0.key, of: tab) }
    }

    mutating func noteModified(_ record: LedgerRow) {
        let stamp = record[modifiedSlot]
        if stamp > latestModified { latestModified = stamp }
    }

    static func build(_ state: TabState, context: ReconcileContext, plan: inout TabPlan) -> RemoteIndex {
        var index = RemoteIndex(tab: state.schema.tab)
        let copies = index.add(state.remote, state: state, context: context, plan: &plan)
        if copies.extra.isEmpty {
            index.adjustKnown(copies.order, state: state, context: context, plan: &plan)
        } else {
            index.settle(copies, state: state, context: context, plan: &plan)
        }
        return index
    }

    /// The rows of a key after its first, which waits in `rows`, in the order the keys came.
    struct Copies {
        var extra: [String: [Row]] = [:]
        var order: [String] = []
    }

    /// Every sheet row read: rejected ones frozen, the first of each key in `rows` (a missing id made
    /// up), later copies returned.
    private mutating func add(_ remote: [SheetRow], state: TabState, context: ReconcileContext, plan: inout TabPlan) -> Copies {
        let schema = state.schema
        let keyField = FieldSlot(schema.keyField, of: schema.tab)
        let keysAreIDs = schema.field(schema.keyField)?.kind == .uuid
        var copies = Copies()
        rows.reserveCapacity(remote.count)
        for row in remote {
            switch row.outcome {
            case .blank:
                continue
            case .rejected(let problems):
                reject(row, problems: problems, schema: schema, plan: &plan)
            case .record(var record, var fixes):
                // A row the store deleted and the sheet left as the sides agreed on leaves the sheet:
                // what it points at is not checked (its transaction may go in the same run).
                let given = record[keyField]
                let leaving = !state.tombstones.isEmpty && !given.isEmpty && state.tombstones[given] != nil && state.base[given] == record
                if !leaving, let problem = context.validate(record) {
                    reject(row, problems: [problem], schema: schema, plan: &plan)
                    continue
                }
                if given.isEmpty {
                    guard keysAreIDs else {
                        // A name (the key of Categories) cannot be made up.
                        let problem = FieldProblem(
                            field: keyField.name, value: "", message: "the row has no \(keyField.name)",
                            hint: "type the \(keyField.name) it is known by, or delete the row", code: .missingValue)
                        reject(row, problems: [problem], schema: schema, plan: &plan)
                        continue
                    }
                    record[keyField] = context.newID()
                    fixes.insert(keyField.name)
                }
                let key = record[keyField]
                let copy = Row(index: row.index, record: record, fixes: fixes)
                noteModified(record)
                if let first = rows.updateValue(copy, forKey: key) {
                    rows[key] = first
                    copies.extra[key, default: []].append(copy)
                } else {
                    copies.order.append(key)
                }
            }
        }
        return copies
    }

    /// One row per key: it is the keeper; only rows with a base can need adjusting.
    private mutating func adjustKnown(_ order: [String], state: TabState, context: ReconcileContext, plan: inout TabPlan) {
        guard !state.base.isEmpty else { return }
        for key in order {
            guard let base = state.base[key], let row = rows[key] else { continue }
            let kept = adjusted(row, base: base, context: context, plan: &plan)
            noteModified(kept.record)
            rows[key] = kept
        }
    }

    /// Keys with copies: the copy the base has (else the first) is the keeper; the others get ids of
    /// their own (`duplicate`).
    private mutating func settle(_ copies: Copies, state: TabState, context: ReconcileContext, plan: inout TabPlan) {
        let firsts = rows
        rows = [:]
        for key in copies.order {
            guard let first = firsts[key] else { continue }
            let all = [first] + (copies.extra[key] ?? [])
            let keeperAt = all.firstIndex { $0.record == state.base[key] } ?? 0
            let kept = adjusted(all[keeperAt], base: state.base[key], context: context, plan: &plan)
            noteModified(kept.record)
            rows[key] = kept
            var seen: [LedgerRow: Int] = [:]
            for (i, copy) in all.enumerated() where i != keeperAt {
                // Equal copies are told apart by their order: the same ids on every read of the file.
                let occurrence = seen[copy.record, default: 0] + 1
                seen[copy.record] = occurrence
                duplicate(copy, of: key, occurrence: occurrence, schema: state.schema, context: context, plan: &plan)
            }
        }
    }

    private mutating func reject(_ row: SheetRow, problems: [FieldProblem], schema: TabSchema, plan: inout TabPlan) {
        switch row.key {
        case .some(let key) where !key.isEmpty: frozen.insert(key)
        case .some: break
        case .none: suspendDeletes = true
        }
        let message = problems.map { $0.message }.joined(separator: "; ")
        // Each hint once: two fields with the same kind of problem ("type a whole number") say it once.
        var seen: Set<String> = []
        let hint = problems.map(\.hint).filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: "; ")
        plan.rejections.append(
            Rejection(
                tab: schema.tab, row: row.sheetRowNumber, id: row.key ?? "",
                message: message, hint: hint, rawCells: row.cells.map(\.rawText), code: Rejection.code(of: problems)))
    }

    /// A known row's times as the base has them where the sheet only shows them differently: a time
    /// the spreadsheet saved to the second, minute or day (not an older copy; such a
    /// cell is left as written), and an emptied time, which for a row already seen means the base's (written
    /// back), not the time of this read: an emptied `createdAt` keeps when the row was first seen, and
    /// an emptied `lastModifiedAt` alone is no edit (with other changes, the row is a hand edit).
    private func readTimesAsBase(_ row: inout Row, base: LedgerRow, now: String) {
        for slot in timestampSlots {
            let text = row.record[slot], known = base[slot]
            guard text != known, !known.isEmpty else { continue }
            if row.fixes.contains(slot.name), text == now {
                row.record[slot] = known
            } else if let shown = Timestamp(iso: text), let time = Timestamp(iso: known), shown.isCoarserReading(of: time) {
                row.record[slot] = known
            }
        }
    }

    /// A second row with the same key: a copy-pasted row or a second identical purchase. It gets a
    /// new id (names, which are the key of Categories, cannot be invented: that copy is rejected).
    private mutating func duplicate(
        _ copy: Row, of key: String, occurrence: Int, schema: TabSchema, context: ReconcileContext, plan: inout TabPlan
    ) {
        let rowNumber = Table.sheetRowNumber(ofDataRow: copy.index)
        guard schema.field(schema.keyField)?.kind == .uuid, schema.tab != .settings else {
            plan.rejections.append(
                Rejection(
                    tab: schema.tab, row: rowNumber, id: key, message: "duplicate \(schema.keyField.rawValue) '\(key)'",
                    hint: "delete or rename one of the copies", rawCells: copy.record.values.sorted(), code: .duplicateKey))
            frozen.insert(key)
            return
        }
        var record = copy.record
        let newKey = context.copyID(
            of: key, record: record, keyField: schema.keyField, filled: copy.fixes, occurrence: occurrence)
        record[schema.keyField] = newKey
        var fixes = copy.fixes
        fixes.insert(schema.keyField.rawValue)
        rows[newKey] = Row(index: copy.index, record: record, fixes: fixes)
        plan.notices.append(
            .notice(
                .duplicateId, at: IssuePlace(tab: schema.tab, row: rowNumber, key: key),
                "duplicate id \(key); "
                    + (context.givesIDs ? "the copy now has id \(newKey)" : "the copy gets an id of its own from the next sync or push")))
    }

    /// Hand edits get a modification time; an old copy saved over the sheet loses to the base.
    private func adjusted(_ row: Row, base: LedgerRow?, context: ReconcileContext, plan: inout TabPlan) -> Row {
        guard let base, row.record != base else { return row }
        var row = row
        readTimesAsBase(&row, base: base, now: context.now.description)
        guard row.record != base else { return row }
        let modified = FieldKey.lastModifiedAt
        let rowStamp = row.record[modified], baseStamp = base[modified]
        if rowStamp == baseStamp {
            // Content changed but its timestamp did not: a hand edit, as late as its tab's last save (a
            // merge another machine wrote is dated after both its sides, so it is not one).
            row.record[modified] = context.handEditTime(after: baseStamp)
            row.fixes.insert(modified.rawValue)
        } else if rowStamp < baseStamp, row.record.namedValues.allSatisfy({ $0.0 == modified.rawValue || $0.1 == base[named: $0.0] }) {
            // Only the time is older, the content the same: another machine whose clock is behind clamped
            // a time that was in its future. Taken as it is, so that the machines agree after one round
            // instead of each writing its own time back on every run.
            return row
        } else if rowStamp < baseStamp {
            // An older version than the one both sides agreed on: a restored backup or stale copy.
            for (name, value) in row.record.namedValues where value != base[named: name] && name != modified.rawValue {
                plan.conflicts.append(
                    Conflict(
                        tab: plan.tab, key: base[plan.tab.schema.keyField], field: name, losingValue: value,
                        winningValue: base[named: name], losingModifiedAt: rowStamp, winningModifiedAt: baseStamp))
            }
            row.record = base
            row.fixes.formUnion(base.layout.names)
        }
        return row
    }
}
