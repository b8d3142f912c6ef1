import Foundation
import SheetSyncCore
import SheetValues

/// The check after a write to a spreadsheet: the changed tabs read back, every cell the write meant for
/// a row found on that row, and what landed elsewhere put back.
///
/// Google offers no conditional writes: a write is aimed at row positions verified just before it is
/// sent, and a person who inserts, deletes or sorts rows in the moments before Google applies it moves
/// another row into a position it aims at. Such a write is told by what it left: a row it meant to
/// change that does not hold the values written, a row it meant to delete still there. Then the cells it
/// put on other rows (a value written for one row found on another, which held something else when
/// read) get their values as read back, the meant values go to their rows, a row deleted in place of
/// another comes back as read, and the meant delete is made. Pure: the remote reads and writes.
enum WrittenRowsCheck {
    /// The changes that put the write right on `now` (its rows indexed as in `now`), or nil when every
    /// row holds what the write meant. `before` is the table the write was planned on, `written` what
    /// it changed there. A tab the write gave new columns or a new header is not checked.
    static func repairs(before: Table, written: TableChanges, now: Table, schema: TabSchema) -> TableChanges? {
        guard written.newColumns.isEmpty, let map = try? ColumnMap(header: before.header, schema: schema),
            let keyColumn = map.columns[schema.keyField], let nowMap = try? ColumnMap(header: now.header, schema: schema),
            let nowKeyColumn = nowMap.columns[schema.keyField]
        else { return nil }
        let columnNow = columnsNow(before: before.header, now: now.header)
        let rowsBefore = byKey(before, keyColumn: keyColumn)
        let rowsNow = indicesByKey(now, keyColumn: nowKeyColumn)
        // Cells of rows that had their key when read (a row given its id by this write is not followed).
        let meant = written.cells.filter { change in
            change.column != keyColumn && !change.key.isEmpty && change.row < before.rows.count
                && keyText(before.rows[change.row], keyColumn: keyColumn) == change.key.lowercased()
        }
        var repair = TableChanges()
        let (misses, missed) = missedCells(meant, now: now, columnNow: columnNow, rowsNow: rowsNow)
        repair.cells = misses
        if missed {
            repair.cells += landedElsewhere(meant, now: now, nowKeyColumn: nowKeyColumn, columnNow: columnNow, rowsBefore: rowsBefore)
        }
        // Rows typed without an id that the write gave one, and the rows a sort gave those ids to.
        let given = givenIds(
            before: before, written: written, now: now, keys: (keyColumn, nowKeyColumn), columnNow: columnNow, rowsBefore: rowsBefore,
            rowsNow: rowsNow)
        repair.cells += given.cells
        let meantGone = Set(written.deletedRows.filter { $0 < before.rows.count }.map { keyText(before.rows[$0], keyColumn: keyColumn) })
            .subtracting([""])
        if meantGone.contains(where: { rowsNow[$0] != nil }) {
            let (deleted, appended) = strayDeletes(
                meantGone, before: before, now: now, rowsBefore: rowsBefore, rowsNow: rowsNow, given: given)
            repair.deletedRows += deleted
            repair.appendedRows += appended
        }
        // A typed row followed by its other cells gets what it held back, not emptied as one unknown.
        let followed = Set(given.cells.map { [$0.row, $0.column] })
        repair.cells.removeAll { $0.key.isEmpty && followed.contains([$0.row, $0.column]) }
        repair.cells = Array(Set(repair.cells)).sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        return repair.isEmpty ? nil : repair
    }

    /// What each row a plain write changed should hold now, by its data row index now (`rowNow`, the
    /// positions the write was aimed at): the row as read with the written cells in it. Nil when the
    /// write is not plain — it deletes rows, adds columns, gives a typed row its id, or changes more
    /// rows than `limit` — and only a read of the whole tab can tell where its values went.
    static func meantRows(before: Table, written: TableChanges, rowNow: [Int: Int], schema: TabSchema, limit: Int) -> [Int: [Cell]]? {
        guard written.deletedRows.isEmpty, written.newColumns.isEmpty, let map = try? ColumnMap(header: before.header, schema: schema),
            let keyColumn = map.columns[schema.keyField]
        else { return nil }
        var meant: [Int: [Cell]] = [:]
        for change in written.cells {
            guard !change.key.isEmpty, change.row < before.rows.count, let at = rowNow[change.row],
                keyText(before.rows[change.row], keyColumn: keyColumn) == change.key.lowercased()
            else { return nil }
            var row = meant[at] ?? before.rows[change.row]
            if row.count <= change.column { row += Array(repeating: .empty, count: change.column + 1 - row.count) }
            row[change.column] = change.cell
            meant[at] = row
            guard meant.count <= limit else { return nil }
        }
        return meant
    }

