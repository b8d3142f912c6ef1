import Foundation
import SheetSyncCore
import SheetSyncStore

extension Workspace {
    /// Renames a category and re-points its transactions and rules, in one store transaction.
    public func renameCategory(from old: String, to new: String) async throws -> Int {
        let newName = new.trimmingCharacters(in: .whitespaces)
        guard !newName.isEmpty else { throw SheetSyncError(.usage, "the new category name is empty") }
        return try await locked { store, _ in
            let categories = try store.records(in: .categories)
            guard var category = categories.first(where: { $0["name"] == old }) else {
                let hint = CategoryCheck.hint(for: old, known: Set(categories.map { $0["name"] }))
                throw SheetSyncError(.usage, "no category named '\(old)' (\(hint))")
            }
            guard !categories.contains(where: { $0["name"] == newName }) else {
                throw SheetSyncError(.usage, "a category named '\(newName)' already exists")
            }
            let stamp = clock.now().description
            var moved = 0
            let transactions = try store.records(in: .transactions).filter { $0["category"] == old }
            let rules = try store.records(in: .recurringRules).filter { $0["category"] == old }
            try store.write { writer in
                try writer.delete(key: old, in: .categories)
                category["name"] = newName
                category["lastModifiedAt"] = stamp
                try writer.upsert(category, in: .categories)
                for (tab, rows) in [(Tab.transactions, transactions), (.recurringRules, rules)] {
                    for var row in rows {
                        row["category"] = newName
                        row["lastModifiedAt"] = stamp
                        try writer.upsert(row, in: tab)
                        moved += 1
                    }
                }
            }
            return moved
        }
    }
}
