/// How a report groups its totals.
public enum ReportGrouping: String, CaseIterable, Sendable {
    case category, tag, month
}

/// Which open rows a report is about (the seed's `paidFlag` / `reimbursedFlag`).
public struct OpenRowFilter: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let unpaid = OpenRowFilter(rawValue: 1)
    public static let unreimbursed = OpenRowFilter(rawValue: 2)

    /// Whether a transaction is open in one of the asked senses.
    func matches(_ row: LedgerRow) -> Bool {
        (contains(.unpaid) && row[.paidFlag].lowercased() == "unpaid")
            || (contains(.unreimbursed) && row[.reimbursedFlag].lowercased() == "unreimbursed")
    }
}

/// Where the money went: totals per group split by expense and income, the period's income,
/// expense and net, and the biggest change against the period before. Pure: it takes rows and
/// returns values, so the same rows always give the same report.
public struct LedgerReport: Sendable {
    public struct Group: Hashable, Sendable {
        public var name: String
        /// The transactions' type: `expense` or `income` (a category of type `both` can have one of each).
        public var type: String
        public var total: Amount
        public var count: Int
        /// An archived category (`isActive` false): still counted, as its rows are still valid.
        public var archived: Bool
    }

    public struct Change: Hashable, Sendable {
        public var name: String
        public var type: String
        public var current: Amount
        public var previous: Amount
        public var change: SignedAmount
    }

    /// A transaction the report lists (`--unpaid`, `--unreimbursed`).
    public struct Row: Hashable, Sendable {
        public var id: String
        public var date: String
        public var type: String
        public var amount: Amount
        public var category: String
        public var note: String
        public var paidFlag: String
        public var reimbursedFlag: String
    }

    /// nil: every date (an open-rows report without a period).
    public var period: ReportPeriod?
    public var grouping: ReportGrouping
    public var filter: OpenRowFilter
    public var income: Amount = .zero
    public var expense: Amount = .zero
    public var incomeCount = 0
    public var expenseCount = 0
    public var net: SignedAmount { Amount.difference(income, expense) }
    /// Expense groups first, then income; each by total, largest first, then by name (months in calendar order).
    public var groups: [Group] = []
    public var topChange: Change?
    /// The rows counted, when a filter asks for them.
    public var rows: [Row] = []
    /// Store rows whose date, type or amount could not be read (by id); never counted.
    public var unreadable: [String] = []

    /// The report over `transactions` (store rows), naming archived `categories` as such.
    public init(
        transactions: [LedgerRow], categories: [LedgerRow], period: ReportPeriod?, grouping: ReportGrouping,
        filter: OpenRowFilter = []
    ) {
        self.period = period
        self.grouping = grouping
        self.filter = filter
        let archived = Set(categories.filter { $0[.isActive] == "FALSE" }.map { $0[.name] })
        var readable: [(row: LedgerRow, date: LocalDate, type: String, amount: Amount)] = []
        for row in transactions where filter.isEmpty || filter.matches(row) {
            let type = row[.type].lowercased()
            guard let date = LocalDate(iso: row[.date]), type == "expense" || type == "income",
                case .success(let amount) = Amount.parse(row[.amount])
            else {
                unreadable.append(row[.transactionId])
                continue
            }
            readable.append((row, date, type, amount))
        }
        unreadable.sort()
        let current = readable.filter { period?.contains($0.date) ?? true }
        for item in current {
            if item.type == "income" {
                income += item.amount
                incomeCount += 1
            } else {
                expense += item.amount
                expenseCount += 1
            }
        }
        let totals = Self.totals(current, grouping: grouping)
        groups = totals.map { key, value in
            Group(
                name: key.name, type: key.type, total: value.total, count: value.count,
                archived: grouping == .category && archived.contains(key.name))
        }
        .sorted { a, b in
            if a.type != b.type { return a.type == "expense" }
            // Months read in calendar order; categories and tags biggest first.
            if grouping != .month, a.total != b.total { return a.total > b.total }
            return a.name < b.name
        }
        if let previous = period?.previous {
            let before = Self.totals(readable.filter { previous.contains($0.date) }, grouping: grouping)
            topChange = Self.biggestChange(now: totals, before: before)
        }
        if !filter.isEmpty {
            rows = current.map {
                Row(
                    id: $0.row[.transactionId], date: $0.date.description, type: $0.type, amount: $0.amount,
                    category: $0.row[.category], note: $0.row[.note], paidFlag: $0.row[.paidFlag],
                    reimbursedFlag: $0.row[.reimbursedFlag])
            }
            .sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        }
    }

    private struct Key: Hashable {
        var name: String
        var type: String
    }

    private static func totals(
        _ items: [(row: LedgerRow, date: LocalDate, type: String, amount: Amount)], grouping: ReportGrouping
    ) -> [Key: (total: Amount, count: Int)] {
        var out: [Key: (total: Amount, count: Int)] = [:]
        for item in items {
            for name in names(of: item.row, date: item.date, grouping: grouping) {
                let key = Key(name: name, type: item.type)
                var entry = out[key] ?? (.zero, 0)
                entry.total += item.amount
                entry.count += 1
                out[key] = entry
            }
        }
        return out
    }

    /// The groups a row counts in: one category or month; each of its tags (a row tagged
    /// `food,weekly` counts under both), or `(untagged)`.
    private static func names(of row: LedgerRow, date: LocalDate, grouping: ReportGrouping) -> [String] {
        switch grouping {
        case .category:
            return [row[.category]]
        case .month:
            return [String(date.description.prefix(7))]
        case .tag:
            var seen = Set<String>()
            let tags = row[.tagsCSV].split(separator: ",").map { String($0).trimmingSpaces() }.filter {
                !$0.isEmpty && seen.insert($0).inserted
            }
            return tags.isEmpty ? [untagged] : tags
        }
    }

    /// The group name of rows without tags.
    public static let untagged = "(untagged)"

    /// The group whose total moved most (ties: expense before income, then by name); nil when nothing moved.
    private static func biggestChange(now: [Key: (total: Amount, count: Int)], before: [Key: (total: Amount, count: Int)]) -> Change? {
        var best: Change?
        for key in Set(now.keys).union(before.keys) {
            let current = now[key]?.total ?? .zero, previous = before[key]?.total ?? .zero
            let change = Amount.difference(current, previous)
            guard !change.magnitude.isZero else { continue }
            let candidate = Change(name: key.name, type: key.type, current: current, previous: previous, change: change)
            if best.map({ candidate.outranks($0) }) ?? true { best = candidate }
        }
        return best
    }
}

extension LedgerReport.Change {
    /// A bigger move first; on a tie expense before income, then by name, so the pick never depends on hashing.
    func outranks(_ other: LedgerReport.Change) -> Bool {
        if change.magnitude != other.change.magnitude { return change.magnitude > other.change.magnitude }
        if type != other.type { return type == "expense" }
        return name < other.name
    }
}
