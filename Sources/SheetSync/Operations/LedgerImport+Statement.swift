import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Statements

/// How `sheetsync import STATEMENT` reads the file.
public struct StatementImportOptions: Sendable {
    /// An `import.profiles` name; nil picks the profile the file matches, if any.
    public var profile: String?
    public var dryRun: Bool
    /// File the rows of a category the file names (a budget sheet's `Category` column) under the
    /// ledger's category of the same name ignoring case.
    public var mergeCategories: Bool
    /// Create the categories the file names that the ledger lacks (never a twin differing only in case).
    public var createCategories: Bool
    /// The sheets of a budget `.xlsx` to read (`--sheet`); empty: every sheet with a table.
    public var sheets: [String]

    public init(
        profile: String? = nil, dryRun: Bool = false, mergeCategories: Bool = false, createCategories: Bool = false, sheets: [String] = []
    ) {
        self.profile = profile
        self.dryRun = dryRun
        self.mergeCategories = mergeCategories
        self.createCategories = createCategories
        self.sheets = sheets
    }
}

extension LedgerImport {
    /// Imports a bank statement (OFX/QFX, QIF, CAMT.053, a bank's CSV export) into the local store as
    /// local changes the next sync writes. Each entry's id is derived from the entry
    /// (`StatementEntryID`), so importing a statement again adds nothing and an overlapping one adds
    /// only what is new. All or nothing: when any entry is refused, nothing is added.
    public func importStatement(at url: URL, options: StatementImportOptions) async throws -> StatementImportReport {
        let file = url.lastPathComponent
        let (statement, profile, budget) = try readStatement(url, sheets: options.sheets, profile: options.profile)
        let rules = try ImportRules(workspace.config.importing)
        return try await workspace.withStore(preview: options.dryRun, startsLedger: false) { store in
            var report = StatementImportReport(
                file: file, format: budget == nil ? statement.format.rawValue : "XLSX", profile: profile, dryRun: options.dryRun)
            report.sheets = budget?.sheetsRead ?? []
            report.skippedSheets = budget?.sheetsSkipped ?? []
            report.pending = statement.pending
            report.refused = statement.refused.map(\.issue)
            let plan = try StatementImportPlan(
                statement: statement, source: StatementEntryID.source(profile: profile, statement: statement), rules: rules,
                options: options, store: store, now: workspace.clock.now())
            report.rows = plan.rows
            if let budget { for i in report.rows.indices { report.rows[i].sheet = budget.sheetOfEntry[i] } }
            report.createdCategories = plan.newCategories.map { $0[.name] }
            report.refused += plan.unknownCategories.map { .heldBack(.unknownCategory, at: .file(file), $0) }
            guard report.refused.isEmpty else {
                report.createdCategories = []
                for i in report.rows.indices where report.rows[i].status == .added { report.rows[i].status = .heldBack }
                return report
            }
            report.added = plan.transactions.count
            report.alreadyImported = plan.rows.count { $0.status == .alreadyImported }
            for row in plan.rows where row.status == .added { report.categories[row.category, default: 0] += 1 }
            guard !options.dryRun else { return report }
            _ = try store.commit(plan.commit)
            return report
        }
    }

    /// The statement at `url` (a budget `.xlsx`'s sheets, or a statement file's entries), the import
    /// profile it was read with, and the budget workbook when it is one. A file that cannot be read as
    /// a whole is refused with its code and what to do (`StatementError.failure`).
    private func readStatement(
        _ url: URL, sheets: [String], profile named: String?
    ) throws -> (Statement, profile: String?, budget: BudgetWorkbook?) {
        let file = url.lastPathComponent
        let isBudget = XLSXWorkbookRemote.isWorkbookFile(url)
        guard isBudget || sheets.isEmpty else {
            throw SheetSyncError(.usage, "--sheet picks sheets of an .xlsx; \(file) is not one")
        }
        let bytes = isBudget ? [] : try Self.statementBytes(url)
        let head = StatementText.decode(Array(bytes.prefix(4096))).map(\.text) ?? ""
        let (profile, readOptions) = try workspace.config.importing.options(profile: named, fileName: file, head: head)
        do {
            if isBudget {
                let budget = try BudgetWorkbook(url, sheets: sheets, options: readOptions)
                return (budget.statement, profile, budget)
            }
            return (try StatementReader.read(bytes, file: file, options: readOptions), profile, nil)
        } catch let error as StatementError {
            throw error.failure(settings: profile.map { "import.profiles.\($0)" } ?? "import.csv", config: workspace.config.source)
        }
    }

