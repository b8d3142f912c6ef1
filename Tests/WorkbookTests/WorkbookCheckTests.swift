import Foundation
import SheetValues
import Testing

@testable import SheetSyncCore
@testable import Workbook

/// `check`'s counted way (`WorkbookCheck`: the plain rows of Transactions and Receipts counted on
/// their cells' bytes, the others planned) gives exactly the report of planning the whole workbook, on
/// workbooks with every kind of problem and every valid form people write; and it answers for plain
/// ones, and for the plain rows of a tab with problems.
@Suite struct WorkbookCheckTests {
    static let now = Timestamp(iso: "2026-11-26T12:00:00Z")!
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../samples")

    /// A workbook as the rows of each tab's file (header first), and what each file's bytes become.
    struct Book {
        var tabs: [Tab: [[String]]]
        /// Byte-level changes after encoding (a NUL, an unclosed quote, no line end at the end).
        var bytes: [Tab: ([UInt8]) -> [UInt8]] = [:]

        static func read(_ folder: String) throws -> Book {
            var tabs: [Tab: [[String]]] = [:]
            for tab in Tab.allCases {
                let url = WorkbookCheckTests.samples.appendingPathComponent("\(folder)/\(tab.rawValue).csv")
                let file = try CSVReader.parse(Array(try Data(contentsOf: url)), source: url.lastPathComponent)
                tabs[tab] = [file.table.header] + file.table.rows.map { $0.map(\.rawText) }
            }
            return Book(tabs: tabs)
        }

