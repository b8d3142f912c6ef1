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

    public init(profile: String? = nil, dryRun: Bool = false, mergeCategories: Bool = false, createCategories: Bool = false) {
        self.profile = profile
        self.dryRun = dryRun
        self.mergeCategories = mergeCategories
        self.createCategories = createCategories
    }
}

extension Workspace {
    /// Imports a bank statement (OFX/QFX, QIF, CAMT.053, a bank's CSV export) into the local store as
    /// local changes the next sync writes. Each entry's id is derived from the entry
    /// (`StatementEntryID`), so importing a statement again adds nothing and an overlapping one adds
    /// only what is new. All or nothing: when any entry is refused, nothing is added.
    public func importStatement(at url: URL, options: StatementImportOptions) async throws -> StatementImportReport {
        let file = url.lastPathComponent
        let bytes = try Self.statementBytes(url)
        let head = StatementText.decode(Array(bytes.prefix(4096))).map(\.text) ?? ""
        let (profile, readOptions) = try config.importing.options(profile: options.profile, fileName: file, head: head)
        let statement: Statement
        do { statement = try StatementReader.read(bytes, file: file, options: readOptions) } catch {
            throw SheetSyncError.data(error.description).coded(error.issue.code)
        }
        let rules = try ImportRules(config.importing)
        return try await withStore(preview: options.dryRun, startsLedger: false) { store in
            var report = StatementImportReport(file: file, format: statement.format.rawValue, profile: profile, dryRun: options.dryRun)
            report.pending = statement.pending
            report.refused = statement.refused.map(\.issue)
            let plan = try StatementImportPlan(statement: statement, rules: rules, options: options, store: store, now: clock.now())
            report.rows = plan.rows
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

    init(statement: Statement, rules: ImportRules, options: StatementImportOptions, store: LedgerStore, now: Timestamp) throws {
        let known = Set(try store.records(in: .transactions).map { $0[.transactionId] })
            .union(try store.deletedRows().filter { $0.tab == .transactions }.map(\.key))
        var categories = CategoryNames(try store.records(in: .categories).map { $0[.name] })
        var directions: [String: Set<StatementEntry.Direction>] = [:]
        var fileNamed: [String: Int] = [:]
        let stamp = now.description
        for (entry, id) in zip(statement.entries, StatementEntryID.ids(of: statement.entries)) {
            let note = StatementNote.text(entry)
            // The file's own category where it gives one (rules only where it is empty), else the rules'.
            let rule =
                entry.category.isEmpty
                ? rules.categorize(entry.payee + "\n" + entry.memo) : (category: entry.category, tags: "", matched: true)
            let category =
                entry.category.isEmpty || options.mergeCategories ? categories.spelling(of: rule.category) : entry.category
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
                LedgerRow([
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
            newCategories.append(try Workspace.categoryRecord(NewCategory(name: name, type: type), existing: categories.names, now: now))
            categories.names.insert(name)
        }
    }
}

extension StatementImportPlan {
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

extension Workspace {
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
}

extension StatementError {
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
