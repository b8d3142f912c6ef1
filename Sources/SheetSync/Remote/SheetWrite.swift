import GoogleAPI
import Interchange
import SheetSyncCore
import SheetValues

/// One push to a spreadsheet as a sequence of units, each serialized once: the requests that must land
/// together (one row's changed cells, one row delete, a block of new rows with the insert that makes room
/// for them). Sent as `spreadsheets.batchUpdate`s of at most `limit` bytes, in order, so a run stopped
/// between two leaves every row either written whole or not at all, and the next run carries on.
struct SheetWrite {
    struct Unit {
        var requests: [[UInt8]]
        var bytes: Int
        /// Grid rows the unit adds (negative: deletes), by sheet id.
        var rowsAdded: [Int: Int] = [:]
    }

    /// Requests sent as one `spreadsheets.batchUpdate`, and the grid rows they add by sheet id.
    struct Batch {
        var requests: [[UInt8]] = []
        var rowsAdded: [Int: Int] = [:]
    }

    private(set) var units: [Unit] = []
    /// The grid cells the write adds, by tab, for the 10-million-cell check.
    private(set) var addedCells: [Tab: Int] = [:]
    /// The most bytes a block of new rows may take, so that it fits one request beside a write guard.
    let blockBudget: Int

    /// Bytes kept free in every batch for the write guard, the row anchors and the body's own brackets.
    static let batchReserve = 4_096

    init(limit: Int) {
        blockBudget = max(limit - Self.batchReserve, 1)
    }

    var isEmpty: Bool { units.isEmpty }

    /// Requests that go in one batch together; `rowsAdded` grid rows they add to sheet `sheetId`
    /// (negative: delete).
    mutating func add(_ requests: [JSONValue], rowsAdded: Int = 0, sheetId: Int? = nil) {
        guard !requests.isEmpty else { return }
        let serialized = requests.map { $0.serialized() }
        let rows = sheetId.map { [$0: rowsAdded] } ?? [:]
        units.append(Unit(requests: serialized, bytes: serialized.reduce(0) { $0 + $1.count + 1 }, rowsAdded: rows))
    }

    mutating func grow(_ tab: Tab, byCells cells: Int) {
        addedCells[tab, default: 0] += cells
    }

    /// New rows from the 0-based sheet row `firstRow` on, in blocks of at most `blockBudget` bytes. With
    /// `inserting`, each block inserts its own rows first (growing the grid by exactly what it writes).
    mutating func addRows(_ rows: [[Cell]], sheetId: Int, firstRow: Int, inserting: Bool) {
        var block: [[UInt8]] = []
        var blockBytes = 0
        var blockHasDates = false
        var start = firstRow
        func flush() {
            guard !block.isEmpty else { return }
            var requests: [[UInt8]] = []
            if inserting {
                let insert: JSONValue = [
                    "insertDimension": [
                        "range": [
                            "sheetId": .integer(sheetId), "dimension": "ROWS", "startIndex": .integer(start),
                            "endIndex": .integer(start + block.count),
                        ],
                        "inheritFromBefore": .bool(start > 1),
                    ]
                ]
                requests.append(insert.serialized())
            }
            requests.append(Self.updateCells(sheetId: sheetId, row: start, rows: block, hasDates: blockHasDates))
            units.append(
                Unit(
                    requests: requests, bytes: requests.reduce(0) { $0 + $1.count + 1 },
                    rowsAdded: inserting ? [sheetId: block.count] : [:]))
            start += block.count
            block = []
            blockBytes = 0
            blockHasDates = false
        }
        // The wrapper of a block (insert, start, fields) is well under this.
        let overhead = 400
        for row in rows {
            let data: JSONValue = ["values": .array(row.map(SheetCells.cellData))]
            let bytes = data.serialized()
            if !block.isEmpty, blockBytes + bytes.count + 1 + overhead > blockBudget { flush() }
            block.append(bytes)
            blockBytes += bytes.count + 1
            blockHasDates = blockHasDates || row.contains(where: SheetCells.isDate)
        }
        flush()
    }

    /// `updateCells` of whole rows from column A, assembled from rows serialized already.
    private static func updateCells(sheetId: Int, row: Int, rows: [[UInt8]], hasDates: Bool) -> [UInt8] {
        let start: JSONValue = ["sheetId": .integer(sheetId), "rowIndex": .integer(row), "columnIndex": 0]
        let fields: JSONValue = .string(hasDates ? "userEnteredValue,userEnteredFormat.numberFormat" : "userEnteredValue")
        var out = Array(#"{"updateCells":{"start":"#.utf8)
        out.reserveCapacity(rows.reduce(128) { $0 + $1.count + 1 })
        out += start.serialized()
        out += Array(#","rows":["#.utf8)
        for (i, row) in rows.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += row
        }
        out += Array(#"],"fields":"#.utf8)
        out += fields.serialized()
        out += Array("}}".utf8)
        return out
    }

    /// The units packed in order into batches of at most `limit` bytes (less `batchReserve`); a unit
    /// larger than that on its own (one row of several very long cells) goes alone.
    func batches(limit: Int) -> [Batch] {
        var batches: [Batch] = []
        var current = Batch()
        var bytes = Self.batchReserve
        for unit in units {
            if !current.requests.isEmpty, bytes + unit.bytes > limit {
                batches.append(current)
                current = Batch()
                bytes = Self.batchReserve
            }
            current.requests += unit.requests
            current.rowsAdded.merge(unit.rowsAdded, uniquingKeysWith: +)
            bytes += unit.bytes
        }
        if !current.requests.isEmpty { batches.append(current) }
        return batches
    }
}
