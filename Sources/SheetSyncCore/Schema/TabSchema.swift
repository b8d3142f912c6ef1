/// The five tabs of a sheetsync workbook, in the order they are written.
public enum Tab: String, CaseIterable, Hashable, Sendable, Codable {
    case transactions = "Transactions"
    case receipts = "Receipts"
    case categories = "Categories"
    case recurringRules = "RecurringRules"
    case settings = "Settings"

    public var schema: TabSchema { TabSchema.of(self) }
}

/// How a field's cells are read and written.
public enum FieldKind: Hashable, Sendable {
    /// A UUID, compared and stored in lowercase canonical form.
    case uuid
    /// Text matched after trimming spaces (names, ids from Drive).
    case text
    /// Free text kept verbatim (`note`, `tags`).
    case freeText
    /// One of the given lowercase values, matched case-insensitively.
    case enumeration([String])
    case date
    case timestamp
    /// An exact, non-negative decimal amount.
    case amount
    case integer(ClosedRange<Int>)
    case boolean
}

/// One column of a tab: the store's field name, the sheet's header, and how cells read.
public struct FieldSpec: Hashable, Sendable {
    /// The field's key.
    public let key: FieldKey
    /// The field name, also the SQLite column name (`tagsCSV`): `key.rawValue`.
    public let name: String
    /// The sheet header (`tags`).
    public let header: String
    public let kind: FieldKind
    /// Whether an empty cell is an error (after defaults such as `type = expense` apply).
    public let required: Bool

    public init(_ key: FieldKey, header: String? = nil, _ kind: FieldKind, required: Bool = true) {
        self.key = key
        name = key.rawValue
        self.header = header ?? key.rawValue
        self.kind = kind
        self.required = required
    }

    /// Whether this field is stored as an SQLite INTEGER (integers and booleans).
    public var isIntegerColumn: Bool { kind.rule.storedAsInteger }
}

/// The columns of one tab, in the seed specification's order.
public struct TabSchema: Hashable, Sendable {
    public let tab: Tab
    /// The SQLite table holding this tab's rows.
    public let tableName: String
    public let fields: [FieldSpec]
    /// Columns sheetsync adds to the tab when missing (not required on read).
    public let optionalColumns: Set<FieldKey>
    /// The field that identifies a row.
    public let keyField: FieldKey
    /// How dates and amounts typed as text read (the ledger's settings).
    public private(set) var forms = LocalForms.standard

    /// The schema reading dates and amounts typed as text by `forms`.
    public func reading(_ forms: LocalForms) -> TabSchema {
        var schema = self
        schema.forms = forms
        return schema
    }

    /// The field of `key`, nil when this tab has no such field.
    public func field(_ key: FieldKey) -> FieldSpec? { fields.first { $0.key == key } }

    /// The field named `name` (a name read from a sheet or the store), nil when there is none.
    public func field(named name: String) -> FieldSpec? { fields.first { $0.name == name } }

    public var fieldNames: [String] { fields.map(\.name) }

    public static let transactionTypes = ["expense", "income"]

    public static let transactions = TabSchema(
        tab: .transactions, tableName: "transactions",
        fields: [
            FieldSpec(.transactionId, .uuid),
            FieldSpec(.type, .enumeration(transactionTypes)),
            FieldSpec(.date, .date),
            FieldSpec(.year, .integer(1...9999)),
            FieldSpec(.month, .integer(1...12)),
            FieldSpec(.amount, .amount),
            FieldSpec(.category, .text),
            FieldSpec(.tagsCSV, header: "tags", .freeText, required: false),
            FieldSpec(.note, .freeText, required: false),
            FieldSpec(.paidFlag, .enumeration(["paid", "unpaid"]), required: false),
            FieldSpec(.reimbursedFlag, .enumeration(["reimbursed", "unreimbursed"]), required: false),
            FieldSpec(.recurringRuleId, .uuid, required: false),
            FieldSpec(.createdAt, .timestamp),
            FieldSpec(.lastModifiedAt, .timestamp),
        ],
        optionalColumns: [], keyField: .transactionId)

    public static let receipts = TabSchema(
        tab: .receipts, tableName: "receipts",
        fields: [
            FieldSpec(.receiptId, .uuid),
            FieldSpec(.transactionId, .uuid),
            FieldSpec(.driveFileId, .text),
            FieldSpec(.fileName, .text),
            FieldSpec(.createdAt, .timestamp),
            FieldSpec(.lastModifiedAt, .timestamp),
        ],
        optionalColumns: [], keyField: .receiptId)

    public static let categories = TabSchema(
        tab: .categories, tableName: "categories",
        fields: [
            FieldSpec(.name, .text),
            FieldSpec(.type, .enumeration(["expense", "income", "both"])),
            FieldSpec(.emoji, .freeText, required: false),
            FieldSpec(.colorHex, .text, required: false),
            FieldSpec(.isActive, .boolean),
            FieldSpec(.sortOrder, .integer(Int.min...Int.max), required: false),
            FieldSpec(.createdAt, .timestamp),
            FieldSpec(.lastModifiedAt, .timestamp),
        ],
        optionalColumns: [], keyField: .name)

    public static let recurringRules = TabSchema(
        tab: .recurringRules, tableName: "recurring_rules",
        fields: [
            FieldSpec(.recurringRuleId, .uuid),
            FieldSpec(.isEnabled, .boolean),
            FieldSpec(.type, .enumeration(transactionTypes)),
            FieldSpec(.amount, .amount),
            FieldSpec(.category, .text),
            FieldSpec(.tagsCSV, header: "tags", .freeText, required: false),
            FieldSpec(.note, .freeText, required: false),
            FieldSpec(.startDate, .date),
            FieldSpec(.cadence, .enumeration(["daily", "weekly", "monthly", "yearly"])),
            FieldSpec(.interval, .integer(1...100_000)),
            FieldSpec(.endDate, .date, required: false),
            FieldSpec(.lastGeneratedDate, .date, required: false),
            FieldSpec(.createdAt, .timestamp),
            FieldSpec(.lastModifiedAt, .timestamp),
        ],
        optionalColumns: [.lastGeneratedDate], keyField: .recurringRuleId)

    public static let settings = TabSchema(
        tab: .settings, tableName: "app_settings",
        fields: [
            FieldSpec(.datasetId, .uuid),
            FieldSpec(.schemaVersion, .integer(1...Int.max)),
            FieldSpec(.timezone, .text),
            FieldSpec(.rootFolderId, .text, required: false),
            FieldSpec(.dataSpreadsheetId, .text, required: false),
            FieldSpec(.receiptsFolderId, .text, required: false),
            FieldSpec(.createdAt, .timestamp),
            FieldSpec(.lastModifiedAt, .timestamp),
        ],
        optionalColumns: [], keyField: .datasetId)

    public static func of(_ tab: Tab) -> TabSchema {
        switch tab {
        case .transactions: return transactions
        case .receipts: return receipts
        case .categories: return categories
        case .recurringRules: return recurringRules
        case .settings: return settings
        }
    }
}
