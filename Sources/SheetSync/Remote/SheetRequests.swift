import Foundation
import GoogleAPI
import Interchange
import SheetSyncCore
import SheetValues

/// Cells to and from the Sheets API's JSON.
enum SheetCells {
    /// A value as `values.batchGet` (UNFORMATTED_VALUE, SERIAL_NUMBER) returns it.
    static func cell(from value: JSONValue) -> Cell {
        switch value {
        case .string(let s): return s.isEmpty ? .empty : .text(s)
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        default: return .empty
        }
    }

    /// `CellData` written RAW: text stays text (`=HYPERLINK(...)` too), amounts are numbers, dates are
    /// serial numbers under a `yyyy-mm-dd` date format, booleans are booleans.
    static func cellData(_ cell: Cell) -> JSONValue {
        switch cell {
        case .empty: return .object([:])
        case .text(let s), .error(let s): return ["userEnteredValue": ["stringValue": .string(s)]]
        case .number(let n): return ["userEnteredValue": ["numberValue": .number(n)]]
        case .bool(let b): return ["userEnteredValue": ["boolValue": .bool(b)]]
        case .dateSerial(let n):
            return [
                "userEnteredValue": ["numberValue": .number(n)],
                "userEnteredFormat": ["numberFormat": ["type": "DATE", "pattern": "yyyy-mm-dd"]],
            ]
        }
    }

    static func isDate(_ cell: Cell) -> Bool {
        if case .dateSerial = cell { return true }
        return false
    }
}

/// Where rows stand in the sheet just before a write, re-read by key.
struct SheetLayout {
    struct TabLayout {
        /// Data row index in the snapshot → data row index now (nil: the row is gone).
        var rowNow: [Int: Int]
        /// Rows of data now (through the last non-empty key cell, or the snapshot's when unchanged).
        var dataRows: Int
        var rowCount: Int
        var columnCount: Int
    }

    var sheetIds: [Tab: Int] = [:]
    var tabs: [Tab: TabLayout] = [:]
    /// Metadata ids of write guards of the older kind (one random id per batch) left in the spreadsheet.
    var writeGuards: [Int] = []
    /// The write token's value as read (nil: none yet), see `SheetRequests.writeGuard`.
    var writeToken: String?
    /// The tabs verified, and each one's key column as read (header first): the positions a write is
    /// aimed at hold while these read the same.
    var verifiedTabs: [Tab] = []
    var keyColumns: [Tab: [String]] = [:]
    /// The rows the write changes or deletes that no longer hold, cell for cell, what the snapshot read
    /// ("Transactions row 4"), and whether every such row was looked at (`maxWatchedRows`).
    var changedRows: [String] = []
    var watchedAll = true

    /// The most rows whose cells one verification reads (each block of them is a range in its URL).
    static let maxWatchedRows = 200

    /// One `spreadsheets.get` of the changed tabs' key columns and sheet properties, and of the cells
    /// of the rows `watching` changes or deletes (up to `maxWatchedRows`), compared with the snapshot.
    static func verify(
        spreadsheetId: String, tabs: [Tab], snapshot: RemoteSnapshot, sheets: SheetsClient, watching changes: [Tab: TableChanges] = [:]
    ) async throws -> SheetLayout {
        let asked = Asked(tabs: tabs, snapshot: snapshot, changes: changes)
        let answer = try await sheets.get(
            spreadsheetId: spreadsheetId,
            fields: "developerMetadata(metadataId,metadataKey,metadataValue),"
                + "sheets(properties(sheetId,title,gridProperties(rowCount,columnCount)),data(startRow,rowData(values(effectiveValue))))",
            ranges: asked.ranges, includeGridData: true)
        var layout = SheetLayout()
        layout.verifiedTabs = tabs
        layout.watchedAll = asked.watchedAll
        for entry in answer["developerMetadata"]?.arrayValue ?? [] where entry["metadataKey"]?.stringValue == SheetRequests.writeGuardKey {
            guard let id = entry["metadataId"]?.intValue else { continue }
            if id == SheetRequests.writeTokenId {
                layout.writeToken = entry["metadataValue"]?.stringValue
            } else {
                layout.writeGuards.append(id)
            }
        }
        for sheet in answer["sheets"]?.arrayValue ?? [] { try layout.place(sheet, snapshot: snapshot, asked: asked) }
        return layout
    }

