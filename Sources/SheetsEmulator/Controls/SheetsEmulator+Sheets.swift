import Foundation
import Interchange

/// A tab to create: its name, grid size and starting cells.
public struct EmulatedTab: Sendable, Equatable {
    public var name: String
    public var rows: [[EmulatedCell]]
    public var rowCount: Int
    public var columnCount: Int

    public init(name: String, rows: [[EmulatedCell]] = [], rowCount: Int = 1000, columnCount: Int = 26) {
        self.name = name
        self.rows = rows
        self.rowCount = rowCount
        self.columnCount = columnCount
    }

    /// A tab whose cells are typed by a person (`"2026-01-15"` becomes a date, `"12.50"` a number).
    public init(name: String, typed rows: [[String]], rowCount: Int = 1000, columnCount: Int = 26) {
        self.init(name: name, rows: rows.map { $0.map { EmulatedCell.userEntered($0) } }, rowCount: rowCount, columnCount: columnCount)
    }
}

extension SheetsEmulator {
    /// Creates a spreadsheet (and its Drive file, in `parentFolderId` or My Drive) and returns its id.
    @discardableResult
    public func createSpreadsheet(title: String, tabs: [EmulatedTab], parentFolderId: String? = nil) throws -> String {
        try world.withLock { world throws(EmulatorError) -> String in
            do throws(GoogleAPIError) {
                var sheet = try world.createSpreadsheet(
                    from: ["properties": ["title": .string(title)]], parents: [parentFolderId ?? DriveFiles.rootFolderId])
                if !tabs.isEmpty { sheet.sheets = [] }
                for tab in tabs {
                    let position = try sheet.addSheet(title: tab.name, rowCount: tab.rowCount, columnCount: tab.columnCount)
                    for (r, row) in tab.rows.enumerated() {
                        for (c, cell) in row.enumerated() { try sheet.write(cell, sheet: position, row: r, column: c) }
                    }
                }
                world.persistent.spreadsheets[sheet.id] = sheet
                return sheet.id
            } catch {
                throw EmulatorError("cannot create spreadsheet '\(title)': \(error.message)")
            }
        }
    }

    /// The tab names in order.
    public func tabNames(spreadsheetId: String) throws -> [String] {
        try world.withLock { world throws(EmulatorError) in try Self.spreadsheet(spreadsheetId, in: world).sheets.map(\.title) }
    }

    /// Adds an empty tab of the given grid size at the end, as a person adding a sheet would.
    public func addTab(spreadsheetId: String, title: String, rowCount: Int = 1000, columnCount: Int = 26) throws {
        try world.withLock { world throws(EmulatorError) in
            var sheet = try Self.spreadsheet(spreadsheetId, in: world)
            do throws(GoogleAPIError) {
                try sheet.addSheet(title: title, rowCount: rowCount, columnCount: columnCount)
            } catch {
                throw EmulatorError("cannot add tab '\(title)': \(error.message)")
            }
            world.persistent.spreadsheets[spreadsheetId] = sheet
            world.touch(spreadsheetId)
        }
    }

    /// A tab's grid size (`gridProperties.rowCount` and `columnCount`).
    public func gridSize(spreadsheetId: String, tab: String) throws -> (rows: Int, columns: Int) {
        try world.withLock { world throws(EmulatorError) in
            let sheet = try Self.spreadsheet(spreadsheetId, in: world)
            let s = try Self.tabIndex(tab, in: sheet)
            return (sheet.sheets[s].rowCount, sheet.sheets[s].columnCount)
        }
    }

    /// A tab's cells as rows, trailing blank cells and rows left out.
    public func cells(spreadsheetId: String, tab: String) throws -> [[EmulatedCell]] {
        try world.withLock { world throws(EmulatorError) in
            let sheet = try Self.spreadsheet(spreadsheetId, in: world)
            let s = try Self.tabIndex(tab, in: sheet)
            return sheet.sheets[s].rows.prefix(sheet.sheets[s].usedRowCount).map(\.cells)
        }
    }