        /// The tables a CSV workbook of these files reads as (rows kept as bytes, as a sync reads them).
        func tables() throws -> [Tab: Table] {
            var tables: [Tab: Table] = [:]
            for (tab, rows) in tabs {
                let text = rows.map { $0.map(Self.field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
                let bytes = (self.bytes[tab] ?? { $0 })(Array(text.utf8))
                var file = try CSVReader.parse(bytes, source: "\(tab.rawValue).csv")
                file.table.lastRowUnterminated = !file.endsWithNewline
                tables[tab] = file.table
            }
            return tables
        }

        static func field(_ text: String) -> String {
            guard text.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }

        func column(_ tab: Tab, _ header: String) -> Int { tabs[tab]![0].firstIndex(of: header)! }

        mutating func set(_ tab: Tab, row: Int, _ header: String, _ value: String) {
            let c = column(tab, header)
            while tabs[tab]![row].count <= c { tabs[tab]![row].append("") }
            tabs[tab]![row][c] = value
        }

        func value(_ tab: Tab, row: Int, _ header: String) -> String { tabs[tab]![row][column(tab, header)] }
    }

    /// What a check reports of a plan, as `Inspection.check` fills its report.
    struct Shape: Equatable {
        var errors: [String]
        var held: [SyncIssue]
        var settings: LedgerRow?
        var tabs: [Tab: TabShape]
    }

    struct TabShape: Equatable {
        var loadable: Int
        var rejections: [Rejection]
        var notices: [SyncIssue]
        var conflicts: Int
        var local: TabCounts
        var remote: TabCounts
    }

    static func shape(_ plan: SyncPlan, _ loadable: [Tab: Int]) -> Shape {
        var tabs: [Tab: TabShape] = [:]
        for tabPlan in plan.tabs {
            var local = tabPlan.localCounts
            local.added = 0  // replaced by the loadable count
            tabs[tabPlan.tab] = TabShape(
                loadable: loadable[tabPlan.tab] ?? -1, rejections: tabPlan.rejections, notices: tabPlan.notices,
                conflicts: tabPlan.conflicts.count, local: local, remote: tabPlan.remoteCounts)
        }
        return Shape(errors: plan.tabErrors.map(\.description), held: plan.held, settings: plan.settings, tabs: tabs)
    }

    static func planner(_ strategy: PlanStrategy = .count) -> SyncPlanner {
        let counter = Counter()
        return SyncPlanner(purpose: .checking, now: now, strategy: strategy) { counter.next() }
    }

    final class Counter: @unchecked Sendable {
        private var n = 0
        func next() -> String {
            n += 1
            return String(format: "00000000-0000-4000-8000-%012d", n)
        }
    }

    /// Both ways on `book`; returns whether the counted way answered.
    @discardableResult
    static func compare(_ book: Book, _ name: String) throws -> Bool {
        let tables = try book.tables()
        let whole = planner(.planWhole).plan(workbook: tables, ledger: LedgerState(rows: [:], base: [:]))
        let expected = shape(whole, Dictionary(uniqueKeysWithValues: whole.tabs.map { ($0.tab, $0.result.count) }))
        let oneByOne = RowParts.$rowsPerPart.withValue(1) {
            RowParts.$cores.withValue(3) { WorkbookCheck.planCounting(tables, planner: planner()) }
        }
        guard let counted = WorkbookCheck.planCounting(tables, planner: planner()) else {
            #expect(oneByOne == nil, "\(name): counted in parts only")
            return false
        }
        let got = shape(counted.plan, counted.loadable)
        // Rows checked in parts side by side (a row each here) give the same answer.
        #expect(oneByOne.map { shape($0.plan, $0.loadable) } == got, "\(name): in parts")
        #expect(got == expected, "\(name)")
        return true
    }

    /// The cells `check` reviews (formula-like, or a number a spreadsheet program reformats in a text
    /// field) are set aside by the counted way's own scan of the big tabs: exactly those one pass over
    /// each tab's cells finds, in order, whether its rows are checked in parts or whole.
    @Test func theCountedScanSetsAsideTheCellsAReviewLooksAt() throws {
        var book = try Book.read("clean")
        var rows = try #require(book.tabs[.transactions])
        let note = try #require(rows[0].firstIndex(of: "note"))
        for (i, text) in ["=1+1", "00123", "1e5", "@home", "-x", "+3"].enumerated() where i + 1 < rows.count { rows[i + 1][note] = text }
        book.tabs[.transactions] = rows
        let tables = try book.tables()
        var noting: [Tab: CellCandidates] = [:]
        for (tab, table) in tables { noting[tab] = CellCandidates(table: table, tab: tab, roundTrips: true) }
        let oneByOne = RowParts.$rowsPerPart.withValue(1) {
            RowParts.$cores.withValue(3) { WorkbookCheck.planCounting(tables, planner: Self.planner(), noting: noting) }
        }
        let counted = try #require(WorkbookCheck.planCounting(tables, planner: Self.planner(), noting: noting), "a plain workbook")
        for tab in [Tab.transactions, .receipts] {
            var expected: [NotedCell] = []
            try #require(tables[tab]).forEachCell(where: try #require(noting[tab]).contains(column:firstByte:)) {
                expected.append(NotedCell(row: $0, column: $1, text: $2))
            }
            #expect(counted.noted[tab] == expected, "\(tab)")
            #expect(oneByOne?.noted[tab] == expected, "\(tab) in parts")
        }
        let texts = counted.noted[.transactions]?.filter { $0.column == note }.map(\.text)
        #expect(texts == ["=1+1", "00123", "1e5", "@home", "-x", "+3"])
    }

    /// A check made each way (`PlanStrategy`) reports the same; only `.count` counts on the bytes.
    @Test func everyStrategyChecksAlike() throws {
        let tables = try Book.read("clean").tables()
        var shapes: [PlanStrategy: Shape] = [:]
        for strategy in [PlanStrategy.count, .planWhole, .reconcileEveryKey] {
            let counter = Counter()
            let check = WorkbookCheck.plan(tables, now: Self.now, newID: { counter.next() }, strategy: strategy)
            shapes[strategy] = Self.shape(check.plan, check.loadable)
            // Counted, the big tabs are planned as their header alone; planned, with every row.
            let planned = check.plan.tabs.first { $0.tab == .transactions }?.result.count ?? 0
            #expect((planned == 0) == (strategy == .count), "\(strategy)")
        }
        #expect(shapes[.count] == shapes[.planWhole])
        #expect(shapes[.planWhole] == shapes[.reconcileEveryKey])
        #expect((shapes[.count]?.tabs[.transactions]?.loadable ?? 0) > 0)
    }

    @Test func aPlainWorkbookIsCountedWithTheWholePlansReport() throws {
        #expect(try Self.compare(try Book.read("clean"), "the clean sample"))
    }

