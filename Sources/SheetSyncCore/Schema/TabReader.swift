import SheetValues

/// A tab that cannot be read at all (its rows are left alone and nothing is synced for it).
public struct TabError: Error, Hashable, Sendable, CustomStringConvertible {
    public var tab: Tab
    public var message: String
    public var description: String { issue.text }
    /// The error as the issue a run reports: the tab cannot be read, so none of it changes.
    public var issue: SyncIssue { .heldBack(.unreadableTab, at: .tab(tab), message) }
}

/// Where each schema field sits in a sheet's header row.
public struct ColumnMap: Hashable, Sendable {
    /// Field → column index.
    public var columns: [FieldKey: Int]
    public var headerWidth: Int

    /// Matches header text trimmed and case-insensitively. A missing required column stops the tab
    /// (a renamed `note` header must never read as "every note cleared").
    public init(header: [String], schema: TabSchema) throws(TabError) {
        var byName: [String: Int] = [:]
        for (index, text) in header.enumerated() {
            let name = text.trimmingSpaces().lowercased()
            guard !name.isEmpty else { continue }
            if let first = byName[name], schema.fields.contains(where: { $0.header.lowercased() == name }) {
                throw TabError(
                    tab: schema.tab,
                    message: "column '\(text)' appears twice (columns \(first + 1) and \(index + 1)); remove one")
            }
            byName[name] = index
        }
        var columns: [FieldKey: Int] = [:]
        var missing: [String] = []
        for field in schema.fields {
            if let index = byName[field.header.lowercased()] {
                columns[field.key] = index
            } else if !schema.optionalColumns.contains(field.key) {
                missing.append(field.header)
            }
        }
        guard missing.isEmpty else {
            if let delimiter = Self.otherDelimiter(header, schema: schema) {
                throw TabError(
                    tab: schema.tab,
                    message: "the header row is read as one column ('\(header.first { $0.contains(delimiter) } ?? "")'): the file is "
                        + "separated by '\(delimiter == "\t" ? "\\t" : String(delimiter))', not ','. Save it again as CSV with ',' as the field "
                        + "separator (LibreOffice: Save As, Text CSV, Edit filter settings, Field delimiter ','; Excel: CSV (Comma "
                        + "delimited)), or undo the save from .sheetsync-backup/")
            }
            let list = missing.map { "'\($0)'" }.joined(separator: ", ")
            throw TabError(
                tab: schema.tab,
                message: "missing column\(missing.count > 1 ? "s" : "") \(list) in the header row; restore the header text")
        }
        self.columns = columns
        self.headerWidth = header.count
    }

    /// The separator a header row was saved with when it is not a comma: a cell that splits on `;` or
    /// a tab into two or more of the schema's headers (a European spreadsheet's CSV save).
    static func otherDelimiter(_ header: [String], schema: TabSchema) -> Character? {
        let headers = Set(schema.fields.map { $0.header.lowercased() })
        for delimiter: Character in [";", "\t"] {
            for cell in header where cell.contains(delimiter) {
                let parts = cell.split(separator: delimiter).map { String($0).trimmingSpaces().lowercased() }
                if parts.filter(headers.contains).count >= 2 { return delimiter }
            }
        }
        return nil
    }

    public func cell(_ field: FieldKey, in row: [Cell]) -> Cell {
        guard let i = columns[field], i < row.count else { return .empty }
        return row[i]
    }
}

/// One data row of a sheet, read.
public struct SheetRow: Hashable, Sendable {
    public enum Outcome: Hashable, Sendable {
        /// A loadable row. `fixes` names the fields whose cell must be rewritten (a stale
        /// `year`, a default filled in); `needsKey` marks a hand-added row without a key.
        case record(LedgerRow, fixes: Set<String>)
        /// The row cannot be loaded; it stays frozen in the sheet.
        case rejected([FieldProblem])
        /// Every cell is empty: ignored, kept as it is.
        case blank
    }

