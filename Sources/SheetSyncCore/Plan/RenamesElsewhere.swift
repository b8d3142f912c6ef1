import SheetValues

/// Categories renamed in the workbook since the last sync — by another machine's `category rename`, or
/// by hand with the rows moved too — so that this store's rows still naming the old name (added here
/// before this sync) follow the rename instead of being held as naming an unknown category.
enum RenamesElsewhere {
    /// Old name → new name, for each category the workbook lost since the base when the evidence is
    /// unambiguous: one category new to the workbook is the lost one under another name (every field
    /// as the base had it but the name and the time), or, where it was merged into one there already,
    /// every workbook row that named it in the base names that one category now.
    static func find(categories plan: TabPlan, base: [Tab: [String: LedgerRow]], sheet: [Tab: [SheetRow]]) -> [String: String] {
        let baseCategories = base[.categories] ?? [:]
        let gone = plan.localDeletes.map(\.key).filter { baseCategories[$0] != nil }
        guard !gone.isEmpty else { return [:] }
        let fresh = plan.result.filter { baseCategories[$0.key] == nil }
        var renames: [String: String] = [:]
        for old in gone {
            guard let was = baseCategories[old] else { continue }
            let same = fresh.filter { _, row in
                was.layout.names.allSatisfy {
                    $0 == FieldKey.name.rawValue || $0 == FieldKey.lastModifiedAt.rawValue || row[named: $0] == was[named: $0]
                }
            }
            if same.count == 1, let new = same.first?.key {
                renames[old] = new
            } else if same.isEmpty, let new = movedRows(from: old, base: base, sheet: sheet), plan.result[new] != nil {
                renames[old] = new
            }
        }
        return renames
    }

    /// The one category that every workbook row naming `old` in the base names now, if there is one.
    private static func movedRows(from old: String, base: [Tab: [String: LedgerRow]], sheet: [Tab: [SheetRow]]) -> String? {
        var now: Set<String> = []
        for tab in [Tab.transactions, .recurringRules] {
            let tabBase = base[tab] ?? [:]
            for row in sheet[tab] ?? [] {
                guard case .record(let record, _) = row.outcome, let key = row.key, tabBase[key]?[.category] == old else { continue }
                now.insert(record[.category])
            }
        }
        guard now.count == 1, let new = now.first, new != old else { return nil }
        return new
    }

    /// This store's rows of a tab naming a category renamed elsewhere take the new name, where the
    /// store changed them since the last sync (unchanged ones come from the workbook renamed already).
    static func follow(_ renames: [String: String], tab: Tab, local: inout [String: LedgerRow], base: [String: LedgerRow]) -> [SyncIssue] {
        guard !renames.isEmpty, CrossTabChecks.namesCategory(tab) else { return [] }
        var moved: [String: Int] = [:]
        for (key, row) in local {
            guard let new = renames[row[.category]], base[key] != row else { continue }
            local[key]?[.category] = new
            moved[row[.category], default: 0] += 1
        }
        return moved.sorted { $0.key < $1.key }.map { old, count in
            .notice(
                .renameFollowed, at: .tab(tab),
                "category '\(old)' was renamed '\(renames[old] ?? "")' in the workbook; \(count) row(s) of this store "
                    + "that named it take the new name")
        }
    }
}
