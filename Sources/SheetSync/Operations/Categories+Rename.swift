import Foundation
import SheetSyncCore
import SheetSyncStore

/// What `category rename` did or would do.
public struct RenameReport: Sendable {
    public var old: String
    public var new: String
    /// Transactions and rules re-pointed in the store.
    public var moved: Int
    /// Whether OLD was folded into an existing NEW.
    public var merged: Bool
    public var dryRun: Bool

    public var summary: String {
        let verb = dryRun ? "would rename" : "renamed"
        let how = merged ? "merged into the existing '\(new)'" : "to '\(new)'"
        return "\(verb) category '\(old)' \(how), \(moved) row\(moved == 1 ? "" : "s") re-pointed; the next sync updates the workbook"
    }
}

extension Categories {
    /// Renames a category and re-points its transactions and rules, in one store transaction, and
    /// remembers the rename so the next sync moves the workbook's rows too (even rows the store has
    /// not seen yet). When NEW exists already (say the category was renamed by hand in the sheet),
    /// OLD's rows move to it and OLD goes.
    public func rename(from old: String, to new: String, dryRun: Bool = false) async throws -> RenameReport {
        let newName = new.trimmingCharacters(in: .whitespaces)
        guard !newName.isEmpty else { throw SheetSyncError(.usage, "the new category name is empty") }
        try Self.refuseControlCharacters(inCategoryName: newName)
        guard newName != old else { throw SheetSyncError(.usage, "the category is already named '\(old)'") }
        return try await workspace.withStore(preview: dryRun) { store in
            let categories = try store.records(in: .categories)
            let transactions = try store.records(in: .transactions).filter { $0[.category] == old }
            let rules = try store.records(in: .recurringRules).filter { $0[.category] == old }
            let category = categories.first { $0[.name] == old }
            guard category != nil || !transactions.isEmpty || !rules.isEmpty else {
                let hint = CategoryCheck.hint(for: old, known: Set(categories.map { $0[.name] }))
                throw SheetSyncError(.usage, "no category named '\(old)' (\(hint))")
            }
            let merged = categories.contains { $0[.name] == newName }
            if !merged, let twin = categories.map({ $0[.name] }).first(where: { $0 != old && $0.lowercased() == newName.lowercased() }) {
                // As `category add` refuses it; renaming into 'Dining' itself merges.
                throw SheetSyncError(
                    .usage,
                    "'\(twin)' exists already; names differing only in case would confuse every row that names them "
                        + "(rename into '\(twin)' to merge the two)")
            }
            let stamp = workspace.clock.now().description
            var moved = 0
            try store.write { writer in
                if var category {
                    try writer.delete(key: old, in: .categories)
                    if !merged {
                        category[.name] = newName
                        category[.lastModifiedAt] = stamp
                        try writer.upsert(category, in: .categories)
                    }
                }
                for (tab, rows) in [(Tab.transactions, transactions), (.recurringRules, rules)] {
                    for var row in rows {
                        row[.category] = newName
                        row[.lastModifiedAt] = stamp
                        try writer.upsert(row, in: tab)
                        moved += 1
                    }
                }
            }
            try store.setState(LedgerState.renameKey(old), newName)
            return RenameReport(old: old, new: newName, moved: moved, merged: merged, dryRun: dryRun)
        }
    }
}