    /// The meant cells whose row does not hold them now, set again where that row is; `missed` also when
    /// a row the write meant to change is gone (deleted meanwhile: the delete stands).
    private static func missedCells(_ meant: [CellChange], now: Table, columnNow: [Int: Int], rowsNow: [String: [Int]])
        -> (cells: [CellChange], missed: Bool)
    {
        var cells: [CellChange] = []
        var missed = false
        for change in meant {
            guard let column = columnNow[change.column] else { continue }
            guard let at = rowsNow[change.key.lowercased()] else {
                // Gone: deleted meanwhile (the delete stands); what was meant for it may be on another row.
                missed = true
                continue
            }
            guard at.count == 1, !same(cell(now.rows[at[0]], column), change.cell) else { continue }
            missed = true
            cells.append(CellChange(row: at[0], column: column, key: change.key, cell: change.cell))
        }
        return (cells, missed)
    }

    /// Each row once, each column the write changed: a value meant for another row, which this row did
    /// not hold when read, landed here and gets back what the row held. (A row the write meant to change
    /// in that column is judged by its own value in `missedCells`.)
    private static func landedElsewhere(
        _ meant: [CellChange], now: Table, nowKeyColumn: Int, columnNow: [Int: Int], rowsBefore: [String: [Cell]]
    ) -> [CellChange] {
        var meantByColumn: [Int: (keys: Set<String>, values: [String: CellChange])] = [:]
        for change in meant {
            guard let column = columnNow[change.column] else { continue }
            meantByColumn[column, default: ([], [:])].keys.insert(change.key.lowercased())
            meantByColumn[column, default: ([], [:])].values[valueKey(change.cell)] = change
        }
        var cells: [CellChange] = []
        for (index, row) in now.rows.enumerated() {
            let key = keyText(row, keyColumn: nowKeyColumn)
            for (column, meantHere) in meantByColumn where !meantHere.keys.contains(key) {
                let here = cell(row, column)
                guard !here.isEmpty, let change = meantHere.values[valueKey(here)] else { continue }
                if key.isEmpty {
                    // A row without a key (blank, or typed meanwhile): what it held there is unknown; the
                    // value meant for another row goes (the caller names the row).
                    cells.append(CellChange(row: index, column: column, key: "", cell: .empty))
                } else if let was = rowsBefore[key], !same(cell(was, change.column), change.cell) {
                    cells.append(CellChange(row: index, column: column, key: key, cell: cell(was, change.column)))
                }
            }
        }
        return cells
    }

    /// A delete that took another row (a row meant to go is still there): the meant rows are deleted
    /// now, and the rows gone in their place come back as read — a typed row with the id the write gave
    /// it (`given.gone`); a row whose id went to a typed row is not among them (`given` puts it back).
    private static func strayDeletes(
        _ meantGone: Set<String>, before: Table, now: Table, rowsBefore: [String: [Cell]], rowsNow: [String: [Int]],
        given: (cells: [CellChange], gone: [[Cell]])
    ) -> (deleted: [Int], appended: [[Cell]]) {
        let deleted = meantGone.filter { rowsNow[$0] != nil }.flatMap { rowsNow[$0] ?? [] }.sorted()
        let restored = Set(given.cells.map { $0.key.lowercased() })
        let lost = rowsBefore.keys.filter { !meantGone.contains($0) && rowsNow[$0] == nil && !restored.contains($0) }.sorted()
        let appended = lost.compactMap { key in
            rowsBefore[key].map { was in
                now.header.indices.map { column in
                    columnBefore(column, before: before.header, now: now.header).map { cell(was, $0) } ?? .empty
                }
            }
        }
        return (deleted, appended + given.gone)
    }

