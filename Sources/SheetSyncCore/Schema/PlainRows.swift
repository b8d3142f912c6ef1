import SheetValues

/// A tab's rows checked on their cells' bytes, without building a string per cell or a record per
/// row: the rows `check` counts and a first pull loads as they are.
///
/// A row is plain when it loads exactly as it is: each cell in a form the fast parsers read
/// (`FieldParser.readsFast`), every required field and the key filled, `year` and `month` matching
/// `date`, no `lastModifiedAt` far enough in the future to be clamped, the key in no other row, the
/// `category` known and a receipt's `transactionId` among the plain transactions. `TabReader` and the
/// reconciler would load such a row with nothing to fill in, correct or report, whatever the other rows
/// hold. Every other non-blank row is listed in `others`: the caller reads those the ordinary way, which
/// finds and words each problem, and with them every plain row that shares a key with one of them
/// (`leaving`), since which copy of a key loads is the reconcile's to decide. A tab answers nil only
/// where the ordinary way reads it whole: its header, a damaged or refused row, a file cut short.
/// (`WorkbookCheckTests`, `PlainLoadTests` and `OnePathTests` compare both ways.)
public struct PlainRows: Hashable, Sendable {
    /// The keys of the rows that load (blank rows not counted), in row order; nil where a row was
    /// taken out afterwards (`without`: the index still passes over it).
    private(set) var keys: [RowKey?] = []
    /// The data row index of each of `keys`.
    private(set) var rows: [Int] = []
    /// How many of `keys` were taken out.
    private var removed = 0
    private var index = RowKeyIndex()
    /// How the rows' dates and amounts typed as text were read.
    private(set) var forms = LocalForms.standard
    /// The cells the scan set aside for a closer look (`noting`), in row and column order.
    public private(set) var noted: [NotedCell] = []
    /// The data row index of each non-blank row that is not plain, ascending: read the ordinary way.
    public private(set) var others: [Int] = []

    /// The rows that load.
    public var count: Int { keys.count - removed }

    /// The data row index of each row that loads, ascending.
    public var indexes: [Int] { zip(keys, rows).compactMap { $0.0 == nil ? nil : $0.1 } }

    /// Whether a row that loads has `key`.
    public func contains(_ key: RowKey) -> Bool { index.row(of: key, in: keys) != nil }

    /// - Parameters:
    ///   - categories: the known category names, when the tab names categories.
    ///   - transactions: the transactions' keys, when the tab points at transactions.
    ///   - noting: the cells to set aside in `noted` on the way (`check`'s cell review).
    public static func scan(
        _ table: Table, schema: TabSchema, now: Timestamp, categories: Set<String>? = nil, transactions: PlainRows? = nil,
        noting: CellCandidates? = nil
    ) -> PlainRows? {
        guard table.damagedRows.isEmpty, table.refusedRows.isEmpty, let layout = RowLayout.of(schema),
            schema.fields.count <= 64, schema.field(schema.keyField)?.kind == .uuid,
            let map = try? ColumnMap(header: table.header, schema: schema)
        else { return nil }
        let fields = schema.fields
        // What each column holds: its field and how the field reads (nil for a column no field reads).
        var columns = [Column?](repeating: nil, count: map.headerWidth)
        for (i, field) in fields.enumerated() {
            guard let column = map.columns[field.key] else { continue }
            guard let rule = FieldParser.FastRule(field.kind, schema.forms) else { return nil }
            columns[column] = Column(field: i, rule: rule, isText: field.kind == .text)
        }
        var required: UInt64 = 1 << UInt64(layout.key)
        for i in fields.indices where fields[i].required { required |= 1 << UInt64(i) }
        let scan = Scan(
            table: table, columns: columns, layout: layout, required: required,
            category: categories == nil ? -1 : fields.firstIndex { $0.key == .category } ?? -1,
            reference: transactions == nil ? -1 : fields.firstIndex { $0.key == .transactionId && $0.kind == .uuid } ?? -1,
            known: categories ?? [], pointed: transactions ?? PlainRows(), dated: schema.tab == .transactions,
            latest: now.adding(milliseconds: ReconcileContext.futureTolerance).millisecondsSinceEpoch,
            dateOrder: schema.forms.dateOrder, noting: noting)
        // The rows' cells are checked side by side in parts; the keys then go into one index in row
        // order, which finds a key twice across parts as well as within one.
        let parts = RowParts.map(table.rowCount) { scan.part($0) }
        var result = PlainRows()
        result.forms = schema.forms
        result.keys.reserveCapacity(table.rowCount)
        result.rows.reserveCapacity(table.rowCount)
        result.index = RowKeyIndex(capacity: table.rowCount)
        var repeated: Set<Int> = []
        for part in parts {
            guard let part else { return nil }
            result.noted += part.noted
            result.others += part.others
            for (key, row) in zip(part.keys, part.rows) {
                if let first = result.index.insert(result.keys.count, key: key, in: result.keys) {
                    repeated.formUnion([first, result.keys.count])
                }
                result.keys.append(key)
                result.rows.append(row)
            }
        }
        if !repeated.isEmpty { result = result.without(repeated) }
        if table.lastRowUnterminated, table.rowCount > 0, table.row(table.rowCount - 1).count < table.header.count {
            return nil  // `CutShortFile`'s case
        }
        return result
    }