    /// A tab's values as rows, trailing empty cells and rows left out (formats ignored).
    public func rows(spreadsheetId: String, tab: String) throws -> [[EmulatedValue]] {
        var rows = try cells(spreadsheetId: spreadsheetId, tab: tab).map { row -> [EmulatedValue] in
            var values = row.map(\.value)
            while values.last?.isEmpty == true { values.removeLast() }
            return values
        }
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// The cell at an A1 reference such as `B5`.
    public func cell(spreadsheetId: String, tab: String, at a1: String) throws -> EmulatedCell {
        let (row, column) = try Self.cellPosition(a1)
        return try world.withLock { world throws(EmulatorError) in
            let sheet = try Self.spreadsheet(spreadsheetId, in: world)
            return sheet.sheets[try Self.tabIndex(tab, in: sheet)].cell(row: row, column: column)
        }
    }

    /// Types `text` into a cell as a person would (USER_ENTERED parsing; an existing format is kept).
    public func typeCell(spreadsheetId: String, tab: String, at a1: String, text: String) throws {
        let (row, column) = try Self.cellPosition(a1)
        try edit(spreadsheetId, tab) { sheet, s throws(GoogleAPIError) in
            let cell = EmulatedCell.userEntered(text, keeping: sheet.sheets[s].cell(row: row, column: column).numberFormat)
            try sheet.write(cell, sheet: s, row: row, column: column)
        }
    }

    /// Puts an exact cell (value and format) somewhere, as a paste of a formatted cell would.
    public func setCell(spreadsheetId: String, tab: String, at a1: String, to cell: EmulatedCell) throws {
        let (row, column) = try Self.cellPosition(a1)
        try edit(spreadsheetId, tab) { sheet, s throws(GoogleAPIError) in try sheet.write(cell, sheet: s, row: row, column: column) }
    }

    /// Inserts a blank row before `rowIndex` (0-based), then types `typed` into it.
    public func insertRow(spreadsheetId: String, tab: String, at rowIndex: Int, typed: [String] = []) throws {
        try edit(spreadsheetId, tab) { sheet, s throws(GoogleAPIError) in
            try sheet.insert(.rows, sheet: s, at: rowIndex, count: 1, inheritFromBefore: rowIndex > 0)
            for (c, text) in typed.enumerated() {
                let cell = EmulatedCell.userEntered(text, keeping: sheet.sheets[s].cell(row: rowIndex, column: c).numberFormat)
                try sheet.write(cell, sheet: s, row: rowIndex, column: c)
            }
        }
    }

    /// Deletes the row at `rowIndex` (0-based); its developer metadata goes with it.
    public func deleteRow(spreadsheetId: String, tab: String, at rowIndex: Int) throws {
        try edit(spreadsheetId, tab) { sheet, s throws(GoogleAPIError) in try sheet.delete(.rows, sheet: s, range: rowIndex..<rowIndex + 1)
        }
    }

    /// Sorts the rows below `headerRows` by one column, as "Sort sheet A→Z" (or Z→A) does.
    public func sortTab(spreadsheetId: String, tab: String, byColumn column: Int, ascending: Bool = true, headerRows: Int = 1) throws {
        try edit(spreadsheetId, tab) { sheet, s throws(GoogleAPIError) in
            let grid = sheet.sheets[s]
            try sheet.sort(
                sheet: s, rows: headerRows..<grid.rowCount, columns: 0..<grid.columnCount,
                keys: [SortKey(column: column, ascending: ascending)])
        }
    }

    /// Drags the column at `from` so it ends up at index `to` (both 0-based).
    public func moveColumn(spreadsheetId: String, tab: String, from: Int, to: Int) throws {
        try edit(spreadsheetId, tab) { sheet, s throws(GoogleAPIError) in
            try sheet.move(.columns, sheet: s, source: from..<from + 1, destination: to > from ? to + 1 : to)
        }
    }

    /// Renames a tab, as double-clicking its name does.
    public func renameTab(spreadsheetId: String, tab: String, to newName: String) throws {
        try edit(spreadsheetId, tab) { sheet, s throws(GoogleAPIError) in
            guard sheet.sheetIndex(title: newName) == nil else { throw .invalidArgument("a tab named '\(newName)' already exists") }
            sheet.sheets[s].title = newName
        }
    }

    /// Runs a person's edit on one tab and bumps the spreadsheet's Drive `version`.
    func edit(_ spreadsheetId: String, _ tab: String, _ change: (inout SpreadsheetState, Int) throws(GoogleAPIError) -> Void) throws {
        try world.withLock { world throws(EmulatorError) in
            var sheet = try Self.spreadsheet(spreadsheetId, in: world)
            let s = try Self.tabIndex(tab, in: sheet)
            do throws(GoogleAPIError) {
                try change(&sheet, s)
            } catch {
                throw EmulatorError("cannot edit tab '\(tab)' of spreadsheet '\(spreadsheetId)': \(error.message)")
            }
            world.persistent.spreadsheets[spreadsheetId] = sheet
            world.touch(spreadsheetId)
        }
    }

    static func spreadsheet(_ id: String, in world: EmulatorWorld) throws(EmulatorError) -> SpreadsheetState {
        guard let sheet = world.persistent.spreadsheets[id] else { throw EmulatorError("no spreadsheet with id '\(id)' in the emulator") }
        return sheet
    }

    static func tabIndex(_ tab: String, in sheet: SpreadsheetState) throws(EmulatorError) -> Int {
        guard let index = sheet.sheetIndex(title: tab) else {
            throw EmulatorError("no tab '\(tab)' in spreadsheet '\(sheet.id)' (tabs: \(sheet.sheets.map(\.title).joined(separator: ", ")))")
        }
        return index
    }

    static func cellPosition(_ a1: String) throws(EmulatorError) -> (row: Int, column: Int) {
        guard let range = A1Range.parse(a1, sheetNames: []), let row = range.startRow, let column = range.startColumn,
            range.endRow == row + 1, range.endColumn == column + 1
        else { throw EmulatorError("'\(a1)' is not a single-cell A1 reference such as 'B5'") }
        return (row, column)
    }
}
