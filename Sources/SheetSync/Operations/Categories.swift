import Foundation
import SheetSyncCore
import SheetSyncStore

/// A category as `category list` shows it.
public struct CategoryLine: Codable, Sendable {
    public var name: String
    public var type: String
    public var emoji: String
    public var colorHex: String
    public var isActive: Bool
    /// Transactions that name it.
    public var transactions: Int
}

/// What a new category is made of.
public struct NewCategory: Sendable {
    public var name: String
    public var type: String
    public var emoji: String
    public var colorHex: String

    public init(name: String, type: String = "expense", emoji: String = "", colorHex: String = "") {
        self.name = name
        self.type = type
        self.emoji = emoji
        self.colorHex = colorHex
    }

    /// A handful of common categories, so `add` works right after `init`.
    public static let starters: [NewCategory] = [
        .init(name: "Groceries", emoji: "🛒", colorHex: "#4caf50"), .init(name: "Dining", emoji: "🍽️", colorHex: "#ff9800"),
        .init(name: "Housing", emoji: "🏠", colorHex: "#795548"), .init(name: "Utilities", emoji: "💡", colorHex: "#9c27b0"),
        .init(name: "Transport", emoji: "🚌", colorHex: "#2196f3"), .init(name: "Health", emoji: "🩺", colorHex: "#f44336"),
        .init(name: "Shopping", emoji: "🛍️", colorHex: "#e91e63"), .init(name: "Entertainment", emoji: "🎬", colorHex: "#673ab7"),
        .init(name: "Salary", type: "income", emoji: "💼", colorHex: "#009688"),
        .init(name: "Other income", type: "income", emoji: "💰", colorHex: "#8bc34a"),
    ]
}

/// `sheetsync category …`: the ledger's categories listed, added, archived and renamed, in the store
/// (the next sync writes them to the Categories tab).
public struct Categories: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Categories in the store, by sortOrder then name; archived ones only with `all`.
    public func list(all: Bool) async throws -> [CategoryLine] {
        try await workspace.withStore(preview: true) { store in
            var used: [String: Int] = [:]
            for row in try store.records(in: .transactions) { used[row[.category], default: 0] += 1 }
            return try store.records(in: .categories)
                .sorted { (Int($0[.sortOrder]) ?? Int.max, $0[.name]) < (Int($1[.sortOrder]) ?? Int.max, $1[.name]) }
                .map {
                    CategoryLine(
                        name: $0[.name], type: $0[.type], emoji: $0[.emoji], colorHex: $0[.colorHex],
                        isActive: $0[.isActive] != "FALSE", transactions: used[$0[.name]] ?? 0)
                }
                .filter { all || $0.isActive }
        }
    }

    /// Adds a category to the store (the next push writes it to the Categories tab). Returns false, and
    /// changes nothing, when a category of that exact name is already there: adding is idempotent, so a
    /// script may run it every time.
    @discardableResult
    public func add(_ new: NewCategory, dryRun: Bool) async throws -> Bool {
        try await workspace.withStore(preview: dryRun) { store in
            let names = Set(try store.records(in: .categories).map { $0[.name] })
            if names.contains(new.name.trimmingCharacters(in: .whitespaces)) { return false }
            try store.upsert(try Self.record(new, existing: names, now: workspace.clock.now()), in: .categories)
            return true
        }
    }

    /// Archives a category: `isActive` false. Rows that name it stay valid.
    public func archive(_ name: String, dryRun: Bool) async throws {
        try await workspace.withStore(preview: dryRun) { store in
            let categories = try store.records(in: .categories)
            guard var category = categories.first(where: { $0[.name] == name }) else {
                let hint = CategoryCheck.hint(for: name, known: Set(categories.map { $0[.name] }))
                throw SheetSyncError(.usage, "no category named '\(name)' (\(hint))")
            }
            category[.isActive] = "FALSE"
            category[.lastModifiedAt] = workspace.clock.now().description
            try store.upsert(category, in: .categories)
        }
    }

    /// A category name is shown on terminals, in reports and in every row that names it: one holding a
    /// control character (an escape sequence) or an invisible formatting character (a bidi override, a
    /// zero-width space) is refused, naming it as `TerminalText` shows it.
    static func refuseControlCharacters(inCategoryName name: String) throws {
        guard let scalar = name.unicodeScalars.first(where: TerminalText.needsEscape) else { return }
        throw SheetSyncError(
            .usage,
            "the category name '\(TerminalText.visible(name))' holds the control or invisible character "
                + "\(TerminalText.visible(String(scalar))); type the name without it")
    }

    /// A category row checked as the sheet checks one: a name not taken (case-sensitive, with a hint
    /// for a near-miss), a known type, a `#RRGGBB` colour.
    static func record(_ new: NewCategory, existing: Set<String>, now: Timestamp) throws -> LedgerRow {
        let name = new.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw SheetSyncError(.usage, "the category name is empty") }
        try refuseControlCharacters(inCategoryName: name)
        guard !existing.contains(name) else { throw SheetSyncError(.usage, "a category named '\(name)' already exists") }
        if let twin = existing.first(where: { TerminalText.lookalikeFold($0) == TerminalText.lookalikeFold(name) }) {
            throw SheetSyncError(
                .usage,
                "'\(twin)' exists already; names differing only in case or by full-width letters would confuse every row that names them")
        }
        let type = new.type.lowercased()
        guard ["expense", "income", "both"].contains(type) else {
            throw SheetSyncError(.usage, "--type '\(new.type)' must be expense, income or both")
        }
        let color = new.colorHex
        guard color.isEmpty || (color.count == 7 && color.hasPrefix("#") && color.dropFirst().allSatisfy { $0.isASCII && $0.isHexDigit })
        else {
            throw SheetSyncError(.usage, "--color '\(color)' is not a colour like #4caf50")
        }
        let stamp = now.description
        return LedgerRow([
            .name: name, .type: type, .emoji: new.emoji, .colorHex: color.lowercased(), .isActive: "TRUE",
            .sortOrder: "", .createdAt: stamp, .lastModifiedAt: stamp,
        ])
    }
}
