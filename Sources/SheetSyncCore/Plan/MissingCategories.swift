import SheetValues

/// Categories an imported workbook's rows name that neither the store nor the file's Categories tab
/// has: listed once each with their row count, and, when asked, created (so a Transactions-only file
/// from elsewhere can come in whole).
public enum MissingCategories {
    public struct Entry: Hashable, Sendable, Codable {
        public var name: String
        /// Transactions and rules that name it.
        public var rows: Int
        /// `expense`, `income`, or `both` when rows of both types use it.
        public var type: String
    }

    /// - Parameter known: the store's category names.
    public static func find(in workbook: [Tab: Table], known: Set<String>, now: Timestamp) -> [Entry] {
        var known = known
        for record in records(workbook, .categories, now: now) { known.insert(record[.name]) }
        var found: [String: Entry] = [:]
        for tab in [Tab.transactions, .recurringRules] {
            for record in records(workbook, tab, now: now) where !known.contains(record[.category]) && !record[.category].isEmpty {
                let name = record[.category], type = record[.type]
                var entry = found[name] ?? Entry(name: name, rows: 0, type: type)
                entry.rows += 1
                if entry.type != type { entry.type = "both" }
                found[name] = entry
            }
        }
        return found.values.sorted { $0.name < $1.name }
    }

    /// The workbook's Categories table with `missing` added as new rows (created when the file has none).
    public static func adding(_ missing: [Entry], to table: Table?, now: Timestamp) -> Table {
        let schema = Tab.categories.schema
        var table = table ?? Table(header: TablePatcher.newHeader(schema))
        guard let map = try? ColumnMap(header: table.header, schema: schema) else { return table }
        for entry in missing {
            var row = [Cell](repeating: .empty, count: max(map.headerWidth, table.header.count))
            let values = [
                FieldKey.name: entry.name, .type: entry.type, .isActive: "TRUE", .createdAt: now.description,
                .lastModifiedAt: now.description,
            ]
            for (field, value) in values { if let column = map.columns[field] { row[column] = .text(value) } }
            table.rows.append(row)
        }
        return table
    }

    private static func records(_ workbook: [Tab: Table], _ tab: Tab, now: Timestamp) -> [LedgerRow] {
        guard let table = workbook[tab], let rows = try? TabReader.read(table, schema: tab.schema, seenAt: now).1 else { return [] }
        return rows.compactMap { row in
            if case .record(let record, _) = row.outcome { return record }
            return nil
        }
    }
}