    /// What a verification asks for: each tab's key column (or its first cell, for a header the plan
    /// could not map) and the blocks of rows whose cells it compares.
    struct Asked {
        var ranges: [String] = []
        var keyColumns: [Tab: Int] = [:]
        var watched: [Tab: [Int]] = [:]
        var watchedAll = true

        init(tabs: [Tab], snapshot: RemoteSnapshot, changes: [Tab: TableChanges]) {
            var budget = SheetLayout.maxWatchedRows
            for tab in tabs {
                guard let table = snapshot.tables[tab] else { continue }
                let sheet = A1.quoteSheetName(tab.rawValue)
                guard let map = try? ColumnMap(header: table.header, schema: tab.schema), let column = map.columns[tab.schema.keyField]
                else {
                    // Asked for ranges, Google answers with the tabs they name only: name it to learn its sheet id.
                    ranges.append(sheet + "!A1")
                    continue
                }
                keyColumns[tab] = column
                ranges.append(sheet + "!" + A1.columnLetters(column) + ":" + A1.columnLetters(column))
                let rows = changes[tab].map { Set($0.cells.map(\.row) + $0.deletedRows).filter { $0 < table.rows.count }.sorted() } ?? []
                guard !rows.isEmpty else { continue }
                guard rows.count <= budget else {
                    watchedAll = false
                    continue
                }
                budget -= rows.count
                watched[tab] = rows
                let last = A1.columnLetters(max(table.header.count, 1) - 1)
                ranges += SheetLayout.blocks(of: rows).map { "\(sheet)!A\($0.lowerBound + 2):\(last)\($0.upperBound + 1)" }
            }
        }
    }

    /// One tab of the answer: its sheet id, grid size, where each snapshot row is now, and which of
    /// the watched rows changed.
    private mutating func place(_ sheet: JSONValue, snapshot: RemoteSnapshot, asked: Asked) throws {
        guard let title = sheet["properties"]?["title"]?.stringValue, let tab = Tab(rawValue: title),
            let sheetId = sheet["properties"]?["sheetId"]?.intValue
        else { return }
        sheetIds[tab] = sheetId
        let columns = sheet["properties"]?["gridProperties"]?["columnCount"]?.intValue ?? 26
        let rows = sheet["properties"]?["gridProperties"]?["rowCount"]?.intValue ?? 1_000
        let data = sheet["data"]?.arrayValue ?? []
        if let table = snapshot.tables[tab], SyncPlanner.isBlank(table) {
            // A tab read with nothing in it (cleared, header too) gets its header and rows from the top,
            // unless someone typed into it since.
            let first = data.first?["rowData"]?.arrayValue?.first?["values"]?.arrayValue?.first?["effectiveValue"]
            guard first == nil || first == .null else {
                throw SheetSyncError.temporary("tab '\(title)' was written to while syncing; nothing was written, the next run merges")
                    .coded(.changedMeanwhile)
            }
            tabs[tab] = TabLayout(rowNow: [:], dataRows: 0, rowCount: rows, columnCount: columns)
            return
        }
        guard let column = asked.keyColumns[tab], let table = snapshot.tables[tab] else { return }
        let now = (data.first?["rowData"]?.arrayValue ?? []).map { row -> String in
            let value = row["values"]?.arrayValue?.first?["effectiveValue"]
            return (value?["stringValue"]?.stringValue ?? value?["numberValue"]?.numberText ?? "").trimmingCharacters(in: .whitespaces)
        }
        keyColumns[tab] = now
        guard (now.first ?? "").lowercased() == table.header[column].trimmingCharacters(in: .whitespaces).lowercased() else {
            throw SheetSyncError.temporary("the columns of tab '\(title)' changed while syncing; nothing was written, the next run merges")
                .coded(.changedMeanwhile)
        }
        let then = table.rows.map { column < $0.count ? $0[column].rawText.trimmingCharacters(in: .whitespaces) : "" }
        let current = Array(now.dropFirst())
        let rowNow = Self.rowsNow(then: then, current: current)
        tabs[tab] = TabLayout(
            rowNow: rowNow,
            dataRows: max(current.count, rowNow.values.max().map { $0 + 1 } ?? 0, current == then ? table.rows.count : 0),
            rowCount: rows, columnCount: columns)
        guard let watchedRows = asked.watched[tab] else { return }
        let cells = Self.watchedCells(data.dropFirst())
        changedRows += watchedRows.filter { row in
            // A row moved since the read is followed by its key; its cells were not asked for.
            guard rowNow[row] == row else { return false }
            let now = cells[row + 1] ?? [:]
            return Self.rowChanged(table.rows[row], width: table.header.count) { now[$0] ?? .some(.empty) }
        }.map { "\(title) row \(Table.sheetRowNumber(ofDataRow: $0))" }
    }