    /// The row's index in `Table.rows`.
    public var index: Int
    /// The cells of a row that is not loadable, as a rejection shows them. A loadable or blank row's
    /// cells are not kept (empty here): its record holds what they say, and a first pull of a big
    /// tab would otherwise hold every row twice.
    public var cells: [Cell]
    public var outcome: Outcome
    /// The key as read (canonical), `""` when the key cell is empty, nil when it cannot be read.
    public var key: String?

    public var sheetRowNumber: Int { Table.sheetRowNumber(ofDataRow: index) }

    public init(index: Int, cells: [Cell], outcome: Outcome, key: String?) {
        self.index = index
        self.cells = cells
        self.outcome = outcome
        self.key = key
    }
}

/// Reads a tab's table into rows, tolerantly: columns matched by header text in any order, cells in the
/// forms people and other tools write them, a row that cannot be read rejected with its problems.
public enum TabReader {
    /// - Parameter seenAt: the time of this read, used for empty `createdAt`/`lastModifiedAt`.
    /// - Parameter skipping: by row index, rows not read: known unchanged since the last sync, or
    ///   taken as read on their bytes (`PlainRows`).
    public static func read(
        _ table: Table, schema: TabSchema, seenAt: Timestamp, skipping: [Bool]? = nil
    ) throws(TabError) -> (ColumnMap, [SheetRow]) {
        let map = try ColumnMap(header: table.header, schema: schema)
        // Column positions are looked up once per tab, not once per cell.
        let layout = RowLayout.of(schema)
        let columns = schema.fields.map { map.columns[$0.key] }
        let mapped = Array(map.columns.values)
        var rows: [SheetRow] = []
        rows.reserveCapacity(table.rowCount)
        var scratch: [String] = []
        for index in 0..<table.rowCount {
            if let skipping, index < skipping.count, skipping[index] { continue }
            // Decoded here, one row at a time: a skipped row is never decoded.
            let cells = table.row(index)
            if let damage = table.damagedRows[index] {
                // No key is trusted from a damaged row: the tab deletes nothing this run.
                let problem = FieldProblem(field: "", value: "", message: damage, hint: "fix this row in the file")
                rows.append(SheetRow(index: index, cells: cells, outcome: .rejected([problem]), key: nil))
                continue
            }
            if mapped.allSatisfy({ $0 >= cells.count || cells[$0].isEmpty }) {
                rows.append(SheetRow(index: index, cells: [], outcome: .blank, key: ""))
                continue
            }
            let (outcome, key): (SheetRow.Outcome, String?)
            if let layout {
                (outcome, key) = parse(schema: schema, layout: layout, seenAt: seenAt, scratch: &scratch) { field in
                    guard let i = columns[field], i < cells.count else { return .empty }
                    return cells[i]
                }
            } else {
                (outcome, key) = parseByName(schema: schema, seenAt: seenAt) { map.cell($0, in: cells) }
            }
            // A row the reader refused (a NUL byte) is rejected whatever its fields say; its key still counts.
            let refused = table.refusedRows[index].map { SheetRow.Outcome.rejected([$0]) }
            let read = refused ?? outcome
            if case .record = read {
                rows.append(SheetRow(index: index, cells: [], outcome: read, key: key))
            } else {
                rows.append(SheetRow(index: index, cells: cells, outcome: read, key: key))
            }
        }
        return (map, rows)
    }

    /// Parses one row whose cells are given by field name; shared by sheet rows and store rows.
    public static func parse(schema: TabSchema, seenAt: Timestamp, cell: (FieldKey) -> Cell) -> (SheetRow.Outcome, String?) {
        guard let layout = RowLayout.of(schema) else { return parseByName(schema: schema, seenAt: seenAt, cell: cell) }
        let fields = schema.fields
        return parse(schema: schema, layout: layout, seenAt: seenAt) { cell(fields[$0].key) }
    }

