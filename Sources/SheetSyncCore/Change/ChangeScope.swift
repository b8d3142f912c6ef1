import SheetValues

/// What the store knows cheaply about the last sync, without loading rows: every base key with the
/// hash of its sheet row as last read, the keys changed in the store since, and local deletes.
public struct ChangeIndex: Sendable {
    /// Every base key with the `RowHash` of the sheet row that reads as that base (0: none recorded).
    public var baseHashes: [Tab: BaseHashes]
    /// Keys of store rows written or deleted since the last sync by anyone but the engine.
    public var dirty: [Tab: Set<String>]
    public var tombstones: [Tab: Set<String>]
    /// A category rename is waiting to reach the workbook.
    public var renamesPending: Bool

    public init(
        baseHashes: [Tab: BaseHashes], dirty: [Tab: Set<String>], tombstones: [Tab: Set<String>], renamesPending: Bool
    ) {
        self.baseHashes = baseHashes
        self.dirty = dirty
        self.tombstones = tombstones
        self.renamesPending = renamesPending
    }
}

/// The rows of one tab a sync can leave out: both sides still hold them exactly as the base.
public struct TabScope: Sendable, Equatable {
    public var unchanged: UnchangedRows
    /// Keys whose store row and base the plan needs: changed sheet rows, changed store rows, deletes.
    public var keysToLoad: Set<String>
}

/// Sheet rows unchanged since the last sync, by index and by key (their store rows equal their
/// base; neither is loaded nor parsed). Kept as the table's own key array and index, not a second
/// set of keys.
public struct UnchangedRows: Hashable, Sendable {
    /// By data-row index.
    public private(set) var rows: [Bool] = []
    private var keys: [RowKey?] = []
    private var index = RowKeyIndex()
    public private(set) var count = 0

    public init() {}

    init(rows: [Bool], keys: [RowKey?], index: RowKeyIndex) {
        self.rows = rows
        self.keys = keys
        self.index = index
        count = rows.reduce(0) { $1 ? $0 + 1 : $0 }
    }

    public func contains(_ key: String) -> Bool { index.row(of: RowKey(key), in: keys).map { rows[$0] } ?? false }
}

/// A tab's base keys, each with the `RowHash` recorded for it (0: none), as two flat arrays: what
/// the store reads for every base row on every sync, so kept at 32 bytes a key.
public struct BaseHashes: Hashable, Sendable {
    public private(set) var keys: [RowKey] = []
    public private(set) var hashes: [Int64] = []

    public init() {}

    public init(_ hashes: [String: Int64]) {
        reserveCapacity(hashes.count)
        for (key, hash) in hashes { append(RowKey(key), hash: hash) }
    }

    public var count: Int { keys.count }

    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        hashes.reserveCapacity(count)
    }

    public mutating func append(_ key: RowKey, hash: Int64) {
        keys.append(key)
        hashes.append(hash)
    }

    /// The hash recorded for `key`; nil when the base lacks it. A linear search, for tests.
    public subscript(key: String) -> Int64? {
        let wanted = RowKey(key)
        return keys.firstIndex(of: wanted).map { hashes[$0] }
    }
}

/// Which rows a sync must read, parse and reconcile: cost follows change.
///
/// A row is left out only when its sheet cells hash to what the base recorded, the store has not
/// touched its key and its key occurs once. A tab is narrowed only when nothing in it can change the
/// outcome of an unchanged row: every base key is still in the sheet (so no delete, and the stale-copy
/// and mass-delete guards have nothing to see), and the tabs it is checked against are steady
/// (Categories for Transactions; Transactions without local deletes for Receipts). Otherwise the tab
/// is read whole, exactly as before.
public struct ChangeScope: Sendable {
    /// Every tab's `RowHash` per data row, for the hashes the commit records.
    public var hashes: [Tab: [Int64]] = [:]
    /// Every tab's key per data row; nil where it is unreadable or repeated.
    public var keys: [Tab: [RowKey?]] = [:]
    /// The narrowed tabs; a tab absent here is read whole.
    public var narrowed: [Tab: TabScope] = [:]

