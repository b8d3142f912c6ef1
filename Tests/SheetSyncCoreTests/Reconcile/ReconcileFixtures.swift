import SheetSyncCore

/// Small builders for reconcile tests: categories rows keyed by name, with chosen timestamps.
enum RC {
    static let t0 = "2026-01-01T00:00:00.000Z"
    static let t1 = "2026-01-02T00:00:00.000Z"
    static let t2 = "2026-01-03T00:00:00.000Z"
    static let now = Timestamp(iso: "2026-02-01T12:00:00.000Z")!

    static func category(
        _ name: String, emoji: String = "", color: String = "", created: String = t0, modified: String = t0
    ) -> LedgerRow {
        LedgerRow([
            .name: name, .type: "expense", .emoji: emoji, .colorHex: color, .isActive: "TRUE",
            .sortOrder: "", .createdAt: created, .lastModifiedAt: modified,
        ])
    }

    static func row(_ r: LedgerRow, index: Int) -> SheetRow {
        let schema = TabSchema.categories
        let cells = schema.fields.map { FieldParser.cell(r[$0.key], $0, typed: false) }
        let (outcome, key) = TabReader.parse(schema: schema, seenAt: now) { name in
            cells[schema.fields.firstIndex { $0.key == name }!]
        }
        return SheetRow(index: index, cells: cells, outcome: outcome, key: key)
    }

    static func plan(base: [LedgerRow] = [], local: [LedgerRow] = [], remote: [LedgerRow] = [], tombstones: [String: String] = [:])
        -> TabPlan
    {
        let byKey = { (rows: [LedgerRow]) in Dictionary(uniqueKeysWithValues: rows.map { ($0[.name], $0) }) }
        let state = TabState(
            schema: .categories, base: byKey(base), local: byKey(local), tombstones: tombstones,
            remote: remote.enumerated().map { row($0.element, index: $0.offset) })
        return Reconciler.plan(state, context: ReconcileContext(now: now, newID: { "new-id" }))
    }

    static func transaction(_ id: String, amount: String = "12.50", note: String = "", modified: String = t0) -> LedgerRow {
        LedgerRow([
            .transactionId: id, .type: "expense", .date: "2026-01-15", .year: "2026", .month: "1", .amount: amount,
            .category: "Food", .tagsCSV: "", .note: note, .paidFlag: "", .reimbursedFlag: "", .recurringRuleId: "",
            .createdAt: t0, .lastModifiedAt: modified,
        ])
    }
}