    /// Its rows with problems go the ordinary way; its plain rows are still counted on their bytes.
    @Test func aHandEditedWorkbookWithProblemsCountsItsPlainRows() throws {
        #expect(try Self.compare(try Book.read("hand-edited"), "the hand-edited sample"))
    }

    /// Valid forms people and tools write: still counted, with the same report.
    @Test func validFormsAreCounted() throws {
        let base = try Book.read("clean")
        let id = base.value(.transactions, row: 3, "transactionId")
        let date = base.value(.transactions, row: 3, "date")
        let day = LocalDate(iso: date)!
        let edits: [(String, (inout Book) -> Void)] = [
            ("upper-case id", { $0.set(.transactions, row: 3, "transactionId", id.uppercased()) }),
            ("id in braces", { $0.set(.transactions, row: 3, "transactionId", "{\(id)}") }),
            ("id without dashes", { $0.set(.transactions, row: 3, "transactionId", id.replacingOccurrences(of: "-", with: "")) }),
            ("Expense", { $0.set(.transactions, row: 3, "type", "Expense") }),
            ("slashed date", { $0.set(.transactions, row: 3, "date", "\(day.year)/\(day.month)/\(day.day)") }),
            ("US date", { $0.set(.transactions, row: 3, "date", "\(day.month)/\(day.day)/\(day.year)") }),
            ("month with a zero", { $0.set(.transactions, row: 3, "month", String(format: "%02d", day.month)) }),
            ("currency amount", { $0.set(.transactions, row: 3, "amount", "$1,234.50") }),
            ("whole amount", { $0.set(.transactions, row: 3, "amount", "12") }),
            ("PAID", { $0.set(.transactions, row: 3, "paidFlag", "PAID") }),
            ("spaced category", { $0.set(.transactions, row: 3, "category", " Groceries ") }),
            ("quoted note", { $0.set(.transactions, row: 3, "note", "a \"quoted\", two-line\nnote") }),
            ("Z timestamps", { $0.set(.transactions, row: 3, "lastModifiedAt", "2026-01-01T09:00:00Z") }),
            ("offset timestamp", { $0.set(.transactions, row: 3, "createdAt", "2026-01-01T10:00:00+01:00") }),
            ("a minute ahead", { $0.set(.transactions, row: 3, "lastModifiedAt", "2026-11-26T12:01:00Z") }),
            (
                "user column",
                { book in
                    for r in book.tabs[.transactions]!.indices { book.tabs[.transactions]![r].append(r == 0 ? "Shop" : "Aldi, Main St") }
                }
            ),
            ("blank row", { $0.tabs[.transactions]!.append(Array(repeating: "", count: 14)) }),
            ("row of commas only", { $0.tabs[.transactions]!.insert(["", "", "", ""], at: 2) }),
            (
                "columns reordered",
                { book in
                    book.tabs[.transactions] = book.tabs[.transactions]!.map { Array($0.reversed()) }
                }
            ),
            (
                "receipt points at an upper-case id",
                { book in
                    let target = book.value(.receipts, row: 1, "transactionId")
                    book.set(.receipts, row: 1, "transactionId", target.uppercased())
                }
            ),
            ("no line end after a whole last row", { $0.bytes[.transactions] = { Array($0.dropLast(2)) } }),
        ]
        for (name, edit) in edits {
            var book = base
            edit(&book)
            #expect(try Self.compare(book, name), "\(name) is not counted")
        }
    }

