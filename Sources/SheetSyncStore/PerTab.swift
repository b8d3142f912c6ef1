import SheetSyncCore

/// One value per tab, built once when first used: the statements, queries and column positions a
/// store reads per row, found by a switch rather than a dictionary lookup.
struct PerTab<Value: Sendable>: Sendable {
    private let transactions: Value
    private let receipts: Value
    private let categories: Value
    private let recurringRules: Value
    private let settings: Value

    init(_ make: (Tab) -> Value) {
        transactions = make(.transactions)
        receipts = make(.receipts)
        categories = make(.categories)
        recurringRules = make(.recurringRules)
        settings = make(.settings)
    }

    subscript(_ tab: Tab) -> Value {
        switch tab {
        case .transactions: return transactions
        case .receipts: return receipts
        case .categories: return categories
        case .recurringRules: return recurringRules
        case .settings: return settings
        }
    }
}
