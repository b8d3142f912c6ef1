import SheetValues

/// The rows of a tab that a pull into an empty store loads exactly as read (`PlainRows`), kept as
/// the table's bytes: the store takes each row's field texts straight from its cells, in key order,
/// with no record, no `String` per cell and no reconcile per row (a first pull of a large workbook).
///
/// The planner makes one only for a pull, and only of the plain rows of a tab whose store table, base,
/// tombstones and kept deleted rows are all empty: for those, planning each row would give exactly "add
/// the row as read; its base is the row; record its hash", which is what the store does with a load.
/// The tab's other rows are planned as always, beside it (`PlainLoadTests` and `OnePathTests` pull the
/// same workbooks both ways and compare the stores).
public struct PlainLoad: Hashable, Sendable {
    public let tab: Tab
    private let table: Table
    /// The schema field each column holds (nil: a column no field reads).
    private let fields: [Int?]
    /// The data rows that load, in ascending key order, each with its key.
    private let order: [Int]
    private let orderedKeys: [RowKey]
    /// Each data row's `RowHash` by row index; nil when the run records none.
    private let hashes: [Int64]?
    /// The rows' keys, for the tabs after this one (receipts point at transactions).
    public let plain: PlainRows

    /// The rows the store adds.
    public var count: Int { order.count }

    /// The keys of the rows, in the order they load.
    public var keys: [String] { orderedKeys.map(\.text) }

    /// nil when a row's key is not a UUID (the only keys `PlainRows` answers for) or the header
    /// does not read.
    init?(_ table: Table, tab: Tab, plain: PlainRows, hashes: [Int64]?) {
        guard let map = try? ColumnMap(header: table.header, schema: tab.schema) else { return nil }
        var fields = [Int?](repeating: nil, count: map.headerWidth)
        for (i, field) in tab.schema.fields.enumerated() {
            if let column = map.columns[field.key] { fields[column] = i }
        }
        var keyed: [(high: UInt64, low: UInt64, row: Int)] = []
        keyed.reserveCapacity(plain.count)
        for (key, row) in zip(plain.keys, plain.rows) {
            guard let key else { continue }  // a row taken out of the plain ones
            guard case .uuid(let high, let low) = key else { return nil }
            keyed.append((high, low, row))
        }
        // A canonical UUID's text orders as its bits do (hex digits, dashes in fixed places).
        keyed.sort { ($0.high, $0.low) < ($1.high, $1.low) }
        self.tab = tab
        self.table = table
        self.fields = fields
        self.order = keyed.map(\.row)
        self.orderedKeys = keyed.map { .uuid($0.high, $0.low) }
        self.hashes = hashes.flatMap { $0.count == table.rowCount ? $0 : nil }
        self.plain = plain
    }

    /// Calls `body` with each row's field texts, canonical as `TabReader` reads them, and its
    /// `RowHash` (0: none recorded), in key order.
    public func forEachRow(_ body: (FieldTexts, Int64) throws -> Void) throws {
        let kinds = tab.schema.fields.map(\.kind)
        var bytes: [UInt8] = []
        var ranges = [Range<Int>](repeating: 0..<0, count: kinds.count)
        for row in order {
            bytes.removeAll(keepingCapacity: true)
            for i in ranges.indices { ranges[i] = 0..<0 }
            var at = 0
            var unread: Int?
            _ = table.visitCells(
                rows: row..<row + 1,
                cell: { p in
                    defer { at += 1 }
                    guard at < fields.count, let field = fields[at] else { return true }
                    let start = bytes.count
                    guard FieldParser.appendCanonical(p, kinds[field], plain.forms, to: &bytes) else {
                        unread = field
                        return false
                    }
                    ranges[field] = start..<bytes.count
                    return true
                },
                endOfRow: { _ in true })
            if let unread {
                throw Unreadable(tab: tab, row: Table.sheetRowNumber(ofDataRow: row), field: tab.schema.fields[unread].name)
            }
            let hash = hashes?[row] ?? 0
            try bytes.withUnsafeBufferPointer { b in
                try ranges.withUnsafeBufferPointer { r in try body(FieldTexts(bytes: b, ranges: r), hash) }
            }
        }
    }

    public static func == (a: PlainLoad, b: PlainLoad) -> Bool {
        a.tab == b.tab && a.order == b.order && a.hashes == b.hashes && a.fields == b.fields && a.table == b.table
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tab)
        hasher.combine(order)
    }

    /// One row's field texts, by schema field index; valid only inside `forEachRow`'s call.
    public struct FieldTexts {
        let bytes: UnsafeBufferPointer<UInt8>
        let ranges: UnsafeBufferPointer<Range<Int>>

        public var count: Int { ranges.count }

        public subscript(field: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[ranges[field]])
        }

        /// The texts as strings, in field order.
        public var strings: [String] { (0..<count).map { String(decoding: self[$0], as: UTF8.self) } }
    }

    /// A cell `PlainRows` passed that the canonical reading then refused: never expected (the two
    /// share their recognizers), and reported rather than loaded wrong.
    public struct Unreadable: Error, CustomStringConvertible {
        public let tab: Tab
        public let row: Int
        public let field: String

        public var description: String {
            "\(tab.rawValue) row \(row): the \(field) cell passed the quick check but did not read; "
                + "nothing was loaded. Please report this; `sheetsync check` shows the row"
        }
    }
}
