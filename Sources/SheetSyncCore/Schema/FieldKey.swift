/// The name of a field of a sheetsync tab: the one list of field names, which the tab schemas
/// declare their fields with. A row is read by key (`row[.amount]`), so a misspelt name does not
/// compile; the raw value is the store's column name and the row's field name.
public enum FieldKey: String, CaseIterable, Hashable, Sendable {
    // Transactions (`type`, `amount`, `category`, `tagsCSV`, `note` also in RecurringRules)
    case transactionId, type, date, year, month, amount, category, tagsCSV, note
    case paidFlag, reimbursedFlag, recurringRuleId
    // Every tab
    case createdAt, lastModifiedAt
    // Receipts
    case receiptId, driveFileId, fileName
    // Categories
    case name, emoji, colorHex, isActive, sortOrder
    // RecurringRules
    case isEnabled, startDate, cadence, interval, endDate, lastGeneratedDate
    // Settings
    case datasetId, schemaVersion, timezone, rootFolderId, dataSpreadsheetId, receiptsFolderId
}