    public init() {}

    public static func find(workbook: [Tab: Table], index: ChangeIndex) -> ChangeScope {
        var scope = ChangeScope()
        var rows: [Tab: KeyedRows] = [:]
        for (tab, table) in workbook {
            let keyed = KeyedRows(table, schema: tab.schema)
            scope.hashes[tab] = keyed.hashes
            scope.keys[tab] = keyed.keys
            rows[tab] = keyed
        }
        let categoriesSteady =
            !index.renamesPending
            && rows[.categories].map { index.isSteady(.categories, $0) } ?? false
        guard categoriesSteady, let transactions = rows[.transactions],
            let narrowed = index.narrow(.transactions, transactions)
        else { return scope }
        scope.narrowed[.transactions] = narrowed
        if index.tombstones[.transactions, default: []].isEmpty, let receipts = rows[.receipts],
            let narrowedReceipts = index.narrow(.receipts, receipts)
        {
            scope.narrowed[.receipts] = narrowedReceipts
        }
        return scope
    }
}

/// A table's rows with their hashes and keys (nil: unreadable, damaged or repeated).
struct KeyedRows {
    var hashes: [Int64]
    var keys: [RowKey?]
    /// Each readable, unrepeated key's row, over `keys`.
    var index = RowKeyIndex()
    /// The table (shared, not copied): a blank row is looked for only where it matters.
    let table: Table
    /// The header lacks a required column: the tab is read whole (and reports it).
    var readable: Bool

    init(_ table: Table, schema: TabSchema) {
        let keying = RowKeying(header: table.header, schema: schema)
        self.table = table
        let map = try? ColumnMap(header: table.header, schema: schema)
        let (keySpec, keyColumn) = (keying.keySpec, keying.keyColumn)
        // Hashed and keyed from the reader's own form: an unchanged row is never decoded into strings.
        var fromBytes = keySpec == nil ? nil : Self.visit(table, keying: keying)
        hashes = fromBytes?.hashes ?? (0..<table.rowCount).map { table.rowHash($0, seed: keying.seed) }
        // The keys as read become the kept array, cleared in place where a row's key does not count
        // (a damaged, refused or repeated row): `fromBytes` lets go first, so nothing is copied.
        var read = fromBytes?.keys ?? []
        fromBytes = nil
        guard table.rowCount <= RowKeyIndex.maxRows, map != nil, let keySpec, let keyColumn else {
            keys = Array(repeating: nil, count: table.rowCount)
            readable = keySpec != nil && map != nil && table.rowCount <= RowKeyIndex.maxRows
            return
        }
        readable = true
        let parsed = read.count != table.rowCount
        if parsed { read = Array(repeating: nil, count: table.rowCount) }
        index = RowKeyIndex(capacity: table.rowCount)
        // First rows of keys seen again: cleared once every row is in, so that a third copy still
        // finds the first while the index is built.
        var repeated: [Int] = []
        let marksRows = !table.damagedRows.isEmpty || !table.refusedRows.isEmpty
        for i in 0..<table.rowCount {
            guard !marksRows || (table.damagedRows[i] == nil && table.refusedRows[i] == nil) else {
                read[i] = nil
                continue
            }
            if parsed, case .success(let text) = FieldParser.canonical(table.cell(row: i, column: keyColumn), keySpec), !text.isEmpty {
                read[i] = RowKey(text)
            }
            guard let key = read[i] else { continue }
            if let first = index.insert(i, key: key, in: read) {
                // A key twice is the reconciler's case to report: no row of it is left out.
                repeated.append(first)
                read[i] = nil
            }
        }
        for first in repeated { read[first] = nil }
        keys = read
    }

    /// The row of a readable, unrepeated key.
    func row(of key: RowKey) -> Int? { index.row(of: key, in: keys) }

