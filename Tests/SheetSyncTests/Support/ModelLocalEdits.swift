import SheetSync
import SheetSyncCore
import SheetSyncStore
import TestSupport

/// The local half of a model-test round, shared by the CSV and Google model tests: up to three seeded
/// edits through the store (edit a note, delete a row, add a row), each logged for the oracle.
enum ModelLocalEdits {
    static func apply(
        store: LedgerStore, rng: inout SeededRandom, clock: ManualClock, ids: SeededIDs,
        frozen: Set<String>, categories: [String], round: Int, log: inout ModelCase.RoundLog
    ) throws {
        var keys = try store.records(in: .transactions).map { $0[.transactionId] }.filter { !frozen.contains($0) }.sorted()
        keys.shuffle(using: &rng)
        for i in 0..<Int.random(in: 0...3, using: &rng) {
            clock.advance(milliseconds: 1000)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0 where !keys.isEmpty:
                let key = keys.removeLast()
                guard var r = try store.records(in: .transactions).first(where: { $0[.transactionId] == key }) else { continue }
                r[.note] = "L\(round)-\(i)"
                r[.lastModifiedAt] = clock.now().description
                try store.upsert(r, in: .transactions)
                log.localNote[key] = r[.note]
            case 1 where !keys.isEmpty:
                let key = keys.removeLast()
                try store.delete(key: key, in: .transactions)
                log.localDeleted.insert(key)
            default:
                let key = ids.next(), stamp = clock.now().description, note = "LA\(round)-\(i)"
                try store.upsert(
                    LedgerRow([
                        .transactionId: key, .type: "expense", .date: "2026-02-20", .year: "2026", .month: "2",
                        .amount: "3.00", .category: categories[i % 3], .tagsCSV: "", .note: note, .paidFlag: "",
                        .reimbursedFlag: "", .recurringRuleId: "", .createdAt: stamp, .lastModifiedAt: stamp,
                    ]),
                    in: .transactions)
                log.localAdded[key] = note
            }
        }
    }
}
