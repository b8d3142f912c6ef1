import SheetSyncCore
import Testing

/// A second row with a key the sheet already has gets an id of its own. A sync writes that id into the
/// sheet, so any new id will do; an import never writes the file it reads, so the copy's id must come
/// out the same on every read of the same file, or each import adds the copy again.
@Suite struct DuplicateKeyCopyTests {
    static let id = "62e52977-043e-5d0c-8938-47af46996221"

    static func plan(_ remote: [LedgerRow], base: [LedgerRow] = [], stable: Bool, newID: String) -> TabPlan {
        let schema = TabSchema.transactions
        let rows = remote.enumerated().map { offset, record in
            let cells = schema.fields.map { FieldParser.cell(record[$0.key], $0, typed: false) }
            let (outcome, key) = TabReader.parse(schema: schema, seenAt: RC.now) { name in
                cells[schema.fields.firstIndex { $0.key == name }!]
            }
            return SheetRow(index: offset, cells: cells, outcome: outcome, key: key)
        }
        let byKey = Dictionary(uniqueKeysWithValues: base.map { ($0[.transactionId], $0) })
        let state = TabState(schema: schema, base: byKey, local: byKey, tombstones: [:], remote: rows)
        return Reconciler.plan(state, context: ReconcileContext(now: RC.now, newID: { newID }, stableCopyIDs: stable))
    }

    static func copyKeys(_ plan: TabPlan) -> [String] {
        plan.result.keys.filter { $0 != id }.sorted()
    }

    @Test func anImportGivesEachCopyTheSameIdOnEveryRead() {
        let pizza = RC.transaction(Self.id, note: "Pizza night")
        let other = RC.transaction(Self.id, amount: "9.00", note: "Pizza night")
        let rows = [pizza, pizza, other, pizza]
        let first = Self.plan(rows, stable: true, newID: "11111111-1111-4111-8111-111111111111")
        let again = Self.plan(rows, base: Array(first.result.values), stable: true, newID: "22222222-2222-4222-8222-222222222222")
        #expect(Self.copyKeys(first).count == 3, "three copies, three ids")
        #expect(Self.copyKeys(again) == Self.copyKeys(first))
        #expect(!again.changesLocal, "the second read adds nothing")
        // Equal copies in another order of the file keep their ids too.
        let reordered = Self.plan([pizza, other, pizza, pizza], stable: true, newID: "33333333-3333-4333-8333-333333333333")
        #expect(Self.copyKeys(reordered) == Self.copyKeys(first))
    }

    @Test func aSyncGivesACopyANewId() {
        let pizza = RC.transaction(Self.id, note: "Pizza night")
        let plan = Self.plan([pizza, pizza], stable: false, newID: "44444444-4444-4444-8444-444444444444")
        #expect(Self.copyKeys(plan) == ["44444444-4444-4444-8444-444444444444"])
    }
}