    /// Every row's hash and key (as the key cell reads), in one visit of each row's bytes, or as the
    /// reader worked them out while it read (`Table.takeKeyedRows`); nil when the table keeps no byte
    /// cells. The same values as `Table.rowHash` and the key cell read through
    /// `FieldParser.canonical` (`ChangeScopeTests`, `CSVRowSourceTests` compare them).
    static func visit(_ table: Table, keying: RowKeying) -> (hashes: [Int64], keys: [RowKey?])? {
        if let read = table.takeKeyedRows(), read.keying == keying, read.hashes.count == table.rowCount { return (read.hashes, read.keys) }
        // Side by side in parts of rows (`RowParts`), joined in row order.
        let parts = RowParts.map(table.rowCount) { range -> (hashes: [Int64], keys: [RowKey?])? in
            var hashes: [Int64] = [], keys: [RowKey?] = []
            hashes.reserveCapacity(range.count)
            keys.reserveCapacity(range.count)
            var row = RowKeying.Row(keying)
            let visited = table.visitCells(
                rows: range,
                cell: { bytes in
                    row.add(bytes)
                    return true
                },
                endOfRow: { _ in
                    let (hash, key) = row.finish(keying)
                    hashes.append(hash)
                    keys.append(key)
                    return true
                })
            return visited ? (hashes, keys) : nil
        }
        guard parts.count > 1 else { return parts.first ?? ([], []) }
        var hashes: [Int64] = [], keys: [RowKey?] = []
        hashes.reserveCapacity(table.rowCount)
        keys.reserveCapacity(table.rowCount)
        for part in parts {
            guard let part else { return nil }
            hashes += part.hashes
            keys += part.keys
        }
        return (hashes, keys)
    }
}

extension ChangeIndex {
    /// Every row of the tab unchanged on both sides, and the same keys on both.
    func isSteady(_ tab: Tab, _ rows: KeyedRows) -> Bool {
        guard let scope = narrow(tab, rows) else { return false }
        // A row whose every cell is empty is ignored by the reader: it does not unsteady the tab.
        return scope.keysToLoad.isEmpty
            && scope.unchanged.rows.indices.allSatisfy { scope.unchanged.rows[$0] || rows.table.row($0).allSatisfy(\.isEmpty) }
    }

    /// The tab's scope, or nil when it must be read whole.
    func narrow(_ tab: Tab, _ rows: KeyedRows) -> TabScope? {
        guard rows.readable else { return nil }
        let base = baseHashes[tab] ?? BaseHashes()
        // Each base key's hash, at its sheet row.
        var recorded = Array(repeating: Int64(0), count: rows.keys.count)
        var everyBaseKeyFound = true
        rows.index.forEachRow(of: base.keys, in: rows.keys) { position, row in
            // A base key the sheet lacks (or holds only in a row whose key cannot be read, or in
            // two rows) is a delete or a damaged copy: the guards need the whole tab.
            guard let row else {
                everyBaseKeyFound = false
                return false
            }
            recorded[row] = base.hashes[position]
            return true
        }
        guard everyBaseKeyFound else { return nil }
        // `RowHash` is never 0, so a row without a recorded hash is never unchanged.
        var unchangedRows = rows.keys.indices.map { rows.keys[$0] != nil && recorded[$0] != 0 && recorded[$0] == rows.hashes[$0] }
        var keysToLoad = (dirty[tab] ?? []).union(tombstones[tab] ?? [])
        for key in keysToLoad {
            if let row = rows.row(of: RowKey(key)) { unchangedRows[row] = false }
        }
        for (i, key) in rows.keys.enumerated() where !unchangedRows[i] {
            if let key { keysToLoad.insert(key.text) }
        }
        // A repeated key's first row keeps its index entry but is never found nor unchanged.
        return TabScope(unchanged: UnchangedRows(rows: unchangedRows, keys: rows.keys, index: rows.index), keysToLoad: keysToLoad)
    }
}
