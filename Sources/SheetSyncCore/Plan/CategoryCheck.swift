import SheetValues

/// The seed's rule: a transaction or rule naming a category that does not exist is not loaded.
public enum CategoryCheck {
    /// The problem with `name`, or nil when it is a known category.
    /// - Parameter removed: names the Categories tab had at the last sync and lacks now (a hand rename).
    public static func problem(for name: String, known: Set<String>, removed: Set<String> = []) -> FieldProblem? {
        guard !known.contains(name) else { return nil }
        return FieldProblem(
            field: "category", value: name, message: "unknown category '\(name)'",
            hint: hint(for: name, known: known, removed: removed), code: .unknownCategory)
    }

    /// The case-insensitive match, else a rename hint, else the nearest name by edit distance.
    public static func hint(for name: String, known: Set<String>, removed: Set<String> = []) -> String {
        if let match = known.sorted().first(where: { $0.lowercased() == name.lowercased() }) {
            return "did you mean '\(match)'? category names are case-sensitive"
        }
        let folded = TerminalText.lookalikeFold(name)
        if let match = known.sorted().first(where: { TerminalText.lookalikeFold($0) == folded }) {
            return "did you mean '\(match)'? '\(name)' differs from it only by invisible or full-width characters"
        }
        if removed.contains(name) {
            return "'\(name)' is no longer in the Categories tab; if you renamed it there, run "
                + "`sheetsync category rename '\(name)' NEW_NAME` to move its rows, or add '\(name)' back"
        }
        let nearest = known.map { ($0, distance($0.lowercased(), name.lowercased())) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        if let (candidate, d) = nearest, d <= max(2, name.count / 2) { return "did you mean '\(candidate)'?" }
        return "add '\(name)' to the Categories tab or pick an existing category"
    }

    /// A category deleted in the workbook while store rows still name it (an old Categories copy saved
    /// over the tab, a row deleted by mistake) is kept and written back: deleting it would leave those
    /// rows naming a category that does not exist. (Not when the tab gained a category in the same run:
    /// that is a rename typed into the tab, whose rows wait for `category rename`.) Returns what the run
    /// holds, or nil.
    static func keepInUse(_ plan: inout TabPlan, local: [String: LedgerRow], named: Set<String>) -> SyncIssue? {
        let kept = plan.localDeletes.filter { named.contains($0.key) }
        guard !kept.isEmpty else { return nil }
        plan.writeBack(kept, local: local)
        let names = kept.map { "'\($0.key)'" }.sorted().joined(separator: ", ")
        return .heldBack(
            .categoryInUse, at: .tab(.categories),
            "\(names) deleted in the workbook, but rows in the store name it; kept and written back. To "
                + "remove a category, move its rows first (`sheetsync category rename OLD NEW`) or archive it "
                + "(`sheetsync category archive NAME`)")
    }

    /// Notes for categories of `result` new since `base` that differ only in case, or only by invisible or
    /// full-width characters (`TerminalText.lookalikeFold`), from another (two machines' `category add`, or
    /// a typed row): both are kept, and the run that brings them together names them once (the output
    /// shows an invisible character as its escape), with the command that merges them.
    static func caseVariantNotes(result: [String: LedgerRow], base: [String: LedgerRow]) -> [SyncIssue] {
        let fresh = result.keys.filter { base[$0] == nil }
        guard !fresh.isEmpty else { return [] }
        let byFolded = Dictionary(grouping: result.keys) { TerminalText.lookalikeFold($0) }
        var groups: Set<[String]> = []
        for name in fresh {
            if let group = byFolded[TerminalText.lookalikeFold(name)], group.count > 1 { groups.insert(group.sorted()) }
        }
        return groups.sorted { $0[0] < $1[0] }.map { names in
            let listed = names.map { "'\($0)'" }.joined(separator: " and ")
            // Which way they differ: a name shown with `\u{200b}` says where its invisible character is.
            let how =
                Set(names.map { $0.lowercased() }).count == 1
                ? "differ only in case" : "look alike (they differ only by invisible or full-width characters, or case)"
            return .notice(
                .categoryCaseVariant, at: .tab(.categories),
                "\(listed) \(how); both are kept (names are case-sensitive, and reports "
                    + "show them apart). If they are one category, `sheetsync category rename '\(names[1])' '\(names[0])'` "
                    + "moves the rows of one to the other")
        }
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
