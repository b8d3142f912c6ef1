import SheetValues

/// Transactions an imported workbook carries without an id are matched by content, as Firefly III's
/// duplicate hash and Actual's `imported_id` do, so importing the same file twice adds nothing.
///
/// The fingerprint is the canonical date, type, amount, category, note and tags, plus the row's
/// occurrence among identical rows of the file (two equal coffees on one day are two rows).
public enum ImportDeduplicator {
    public struct Outcome: Sendable {
        /// The Transactions table to import: rows seen before blanked, new rows given ids.
        public var table: Table
        /// Sheet row numbers of rows an earlier import already loaded.
        public var alreadyImported: [Int] = []
        /// Sheet row numbers and the store ids of rows whose content equals a transaction in the store.
        public var likelyDuplicates: [(row: Int, id: String)] = []
        /// Fingerprint → the id given, to record with the import.
        public var fingerprints: [String: String] = [:]
    }

    static let contentFields: [FieldKey] = [.date, .type, .amount, .category, .note, .tagsCSV]

    public static func content(_ record: LedgerRow) -> String {
        contentFields.map { record[$0] }.joined(separator: "\u{1F}")
    }

    public static func run(
        _ table: Table, imported: Set<String>, store: [String: LedgerRow], allowDuplicates: Bool,
        now: Timestamp, newID: () -> String, forms: LocalForms = .standard
    ) -> Outcome {
        var outcome = Outcome(table: table)
        guard let (map, rows) = try? TabReader.read(table, schema: Tab.transactions.schema.reading(forms), seenAt: now),
            let idColumn = map.columns[.transactionId]
        else { return outcome }  // an unreadable tab is reported by the planner
        var storeCopies: [String: [String]] = [:]
        for (id, record) in store { storeCopies[content(record), default: []].append(id) }
        var occurrences: [String: Int] = [:]
        var drop: Set<Int> = []
        for row in rows {
            guard case .record(let record, _) = row.outcome, row.key == "" else { continue }
            let text = content(record)
            let n = occurrences[text, default: 0] + 1
            occurrences[text] = n
            let fingerprint = "\(text)\u{1F}#\(n)"
            if imported.contains(fingerprint) {
                outcome.alreadyImported.append(row.sheetRowNumber)
                drop.insert(row.index)
            } else if !allowDuplicates, let copies = storeCopies[text], n <= copies.count {
                outcome.likelyDuplicates.append((row.sheetRowNumber, copies.sorted()[n - 1]))
                drop.insert(row.index)
            } else {
                let id = newID()
                while outcome.table.rows[row.index].count <= idColumn { outcome.table.rows[row.index].append(.empty) }
                outcome.table.rows[row.index][idColumn] = .text(id)
                outcome.fingerprints[fingerprint] = id
            }
        }
        // Skipped rows become blank (ignored) rather than removed, so every other row keeps its number.
        for index in drop { outcome.table.rows[index] = [] }
        return outcome
    }
}