    /// Snapshot data row index → data row index now, from the key column then and now: the same rows
    /// where it reads the same (rows added below), else each row followed by its key (a row without a
    /// key cannot be followed and waits for the next run).
    static func rowsNow(then: [String], current: [String]) -> [Int: Int] {
        var rowNow: [Int: Int] = [:]
        if current == Array(then.prefix(current.count)) && then.dropFirst(current.count).allSatisfy(\.isEmpty) {
            for i in then.indices { rowNow[i] = i }
            return rowNow
        }
        var byKey: [String: Int] = [:]
        for (i, key) in current.enumerated() where !key.isEmpty && byKey[key.lowercased()] == nil { byKey[key.lowercased()] = i }
        for (i, key) in then.enumerated() where !key.isEmpty { rowNow[i] = byKey[key.lowercased()] }
        return rowNow
    }

    /// Whether a row as read now (`now` of a column; nil: not compared, an error value) differs from
    /// `was`, the snapshot's, in any column of the header's `width` (numbers and dates by value).
    static func rowChanged(_ was: [Cell], width: Int, now: (Int) -> Cell?) -> Bool {
        (0..<max(width, 1)).contains { column in
            guard let cell = now(column) else { return false }
            return !WrittenRowsCheck.same(column < was.count ? was[column] : .empty, cell)
        }
    }

    /// Runs of consecutive row indexes, as half-open ranges.
    static func blocks(of rows: [Int]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for row in rows {
            if let last = out.last, last.upperBound == row {
                out[out.count - 1] = last.lowerBound..<row + 1
            } else {
                out.append(row..<row + 1)
            }
        }
        return out
    }

    /// The cells of grid data blocks by sheet row index and column: nil where the cell shows an error
    /// (a formula's `#N/A`, which the values read gives as text), so it is not compared.
    static func watchedCells(_ data: ArraySlice<JSONValue>) -> [Int: [Int: Cell?]] {
        var out: [Int: [Int: Cell?]] = [:]
        for block in data {
            let start = block["startRow"]?.intValue ?? 0
            for (offset, row) in (block["rowData"]?.arrayValue ?? []).enumerated() {
                var cells: [Int: Cell?] = [:]
                for (column, value) in (row["values"]?.arrayValue ?? []).enumerated() {
                    guard let effective = value["effectiveValue"] else { continue }
                    if effective["errorValue"] != nil {
                        cells[column] = .some(nil)
                        continue
                    }
                    let cell = SheetCells.cell(
                        from: effective["stringValue"] ?? effective["numberValue"] ?? effective["boolValue"] ?? .null)
                    cells[column] = .some(cell)
                }
                out[start + offset] = cells
            }
        }
        return out
    }
}