    /// Every kind of problem, and what the sync fills in or corrects: planned whole, or counted with
    /// the same report.
    @Test func problemsGetTheWholePlansReport() throws {
        let base = try Book.read("clean")
        let other = base.value(.transactions, row: 2, "transactionId")
        let values: [(String, String)] = [
            ("transactionId", "xyz"), ("transactionId", ""), ("transactionId", other), ("type", "bogus"), ("type", ""),
            ("year", "2025"), ("year", ""), ("month", "13"), ("amount", "-5"), ("amount", "1e3"), ("amount", ""),
            ("amount", "1.234,50"), ("category", "Nope"), ("category", "groceries"), ("category", "   "), ("category", ""),
            ("recurringRuleId", "bad"), ("createdAt", ""), ("lastModifiedAt", ""), ("lastModifiedAt", "2027-01-01T00:00:00Z"),
            ("lastModifiedAt", " 2026-01-01T09:00:00Z"), ("lastModifiedAt", "yesterday"), ("paidFlag", "maybe"),
            ("date", "Jan 5 2026"), ("date", "5/1/26"), ("date", ""), ("date", "2026-02-30"), ("reimbursedFlag", " reimbursed"),
        ]
        for (header, value) in values {
            var book = base
            book.set(.transactions, row: 3, header, value)
            try Self.compare(book, "\(header) = '\(value)'")
        }
        let receipt = base.value(.receipts, row: 1, "receiptId")
        for (header, value) in [
            ("transactionId", "11111111-2222-3333-4444-555555555555"), ("transactionId", ""), ("receiptId", ""),
            ("fileName", "  "), ("driveFileId", ""),
        ] {
            var book = base
            book.set(.receipts, row: 1, header, value)
            try Self.compare(book, "receipt \(header) = '\(value)'")
        }
        var twice = base
        twice.tabs[.receipts]!.append(twice.tabs[.receipts]![1])
        try Self.compare(twice, "receipt \(receipt) twice")
        let structural: [(String, (inout Book) -> Void)] = [
            ("short row mid-file", { $0.tabs[.transactions]![2] = Array($0.tabs[.transactions]![2].prefix(5)) }),
            ("NUL in a note", { $0.set(.transactions, row: 2, "note", "a\u{0}b") }),
            (
                "stray quote",
                { book in
                    book.bytes[.transactions] = { bytes in
                        let text = String(decoding: bytes, as: UTF8.self)
                        return Array(text.replacingOccurrences(of: ",Lunch with Sam,", with: ",\"Lunch with Sam,").utf8)
                    }
                }
            ),
            (
                "cut-short last row",
                { book in
                    book.tabs[.transactions]![book.tabs[.transactions]!.count - 1].removeLast(3)
                    book.bytes[.transactions] = { Array($0.dropLast(2)) }
                }
            ),
            ("renamed header", { $0.tabs[.transactions]![0][5] = "amt" }),
            ("repeated column", { book in book.tabs[.transactions] = book.tabs[.transactions]!.map { $0 + [$0[5]] } }),
            ("header only", { $0.tabs[.transactions] = [$0.tabs[.transactions]![0]] }),
            ("blank file", { $0.tabs[.transactions] = [[""]] }),
            ("no Transactions file", { $0.tabs[.transactions] = nil }),
            ("no Settings file", { $0.tabs[.settings] = nil }),
            ("a bad category row", { $0.set(.categories, row: 1, "type", "bogus") }),
            ("a category twice in other case", { $0.tabs[.categories]!.append(["groceries"] + $0.tabs[.categories]![1].dropFirst()) }),
            ("a second Settings row", { $0.tabs[.settings]!.append($0.tabs[.settings]![1]) }),
        ]
        for (name, edit) in structural {
            var book = base
            edit(&book)
            try Self.compare(book, name)
        }
    }

    /// Random cell changes (values of every kind moved between columns and rows, and odd ones):
    /// whenever the counted way answers, its report is the whole plan's.
    @Test func randomEditsNeverChangeTheReport() throws {
        let base = try Book.read("clean")
        var pool = Set(base.tabs.values.flatMap { $0.dropFirst().flatMap { $0 } })
        pool.formUnion(["", " ", "TRUE", "Expense", "2026/1/2", "1/2/2026", "$5", "5.", ".5", "0", "-1", "{x}", "2026-01-02T03:04:05Z"])
        let values = pool.sorted()
        var random = SeededRandom(seed: 13)
        var counted = 0
        for round in 0..<300 {
            var book = base
            for _ in 0...(round % 3) {
                let tab: Tab = random.next(2) == 0 ? .transactions : .receipts
                let rows = book.tabs[tab]!.count
                let row = 1 + random.next(rows - 1)
                let column = random.next(book.tabs[tab]![0].count)
                book.tabs[tab]![row][column] = values[random.next(values.count)]
            }
            if try Self.compare(book, "round \(round)") { counted += 1 }
        }
        // Some rounds change nothing that matters (a note, a valid form): those are counted.
        #expect(counted > 10)
    }

    struct SeededRandom {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
    }
}