    /// The file's bytes; a folder or a missing file is named as such.
    private static func statementBytes(_ url: URL) throws -> [UInt8] {
        do { return Array(try Data(contentsOf: url)) } catch {
            throw SheetSyncError(.usage, "cannot read \(url.path): \(error.localizedDescription)")
        }
    }
}

/// A statement's entries as transactions: which are new, their categories (created when the ledger
/// lacks them), their rows.
struct StatementImportPlan {
    var rows: [StatementImportReport.Row] = []
    var transactions: [LedgerRow] = []
    var newCategories: [LedgerRow] = []
    /// Categories the file names that the ledger lacks and the options do not create, with their rows' count and the fix.
    var unknownCategories: [String] = []

    init(
        statement: Statement, source: String, rules: ImportRules, options: StatementImportOptions, store: LedgerStore, now: Timestamp
    ) throws {
        let known = Set(try store.records(in: .transactions).map { $0[.transactionId] })
            .union(try store.deletedRows().filter { $0.tab == .transactions }.map(\.key))
        var categories = CategoryNames(try store.records(in: .categories).map { $0[.name] })
        var directions: [String: Set<StatementEntry.Direction>] = [:]
        var fileNamed: [String: Int] = [:]
        // The ledger's names do not change while the entries are planned: each name is spelled once.
        var spellings: [String: String] = [:]
        func spelling(of name: String) -> String {
            if let known = spellings[name] { return known }
            let spelled = categories.spelling(of: name)
            spellings[name] = spelled
            return spelled
        }
        let stamp = now.description
        let notes = statement.entries.map(StatementNote.text)
        let ids = StatementEntryID.ids(of: statement.entries, notes: notes, source: source)
        for ((entry, note), id) in zip(zip(statement.entries, notes), ids) {
            // The file's own category where it gives one (rules only where it is empty), else the rules'.
            let rule =
                entry.category.isEmpty
                ? rules.categorize(entry.payee + "\n" + entry.memo) : (category: entry.category, tags: "", matched: true)
            let category =
                entry.category.isEmpty || options.mergeCategories ? spelling(of: rule.category) : entry.category
            if !entry.category.isEmpty, !categories.names.contains(category) { fileNamed[category, default: 0] += 1 }
            let type = entry.direction == .outgoing ? "expense" : "income"
            let isNew = !known.contains(id)
            rows.append(
                .init(
                    line: entry.line, transactionId: id, date: entry.date.description, type: type, amount: entry.amount.description,
                    category: category, tags: rule.tags, note: note, status: isNew ? .added : .alreadyImported))
            guard isNew else { continue }
            directions[category, default: []].insert(entry.direction)
            transactions.append(
                Self.transaction([
                    .transactionId: id, .type: type, .date: entry.date.description, .year: String(entry.date.year),
                    .month: String(entry.date.month), .amount: entry.amount.description, .category: category,
                    .tagsCSV: rule.tags, .note: note, .paidFlag: "", .reimbursedFlag: "", .recurringRuleId: "",
                    .createdAt: stamp, .lastModifiedAt: stamp,
                ]))
        }
        let refusedNames = Set(fileNamed.keys.filter { !options.createCategories || categories.spelling(of: $0) != $0 })
        unknownCategories = refusedNames.sorted().map { name in
            let rows = "\(fileNamed[name] ?? 0) row\(fileNamed[name] == 1 ? "" : "s")"
            let twin = categories.spelling(of: name)
            return twin != name
                ? "unknown category '\(name)' in \(rows); the ledger has '\(twin)', which differs only in case: "
                    + "import again with --merge-categories to file these rows under '\(twin)'"
                : "unknown category '\(name)' in \(rows); add it (`sheetsync category add`), or import again with --create-categories"
        }
        for name in categories.missing(among: transactions.map { $0[.category] }) where !refusedNames.contains(name) {
            let seen = directions[name] ?? []
            let type = seen == [.outgoing] ? "expense" : seen == [.incoming] ? "income" : "both"
            newCategories.append(try Categories.record(NewCategory(name: name, type: type), existing: categories.names, now: now))
            categories.names.insert(name)
        }
    }
}