    /// The rows typed without an id that the write gave one, checked apart (the cells above are followed
    /// by the key a row had when read): a sort in the moment before the write applied puts the id, and
    /// the cells written with it, on another row, replacing that row's id. That row gets back what it
    /// held (found by its other cells among the rows whose key is gone), and the typed row, found where
    /// it is now by its other cells, gets what was meant for it; a typed row found nowhere is in `gone`,
    /// as the write meant it to be (in the header as it is now).
    private static func givenIds(
        before: Table, written: TableChanges, now: Table, keys: (before: Int, now: Int), columnNow: [Int: Int],
        rowsBefore: [String: [Cell]], rowsNow: [String: [Int]]
    ) -> (cells: [CellChange], gone: [[Cell]]) {
        var groups: [Int: [CellChange]] = [:]
        for change in written.cells
        where !change.key.isEmpty && change.row < before.rows.count && keyText(before.rows[change.row], keyColumn: keys.before).isEmpty {
            groups[change.row, default: []].append(change)
        }
        var out: [CellChange] = [], gone: [[Cell]] = []
        // Every column the write set on some row: a typed row may have taken a value meant for another.
        let anyWritten = Set(written.cells.compactMap { columnNow[$0.column] })
        for (row, changes) in groups.sorted(by: { $0.key < $1.key }) {
            let key = changes[0].key.lowercased()
            let writtenNow = Set(changes.compactMap { columnNow[$0.column] })
            // Whether a row now holds `was` in every column the write did not set.
            func holds(_ was: [Cell], _ index: Int) -> Bool {
                columnNow.allSatisfy { column, at in
                    column == keys.before || writtenNow.contains(at) || same(cell(was, column), cell(now.rows[index], at))
                }
            }
            let holders = rowsNow[key] ?? []
            guard !holders.contains(where: { holds(before.rows[row], $0) }) else { continue }
            for index in holders {
                guard let (other, was) = rowsBefore.first(where: { rowsNow[$0.key] == nil && holds($0.value, index) }) else { continue }
                out += changes.compactMap { change in
                    columnNow[change.column].map { CellChange(row: index, column: $0, key: other, cell: cell(was, change.column)) }
                }
            }
            let typedNow = now.rows.indices.first { index in
                keyText(now.rows[index], keyColumn: keys.now).isEmpty
                    && columnNow.allSatisfy { column, at in
                        anyWritten.contains(at) || same(cell(before.rows[row], column), cell(now.rows[index], at))
                    }
            }
            if let typedNow {
                out += changes.compactMap { change in
                    columnNow[change.column].map { CellChange(row: typedNow, column: $0, key: key, cell: change.cell) }
                }
                // What it held as read, where a value meant for another row landed on it.
                for (column, at) in columnNow where anyWritten.contains(at) && !writtenNow.contains(at) {
                    let was = cell(before.rows[row], column)
                    if !same(was, cell(now.rows[typedNow], at)) { out.append(CellChange(row: typedNow, column: at, key: key, cell: was)) }
                }
            } else {
                var meant = before.rows[row]
                for change in changes {
                    if change.column >= meant.count { meant += Array(repeating: .empty, count: change.column - meant.count + 1) }
                    meant[change.column] = change.cell
                }
                gone.append(
                    now.header.indices.map { column in
                        columnBefore(column, before: before.header, now: now.header).map { cell(meant, $0) } ?? .empty
                    })
            }
        }
        return (out, gone)
    }

    /// Whether two cells hold the same value (numbers and dates by value: a serial written reads back
    /// as a number).
    static func same(_ a: Cell, _ b: Cell) -> Bool { valueKey(a) == valueKey(b) }

    /// The value `same` compares, as a dictionary key.
    static func valueKey(_ cell: Cell) -> String {
        switch cell {
        case .number(let text), .dateSerial(let text): return Double(text).map { "n\($0)" } ?? "t" + text
        default: return cell.isEmpty ? "" : "t" + cell.rawText
        }
    }

    private static func cell(_ row: [Cell], _ column: Int) -> Cell { column < row.count ? row[column] : .empty }

    private static func keyText(_ row: [Cell], keyColumn: Int) -> String {
        cell(row, keyColumn).rawText.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The rows of each key, by index (a key twice has two).
    private static func indicesByKey(_ table: Table, keyColumn: Int) -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        for (index, row) in table.rows.enumerated() {
            let key = keyText(row, keyColumn: keyColumn)
            if !key.isEmpty { out[key, default: []].append(index) }
        }
        return out
    }

    private static func byKey(_ table: Table, keyColumn: Int) -> [String: [Cell]] {
        var out: [String: [Cell]] = [:]
        for row in table.rows {
            let key = keyText(row, keyColumn: keyColumn)
            if !key.isEmpty, out[key] == nil { out[key] = row }
        }
        return out
    }

    private static func name(_ header: String) -> String { header.trimmingCharacters(in: .whitespaces).lowercased() }

    /// Column index as read → column index now, matched by header text.
    private static func columnsNow(before: [String], now: [String]) -> [Int: Int] {
        var out: [Int: Int] = [:]
        for (index, header) in before.enumerated() where !name(header).isEmpty {
            if let at = now.firstIndex(where: { name($0) == name(header) }) { out[index] = at }
        }
        return out
    }

    private static func columnBefore(_ column: Int, before: [String], now: [String]) -> Int? {
        guard column < now.count, !name(now[column]).isEmpty else { return nil }
        return before.firstIndex { name($0) == name(now[column]) }
    }
}