    /// `parse` of a stored row (its texts read as cells, `""` as empty): by position when the row
    /// has the schema's layout, as every row the store reads does.
    public static func parse(schema: TabSchema, seenAt: Timestamp, stored row: LedgerRow) -> (SheetRow.Outcome, String?) {
        func cell(_ text: String) -> Cell { text.isEmpty ? .empty : .text(text) }
        guard let layout = RowLayout.of(schema) else { return parseByName(schema: schema, seenAt: seenAt) { cell(row[$0]) } }
        if row.layout === layout.template.layout {
            let values = row.values
            return parse(schema: schema, layout: layout, seenAt: seenAt) { cell(values[$0]) }
        }
        let fields = schema.fields
        return parse(schema: schema, layout: layout, seenAt: seenAt) { cell(row[fields[$0].key]) }
    }

    /// `parse` for any schema, field by field through a `LedgerRow`; the five tabs' schemas take the
    /// array-based path of `TabReader+Layout.swift`, which gives the same outcome.
    static func parseByName(schema: TabSchema, seenAt: Timestamp, cell: (FieldKey) -> Cell) -> (SheetRow.Outcome, String?) {
        var record = LedgerRow()
        var fixes: Set<String> = []
        var problems: [FieldProblem] = []
        for field in schema.fields {
            switch FieldParser.canonical(cell(field.key), field, schema.forms) {
            case .success(let value): record[field.key] = value
            case .failure(let problem):
                record[field.key] = ""
                problems.append(problem)
            }
        }
        let keyField = schema.keyField
        let keyReadable = !problems.contains { $0.field == schema.field(keyField)?.header }
        let key: String? = keyReadable ? record[keyField] : nil
        applyDefaults(&record, fixes: &fixes, schema: schema, seenAt: seenAt)
        for field in schema.fields where field.required && record[field.key].isEmpty && field.key != keyField {
            if let problem = emptyRequiredProblem(field, tab: schema.tab, problems: problems) { problems.append(problem) }
        }
        if !problems.isEmpty { return (.rejected(problems), key) }
        return (.record(record, fixes: fixes), key)
    }

    /// The problem a required field left empty makes, unless the field already has one. Year and
    /// month come from the date: where the date is bad, that is the one problem to report.
    static func emptyRequiredProblem(_ field: FieldSpec, tab: Tab, problems: [FieldProblem]) -> FieldProblem? {
        if problems.contains(where: { $0.field == field.header }) { return nil }
        if tab == .transactions, [.year, .month].contains(field.key), problems.contains(where: { $0.field == "date" }) { return nil }
        return FieldProblem(
            field: field.header, value: "", message: "\(field.header) is empty", hint: "fill in \(field.header)", code: .missingValue)
    }

    /// Defaults for hand-typed rows, and derived fields corrected.
    static func applyDefaults(_ record: inout LedgerRow, fixes: inout Set<String>, schema: TabSchema, seenAt: Timestamp) {
        let now = seenAt.description
        for key in [FieldKey.createdAt, .lastModifiedAt] where record[key].isEmpty {
            record[key] = now
            fixes.insert(key.rawValue)
        }
        if schema.tab == .transactions {
            if record[.type].isEmpty {
                record[.type] = "expense"
                fixes.insert(FieldKey.type.rawValue)
            }
            if let date = LocalDate(iso: record[.date]) {
                for (key, value) in [(FieldKey.year, date.year), (.month, date.month)] where record[key] != String(value) {
                    record[key] = String(value)
                    fixes.insert(key.rawValue)
                }
            }
        }
        if schema.tab == .recurringRules, record[.interval].isEmpty {
            record[.interval] = "1"
            fixes.insert(FieldKey.interval.rawValue)
        }
        if schema.tab == .categories, record[.isActive].isEmpty {
            record[.isActive] = "TRUE"
            fixes.insert(FieldKey.isActive.rawValue)
        }
    }
}