extension StatementImportPlan {
    /// A transaction of these fields, every one of the tab's: the row `LedgerRow([FieldKey: String])`
    /// makes of them (the tab's shared layout), without building two dictionaries for each entry.
    static func transaction(_ fields: KeyValuePairs<FieldKey, String>) -> LedgerRow {
        var row = LedgerRow(layout: .of(.transactions), values: [])
        for (key, value) in fields { row[key] = value }
        return row
    }

    /// The store commit: the new categories and transactions (each only where its key is still
    /// free), marked as local changes for the next sync to push, as a workbook import's are.
    var commit: StoreCommit {
        var commit = StoreCommit()
        for (tab, rows) in [(Tab.categories, newCategories), (.transactions, transactions)] where !rows.isEmpty {
            commit.upserts[tab] = rows.map { RowWrite(record: $0, expected: nil) }
            commit.changes[tab] = .marking(rows.map { $0[tab.schema.keyField] })
        }
        commit.state[SyncEngine.stateRemoteVersion] = .some(nil)
        return commit
    }
}

/// The ledger's category names: a name a rule gives is used in the ledger's spelling when the two
/// differ only in case (`groceries` → `Groceries`), as `category add` refuses such a twin.
struct CategoryNames {
    var names: Set<String>

    init(_ names: [String]) { self.names = Set(names) }

    func spelling(of name: String) -> String {
        if names.contains(name) { return name }
        let folded = TerminalText.lookalikeFold(name)
        return names.sorted().first { TerminalText.lookalikeFold($0) == folded } ?? name
    }

    /// The names among `used` the ledger lacks, each once, in order of first use.
    func missing(among used: [String]) -> [String] {
        var seen: Set<String> = []
        return used.filter { !names.contains($0) && seen.insert($0).inserted }
    }
}

extension LedgerImport {
    /// Whether `import` reads `url` as a bank statement: a file that is no workbook (a folder, an
    /// `.xlsx` or any zip package stays the workbook import). A missing path is not one: the workbook
    /// import names it.
    public static func isStatement(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
            !XLSXWorkbookRemote.isWorkbookFile(url)
        else { return false }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return true }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)).map { Array($0) } ?? []
        return head != [0x50, 0x4B, 0x03, 0x04]
    }

    /// Whether `import` reads `url` as a budget kept in an `.xlsx` (`BudgetWorkbook.isBudget`): one whose
    /// sheets are named with `--sheet`, or one without the ledger's tabs.
    public static func isBudgetWorkbook(_ url: URL, sheets: [String]) -> Bool { BudgetWorkbook.isBudget(url, sheets: sheets) }
}

extension StatementError {
    /// The whole file refused (exit 65), with its code and what to do: the config keys to set, at
    /// `settings` (`import.csv` or the bank's profile) in the file at `config`, or the file to check.
    func failure(settings: String, config: URL?) -> SheetSyncError {
        let place = config.map { "the config at \($0.path)" } ?? "a config file (none is in use: create sheetsync.json)"
        var error = SheetSyncError.data(description).coded(issue.code)
        switch problem {
        case .empty, .binary, .unknownFormat:
            error.hint =
                "import takes a bank's statement export: OFX or QFX, QIF, CAMT.053 (XML) or CSV; check that this file is one, "
                + "or download the statement again in one of those formats"
        case .missingColumn:
            error.hint =
                "name the bank's columns in \(settings).columns in \(place), "
                + #"e.g. {"date": "Buchungstag", "amount": "Betrag", "note": "Verwendungszweck"}"#
        case .ambiguousDates, .mixedDateOrder:
            error.hint = #"set \#(settings).dateFormat in \#(place) to the order the bank prints, "dd/MM/yyyy" or "MM/dd/yyyy""#
        case .badDate, .badAmount, .missingField, .malformed:
            error.hint = "the file is damaged or cut short: download the statement from the bank again"
        }
        return error
    }

    /// The refusal as the import reports it.
    var issue: SyncIssue {
        let code: IssueCode
        switch problem {
        case .empty, .binary, .unknownFormat: code = .notAStatement
        case .missingColumn: code = .missingColumn
        case .ambiguousDates, .mixedDateOrder: code = .ambiguousDateOrder
        case .badDate: code = .invalidDate
        case .badAmount: code = .invalidAmount
        case .missingField: code = .missingValue
        case .malformed: code = .malformedStatement
        }
        return .heldBack(code, at: IssuePlace(file: file, line: line), what)
    }
}