    /// These plain rows less those whose key is one of `keys` (keys of rows read the ordinary way),
    /// which join `others`.
    public func leaving(_ keys: [RowKey]) -> PlainRows {
        without(Set(keys.compactMap { index.row(of: $0, in: self.keys) }))
    }

    /// These plain rows less those at `positions` (of `keys`), which join `others`. Their keys are
    /// cleared, not their slots: the index stays as it is (no second pass over every key).
    private func without(_ positions: Set<Int>) -> PlainRows {
        var result = self
        for i in positions where result.keys[i] != nil {
            result.keys[i] = nil
            result.removed += 1
            result.others.append(rows[i])
        }
        result.others.sort()
        return result
    }

    /// The rows of one part that load, before their keys are checked against each other's.
    private struct Part: Sendable {
        var keys: [RowKey] = []
        var rows: [Int] = []
        var noted: [NotedCell] = []
        /// The rows that are not plain.
        var others: [Int] = []

        init(capacity: Int = 0) {
            keys.reserveCapacity(capacity)
            rows.reserveCapacity(capacity)
        }

        @inline(__always)
        mutating func append(_ key: RowKey, row: Int) {
            keys.append(key)
            rows.append(row)
        }

        /// The cells set aside in `pending`, noted at `row`; `pending` is emptied for the next row.
        @inline(__always)
        mutating func note(_ pending: inout [(Int, String)], row: Int) {
            for (column, text) in pending { noted.append(NotedCell(row: row, column: column, text: text)) }
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// What every part is checked against: read only, shared by the parts.
    private struct Scan: Sendable {
        let table: Table
        let columns: [Column?]
        let layout: RowLayout
        /// The fields a row must fill, as bits.
        let required: UInt64
        /// The field that names a category, and the one that points at a transaction (-1: none).
        let category: Int
        let reference: Int
        let known: Set<String>
        let pointed: PlainRows
        /// Transactions: `year` and `month` must match `date`.
        let dated: Bool
        /// The latest `lastModifiedAt` that is not clamped, in milliseconds.
        let latest: Int64
        let dateOrder: LocalForms.DateOrder
        let noting: CellCandidates?

        /// The rows of `range` that load and those that are not plain; nil when the part does not read.
        func part(_ range: Range<Int>) -> Part? {
            var part = Part(capacity: range.count)
            let (layout, required, category, reference, dated, latest) = (layout, required, category, reference, dated, latest)
            let (known, pointed, noting) = (known, pointed, noting)
            // The row's cells set aside, until its index comes at its end.
            var pending: [(Int, String)] = []
            // Raw pointers in the loop: a captured array would be retained for each cell.
            let read = columns.withUnsafeBufferPointer { columns -> Bool in
                // The row being visited. `present`: its cells with any bytes (a row without is blank);
                // `filled`: its fields with a value; `plain`: no cell found otherwise so far (its
                // other cells are then only set aside for `noting`).
                var present: UInt64 = 0, filled: UInt64 = 0, at = 0, plain = true
                var key: RowKey?, day: LocalDate?, year = -1, month = -1
                let visited = table.visitCells(
                    rows: range,
                    cell: { p in
                        defer { at += 1 }
                        if let noting { PlainRows.setAside(p, at: at, noting, &pending) }
                        guard plain, at < columns.count, !p.isEmpty, let column = columns[at] else { return true }
                        let f = column.field
                        let bit: UInt64 = 1 << UInt64(f)
                        present |= bit
                        switch f {
                        case layout.key:
                            guard let read = CanonicalText.uuidKey(p) else { return PlainRows.notPlain(&plain) }
                            key = read
                        case reference:
                            guard let read = CanonicalText.uuidKey(p), pointed.contains(read) else { return PlainRows.notPlain(&plain) }
                        case layout.lastModifiedAt:
                            guard let time = Timestamp.milliseconds(iso: p), time <= latest else { return PlainRows.notPlain(&plain) }
                        case layout.date where dated:
                            // `readsFast` of a date, keeping the day.
                            guard let read = CanonicalText.anyLocalDate(p, dateOrder) else { return PlainRows.notPlain(&plain) }
                            day = read
                        default:
                            guard FieldParser.readsFast(p, column.rule) else { return PlainRows.notPlain(&plain) }
                            if f == category, !known.contains(PlainRows.trimmed(p)) { return PlainRows.notPlain(&plain) }
                            if dated {
                                if f == layout.year { year = CanonicalText.plainInteger(p) ?? -1 }
                                if f == layout.month { month = CanonicalText.plainInteger(p) ?? -1 }
                            }
                        }
                        // A text field of blanks only reads as empty.
                        if !column.isText || PlainRows.hasText(p) { filled |= bit }
                        return true
                    },
                    endOfRow: { row in
                        defer { (present, filled, at, key, day, year, month, plain) = (0, 0, 0, nil, nil, -1, -1, true) }
                        part.note(&pending, row: row)
                        let complete = filled & required == required && (!dated || PlainRows.inMonth(day, year, month))
                        if plain, complete, let key {
                            part.append(key, row: row)
                        } else if !plain || present != 0 {
                            part.others.append(row)
                        }
                        return true
                    })
                return visited
            }
            return read ? part : nil
        }
    }

    /// A column a field reads.
    private struct Column: Sendable {
        var field: Int
        var rule: FieldParser.FastRule
        var isText: Bool
    }

    /// Sets the cell `p` of column `at` aside in `pending` when `noting` asks for a closer look at it.
    @inline(__always)
    private static func setAside(_ p: UnsafeBufferPointer<UInt8>, at: Int, _ noting: CellCandidates, _ pending: inout [(Int, String)]) {
        if let first = p.first, noting.contains(column: at, firstByte: first) {
            pending.append((at, String(decoding: p, as: UTF8.self)))
        }
    }

    /// Whether a transaction's `date` is a day of its `year` and `month` (a missing date is not).
    @inline(__always)
    private static func inMonth(_ day: LocalDate?, _ year: Int, _ month: Int) -> Bool {
        guard let day else { return false }
        return day.year == year && day.month == month
    }

    /// Marks the row being visited as not plain; the visit goes on (to its next cell).
    private static func notPlain(_ plain: inout Bool) -> Bool {
        plain = false
        return true
    }

    /// Whether a text field's value (the cell with spaces trimmed) is not empty.
    private static func hasText(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        if p.contains(where: { $0 < 0x80 && $0 != 0x20 && $0 != 0x09 }) { return true }
        return !trimmed(p).isEmpty
    }

    /// A text field's value: the cell with spaces trimmed.
    private static func trimmed(_ p: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: p, as: UTF8.self).trimmingSpaces()
    }
}