/// `spreadsheets.batchUpdate` requests for one tab's changes.
enum SheetRequests {
    /// The requests for one tab's changes, added to `write` in the order they apply: new columns, changed
    /// cells row by row, deletes (bottom up), new rows (in blocks, each inserting its own rows).
    static func add(_ changes: TableChanges, tab: Tab, sheetId: Int, layout: SheetLayout.TabLayout?, to write: inout SheetWrite) throws {
        guard let layout else {
            // Never a silent no-op: the plan's changes would be counted as written.
            guard changes.isEmpty else {
                throw SheetSyncError.temporary(
                    "the rows of tab '\(tab.rawValue)' could not be located (its header changed?); nothing was written, the next run merges"
                ).coded(.changedMeanwhile)
            }
            return
        }
        let widest =
            (changes.newColumns.map(\.index) + changes.cells.map(\.column) + [(changes.appendedRows.map(\.count).max() ?? 0) - 1]).max()
            ?? 0
        if widest >= layout.columnCount {
            let added = widest + 1 - layout.columnCount
            write.add([["appendDimension": ["sheetId": .integer(sheetId), "dimension": "COLUMNS", "length": .integer(added)]]])
            write.grow(tab, byCells: added * layout.rowCount)
        }
        write.add(changes.newColumns.map { updateCells(sheetId: sheetId, row: 0, column: $0.index, rows: [[.text($0.header)]]) })
        var rowRequests: [JSONValue] = []
        var currentRow: Int?
        for change in changes.cells {
            // The row was deleted (or, without an id yet, moved) by hand since the read: writing anywhere
            // would lose the change or hit another row, so nothing is written and the next run merges.
            guard let row = layout.rowNow[change.row] else {
                let which =
                    "\(tab.rawValue) row \(Table.sheetRowNumber(ofDataRow: change.row))" + (change.key.isEmpty ? "" : " (\(change.key))")
                throw SheetSyncError.temporary(
                    "\(which) was deleted or moved by hand while syncing; nothing was written, the next run merges"
                ).coded(.changedMeanwhile)
            }
            // A row's cells go in one batch together, so no row is ever half written.
            if currentRow != row {
                write.add(rowRequests)
                rowRequests = []
                currentRow = row
            }
            rowRequests.append(updateCells(sheetId: sheetId, row: row + 1, column: change.column, rows: [[change.cell]]))
        }
        write.add(rowRequests)
        let deletes = changes.deletedRows.compactMap { layout.rowNow[$0] }.sorted(by: >)
        for row in deletes {
            write.add(
                [
                    [
                        "deleteDimension": [
                            "range": [
                                "sheetId": .integer(sheetId), "dimension": "ROWS",
                                "startIndex": .integer(row + 1), "endIndex": .integer(row + 2),
                            ]
                        ]
                    ]
                ], rowsAdded: -1, sheetId: sheetId)
        }
        if !changes.appendedRows.isEmpty {
            write.addRows(changes.appendedRows, sheetId: sheetId, firstRow: layout.dataRows - deletes.count + 1, inserting: true)
            write.grow(tab, byCells: changes.appendedRows.count * max(layout.columnCount, widest + 1))
        }
    }

    static let writeGuardKey = "sheetsync.write"
    /// The metadata id of the write token: one per spreadsheet, whatever machine writes.
    static let writeTokenId = 1_937_000_001

    /// Requests that open every write batch: a compare-and-swap of the spreadsheet's write token, which
    /// Google's batch atomicity makes a condition on the whole batch. The token (developer metadata with a
    /// fixed id) is deleted only if it still holds `previous`, the value this run read where it verified
    /// its rows' positions (or its own previous batch left), and created anew with `token`: if anything
    /// else changed it meanwhile (another machine's sheetsync wrote, or this batch was applied already and
    /// is being sent again), the create finds the id taken and the whole batch is refused, nothing of it
    /// applied. So no batch lands on positions another sheetsync write has moved, and no batch applies
    /// twice. Guards of the older kind (`legacy`) go.
    static func writeGuard(token: String, replacing previous: String?, legacy: [Int] = []) -> [JSONValue] {
        func delete(_ lookup: JSONValue) -> JSONValue { ["deleteDeveloperMetadata": ["dataFilter": ["developerMetadataLookup": lookup]]] }
        var requests = legacy.map { delete(["metadataId": .integer($0)]) }
        if let previous { requests.append(delete(["metadataId": .integer(writeTokenId), "metadataValue": .string(previous)])) }
        let create: JSONValue = [
            "metadataId": .integer(writeTokenId), "metadataKey": .string(writeGuardKey), "metadataValue": .string(token),
            "location": ["spreadsheet": true], "visibility": "DOCUMENT",
        ]
        return requests + [["createDeveloperMetadata": ["developerMetadata": create]]]
    }

    /// A tab's grid as a write batch finds it: its rows, whose last one carries the row anchor.
    struct Grid {
        var tab: Tab
        var sheetId: Int
        var rows: Int
    }

    /// A batch as sent: the write guard, each tab's row anchor checked (or, without
    /// `checkingRowAnchors`, removed wherever it is), the batch's requests, each anchor made anew on
    /// the last grid row the batch leaves.
    static func guarded(
        _ batch: SheetWrite.Batch, token: String, replacing previous: String?, legacy: [Int], grids: [Grid], checkingRowAnchors: Bool
    ) -> [[UInt8]] {
        let opening =
            writeGuard(token: token, replacing: previous, legacy: legacy)
            + grids.map {
                checkingRowAnchors ? rowAnchorCheck($0.tab, sheetId: $0.sheetId, row: $0.rows - 1) : rowAnchorRemoval($0.tab)
            }
        let closing = grids.compactMap { grid -> JSONValue? in
            let rows = grid.rows + (batch.rowsAdded[grid.sheetId] ?? 0)
            return rows > 0 ? rowAnchor(grid.tab, sheetId: grid.sheetId, row: rows - 1) : nil
        }
        return opening.map { $0.serialized() } + batch.requests + closing.map { $0.serialized() }
    }

