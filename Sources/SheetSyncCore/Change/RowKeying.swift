import SheetValues

/// How the change scope hashes and keys a tab's rows (`KeyedRows`): the seed the header gives
/// every row's `RowHash`, and the column holding the key with how its field reads. A reader that
/// keeps rows as bytes can work both out while it reads (`KeyedRowHashes`), so a sync visits the
/// bytes once instead of twice.
public struct RowKeying: Hashable, Sendable {
    public let seed: UInt64
    /// The key's column; nil when the header lacks it.
    public let keyColumn: Int?
    /// How the key field reads; nil when the schema has none.
    let keySpec: FieldSpec?

    public init(header: [String], schema: TabSchema) {
        seed = RowHash.seed(header: header)
        keySpec = schema.field(schema.keyField)
        // A header the reader refuses makes the tab read whole, and the planner reports that error.
        let map = try? ColumnMap(header: header, schema: schema)
        keyColumn = keySpec == nil ? nil : map?.columns[schema.keyField]
    }

    init(seed: UInt64, keyColumn: Int?, keySpec: FieldSpec?) {
        self.seed = seed
        self.keyColumn = keyColumn
        self.keySpec = keySpec
    }

    /// The key a non-empty cell of these bytes in `keyColumn` reads as: a canonical UUID straight
    /// from its bits, any other text through the field parser; nil when it does not read or reads empty.
    public func key(_ bytes: UnsafeBufferPointer<UInt8>) -> RowKey? {
        guard let spec = keySpec else { return nil }
        if let (high, low) = RowKey.uuidBits(bytes), spec.kind == .uuid { return .uuid(high, low) }
        guard case .success(let text) = FieldParser.canonical(.text(String(decoding: bytes, as: UTF8.self)), spec), !text.isEmpty
        else { return nil }
        return RowKey(text)
    }

    /// Hashes and keys one row at a time, cell by cell, as a reader meets them. Holds no reference
    /// (it is copied for every row): a key that is not a canonical UUID is kept as bytes and read
    /// through the field parser at the end of the row (`finish(_:)`).
    public struct Row {
        private let seed: UInt64
        private let keyColumn: Int
        private let uuidKeys: Bool
        private var builder: RowHash.Builder
        private var column = 0
        private var key: RowKey?
        private var otherKey: [UInt8]?

        public init(_ keying: RowKeying) {
            seed = keying.seed
            keyColumn = keying.keySpec == nil ? -1 : keying.keyColumn ?? -1
            uuidKeys = keying.keySpec?.kind == .uuid
            builder = RowHash.Builder(seed: keying.seed)
        }

        /// The next cell of the row, as its decoded UTF-8 bytes (an empty cell as none).
        public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            if bytes.isEmpty { builder.addEmpty() } else { builder.addText(bytes) }
            if column == keyColumn, !bytes.isEmpty {
                if uuidKeys, let (high, low) = RowKey.uuidBits(bytes) {
                    key = .uuid(high, low)
                } else {
                    otherKey = Array(bytes)
                }
            }
            column += 1
        }

        /// The row's hash and key (`keying`: what the row was started with); the next row starts.
        public mutating func finish(_ keying: RowKeying) -> (hash: Int64, key: RowKey?) {
            defer { (builder, column, key, otherKey) = (RowHash.Builder(seed: seed), 0, nil, nil) }
            if let otherKey { key = otherKey.withUnsafeBufferPointer { keying.key($0) } }
            return (builder.value, key)
        }
    }
}

/// Every row's `RowHash` and key, worked out while a reader read the rows (`RowKeying`): what
/// `KeyedRows` would find visiting the rows' bytes again. The reader's `RowObserver`, handed over
/// with the table (`Table.takeKeyedRows`).
public struct KeyedRowHashes: Hashable, Sendable, RowObserver {
    public var keying: RowKeying
    public var hashes: [Int64]
    public var keys: [RowKey?]

    public init(keying: RowKeying, hashes: [Int64] = [], keys: [RowKey?] = []) {
        self.keying = keying
        self.hashes = hashes
        self.keys = keys
    }

    public mutating func row(_ cells: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) {
        var row = RowKeying.Row(keying)
        for cell in cells { row.add(cell) }
        let (hash, key) = row.finish(keying)
        hashes.append(hash)
        keys.append(key)
    }

    public func fresh() -> KeyedRowHashes { KeyedRowHashes(keying: keying) }

    public mutating func append(_ later: KeyedRowHashes) {
        hashes += later.hashes
        keys += later.keys
    }
}

extension Table {
    /// Every row's hash and key as the reader worked them out while reading (`KeyedRowHashes`), handed
    /// over once (every copy of the table shares them); nil when it did not, they were taken, or the
    /// rows were changed since.
    public func takeKeyedRows() -> KeyedRowHashes? { takeObservation() as? KeyedRowHashes }
}
