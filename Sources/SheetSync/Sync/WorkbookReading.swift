import SheetSyncCore
import SheetSyncStore

/// The remote workbook's tabs, read into rows (tabs that cannot be read are set aside with an error).
struct WorkbookReading {
    var rows: [Tab: [SheetRow]] = [:]
    var tabErrors: [TabError] = []
    /// The dataset's Settings row as the workbook has it, if readable.
    var settingsRecord: Record?

    init(snapshot: RemoteSnapshot, now: Timestamp) throws {
        for tab in Tab.allCases {
            let table = snapshot.tables[tab] ?? Table(header: TablePatcher.newHeader(tab.schema))
            do {
                var read = try TabReader.read(table, schema: tab.schema, seenAt: now).1
                for (index, problem) in snapshot.refusedRows[tab] ?? [:] where read.indices.contains(index) {
                    read[index].outcome = .rejected([problem])
                }
                rows[tab] = read
            } catch {
                tabErrors.append(error)
            }
        }
        for row in rows[.settings] ?? [] {
            if case .record(let record, _) = row.outcome {
                settingsRecord = record
                break
            }
        }
    }
}

/// Plans every readable tab in dependency order: categories before the rows naming them,
/// transactions before the receipts pointing at them.
struct Planner {
    let read: WorkbookReading
    let local: StoreSnapshot
    let now: Timestamp
    let newID: @Sendable () -> String

    static let order: [Tab] = [.settings, .categories, .recurringRules, .transactions, .receipts]

    func plans() -> [TabPlan] {
        var plans: [TabPlan] = []
        var categories: Set<String> = []
        // Transactions by id (the plan's result) plus frozen ids: no set of 100k ids is built.
        var transactions: [String: Record] = [:]
        var frozenTransactions: Set<String> = []
        for tab in Self.order {
            guard let rows = read.rows[tab] else { continue }
            let validate: @Sendable (Record) -> FieldProblem?
            switch tab {
            case .transactions, .recurringRules:
                let known = categories
                validate = { CategoryCheck.problem(for: $0["category"], known: known) }
            case .receipts:
                let (known, frozen) = (transactions, frozenTransactions)
                validate = { record in
                    known[record["transactionId"]] != nil || frozen.contains(record["transactionId"]) ? nil : FieldProblem(
                        field: "transactionId", value: record["transactionId"],
                        message: "transaction '\(record["transactionId"])' does not exist",
                        hint: "point the receipt at an existing transactionId")
                }
            default:
                validate = { _ in nil }
            }
            let (canonical, notices) = canonicalLocal(tab)
            let state = TabState(schema: tab.schema, base: local.base[tab] ?? [:], local: canonical, localAsRead: local.rows[tab] ?? [:],
                                 tombstones: local.tombstones[tab] ?? [:], remote: rows)
            var plan = Reconciler.plan(state, context: ReconcileContext(now: now, newID: newID, validate: validate))
            plan.notices = notices + plan.notices
            let frozen = Set(plan.rejections.map(\.id).filter { !$0.isEmpty })
            switch tab {
            case .categories: categories = Set(plan.result.keys).union(frozen)
            case .transactions: (transactions, frozenTransactions) = (plan.result, frozen)
            default: break
            }
            plans.append(plan)
        }
        return plans
    }

    /// Store rows read with the same tolerant rules as sheet cells; a row another SQLite client broke
    /// counts as its last good version until it is fixed.
    private func canonicalLocal(_ tab: Tab) -> ([String: Record], [String]) {
        var result: [String: Record] = [:]
        var notices: [String] = []
        let base = local.base[tab] ?? [:]
        for (key, raw) in local.rows[tab] ?? [:] {
            let (outcome, _) = TabReader.parse(schema: tab.schema, seenAt: now) { raw[$0].isEmpty ? .empty : .text(raw[$0]) }
            switch outcome {
            case .record(let record, _):
                // Rows the store already holds canonically keep their storage: one copy in memory,
                // and comparisons with the base (which shares it too) are identity checks.
                result[key] = record == raw ? raw : record
            case .rejected(let problems):
                notices.append("store table \(tab.schema.tableName) row '\(key)': \(problems.map(\.message).joined(separator: "; ")); fix it in the store")
                if let b = base[key] { result[key] = b }
            case .blank:
                continue
            }
        }
        return (result, notices)
    }
}

/// The seed's rule: a transaction naming a category that does not exist is not loaded.
enum CategoryCheck {
    static func problem(for name: String, known: Set<String>) -> FieldProblem? {
        guard !known.contains(name) else { return nil }
        return FieldProblem(field: "category", value: name, message: "unknown category '\(name)'", hint: hint(for: name, known: known))
    }

    /// The case-insensitive match, else the nearest name by edit distance.
    static func hint(for name: String, known: Set<String>) -> String {
        if let match = known.sorted().first(where: { $0.lowercased() == name.lowercased() }) {
            return "did you mean '\(match)'? category names are case-sensitive"
        }
        let nearest = known.map { ($0, distance($0.lowercased(), name.lowercased())) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        if let (candidate, d) = nearest, d <= max(2, name.count / 2) { return "did you mean '\(candidate)'?" }
        return "add '\(name)' to the Categories tab or pick an existing category"
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