    static let rowAnchorKey = "sheetsync.rows"

    /// The metadata id of a tab's row anchor (one per tab, whatever machine writes).
    static func rowAnchorId(_ tab: Tab) -> Int { writeTokenId + 1 + (Tab.allCases.firstIndex(of: tab) ?? 0) }

    /// Requests that open a batch writing to a tab's rows: the tab's row anchor, developer metadata on its
    /// last grid row, deleted only if it is still on `row`, the last grid row where this run verified
    /// the rows' positions. A row inserted or deleted anywhere above it by hand since moved it with the
    /// rows, as Google moves metadata; then the delete finds nothing, `rowAnchor` (which closes the
    /// batch) finds the id taken, and the whole batch is refused: no value lands on a row that moved.
    /// Where there is no anchor yet (the first write, or its row deleted), the delete finds nothing and
    /// the batch goes on unchecked; it is read back as every write is (`WrittenRowsCheck`).
    static func rowAnchorCheck(_ tab: Tab, sheetId: Int, row: Int) -> JSONValue {
        let location: JSONValue = [
            "dimensionRange": [
                "sheetId": .integer(sheetId), "dimension": "ROWS", "startIndex": .integer(row), "endIndex": .integer(row + 1),
            ]
        ]
        let lookup: JSONValue = [
            "metadataId": .integer(rowAnchorId(tab)), "metadataLocation": location, "locationMatchingStrategy": "EXACT_LOCATION",
        ]
        return ["deleteDeveloperMetadata": ["dataFilter": ["developerMetadataLookup": lookup]]]
    }

    /// The request that removes a tab's row anchor wherever it is (a batch that sets it afresh).
    static func rowAnchorRemoval(_ tab: Tab) -> JSONValue {
        ["deleteDeveloperMetadata": ["dataFilter": ["developerMetadataLookup": ["metadataId": .integer(rowAnchorId(tab))]]]]
    }

    /// The request that closes such a batch: the anchor made anew on `row`, the last grid row once the
    /// batch's own inserts and deletes are made.
    static func rowAnchor(_ tab: Tab, sheetId: Int, row: Int) -> JSONValue {
        let create: JSONValue = [
            "metadataId": .integer(rowAnchorId(tab)), "metadataKey": .string(rowAnchorKey), "visibility": "DOCUMENT",
            "location": [
                "dimensionRange": [
                    "sheetId": .integer(sheetId), "dimension": "ROWS", "startIndex": .integer(row), "endIndex": .integer(row + 1),
                ]
            ],
        ]
        return ["createDeveloperMetadata": ["developerMetadata": create]]
    }

    /// A tab the spreadsheet lacks: added with a grid big enough for its header and rows (a new sheet is
    /// 1000 × 26 otherwise, and writes past the grid fail), then its header, then its rows in blocks.
    static func addSheet(tab: Tab, changes: TableChanges, index: Int, to write: inout SheetWrite) {
        let sheetId = 7_000 + index
        let header = TablePatcher.newHeader(tab.schema).map { Cell.text($0) }
        let rowCount = max(1_000, changes.appendedRows.count + 1)
        let columnCount = max(26, header.count, changes.appendedRows.map(\.count).max() ?? 0)
        let properties: JSONValue = [
            "sheetId": .integer(sheetId), "title": .string(tab.rawValue), "index": .integer(index),
            "gridProperties": ["rowCount": .integer(rowCount), "columnCount": .integer(columnCount)],
        ]
        write.add([["addSheet": ["properties": properties]], updateCells(sheetId: sheetId, row: 0, column: 0, rows: [header])])
        write.grow(tab, byCells: rowCount * columnCount)
        write.addRows(changes.appendedRows, sheetId: sheetId, firstRow: 1, inserting: false)
    }

    /// Values (and date formats) of a block of cells starting at a 0-based row and column.
    static func updateCells(sheetId: Int, row: Int, column: Int, rows: [[Cell]]) -> JSONValue {
        let hasDates = rows.contains { $0.contains(where: SheetCells.isDate) }
        return [
            "updateCells": [
                "start": ["sheetId": .integer(sheetId), "rowIndex": .integer(row), "columnIndex": .integer(column)],
                "rows": .array(rows.map { ["values": .array($0.map(SheetCells.cellData))] }),
                "fields": .string(hasDates ? "userEnteredValue,userEnteredFormat.numberFormat" : "userEnteredValue"),
            ]
        ]
    }
}
