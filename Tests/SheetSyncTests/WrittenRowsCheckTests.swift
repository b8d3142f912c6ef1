import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import SheetSync

/// The check after a spreadsheet write, on tables: what a write that landed on moved rows left, and the
/// changes that put it right.
@Suite struct WrittenRowsCheckTests {
    static let header = TablePatcher.newHeader(Tab.transactions.schema)
    static let note = header.firstIndex(of: "note")!

    static func row(_ key: String, note: String) -> [Cell] {
        header.map { name in
            switch name {
            case "transactionId": return key.isEmpty ? .empty : .text(key)
            case "note": return .text(note)
            case "amount": return .number("1.5")
            default: return .empty
            }
        }
    }

    static func table(_ rows: [[Cell]]) -> Table { Table(header: header, rows: rows) }

    static var edit: TableChanges {
        var changes = TableChanges()
        changes.cells = [CellChange(row: 1, column: note, key: "b", cell: .text("new b"))]
        return changes
    }

    @Test func aWriteThatLandedOnItsRowNeedsNothing() {
        let before = Self.table([Self.row("a", note: "a"), Self.row("b", note: "b")])
        let now = Self.table([Self.row("a", note: "a"), Self.row("b", note: "new b")])
        #expect(WrittenRowsCheck.repairs(before: before, written: Self.edit, now: now, schema: Tab.transactions.schema) == nil)
    }

    /// A plain write is checked on the rows it aimed at: each as read, with the written cells in it.
    @Test func aPlainWritesRowsAreMeantWhereItAimedThem() throws {
        let before = Self.table([Self.row("a", note: "a"), Self.row("b", note: "b")])
        let schema = Tab.transactions.schema
        // "b" (data row 1 when read) stood at data row 4 when the write was aimed.
        let meant = try #require(
            WrittenRowsCheck.meantRows(before: before, written: Self.edit, rowNow: [0: 0, 1: 4], schema: schema, limit: 10))
        #expect(meant == [4: Self.row("b", note: "new b")])
        // Deletes, a row the write gives its id, a row gone since the read, or more rows than asked for:
        // only the whole tab tells.
        var delete = Self.edit
        delete.deletedRows = [0]
        #expect(WrittenRowsCheck.meantRows(before: before, written: delete, rowNow: [0: 0, 1: 1], schema: schema, limit: 10) == nil)
        var giving = TableChanges()
        giving.cells = [CellChange(row: 0, column: 0, key: "", cell: .text("c"))]
        #expect(WrittenRowsCheck.meantRows(before: before, written: giving, rowNow: [0: 0, 1: 1], schema: schema, limit: 10) == nil)
        #expect(WrittenRowsCheck.meantRows(before: before, written: Self.edit, rowNow: [0: 0], schema: schema, limit: 10) == nil)
        #expect(WrittenRowsCheck.meantRows(before: before, written: Self.edit, rowNow: [0: 0, 1: 1], schema: schema, limit: 0) == nil)
    }

    @Test func aValueOnTheRowAboveGoesBackAndTheEditGoesToItsRow() throws {
        // Row "a" was deleted after the verification, then a row "z" inserted at the top: the edit meant
        // for "b" (data row 1) landed on "a"'s successor at that position.
        let before = Self.table([Self.row("a", note: "a"), Self.row("b", note: "b")])
        let now = Self.table([Self.row("z", note: "z"), Self.row("c", note: "new b"), Self.row("b", note: "b")])
        var withC = before
        withC.rows.append(Self.row("c", note: "c"))
        let repair = try #require(WrittenRowsCheck.repairs(before: withC, written: Self.edit, now: now, schema: Tab.transactions.schema))
        #expect(
            Set(repair.cells) == [
                CellChange(row: 2, column: Self.note, key: "b", cell: .text("new b")),
                CellChange(row: 1, column: Self.note, key: "c", cell: .text("c")),
            ])
        #expect(repair.deletedRows.isEmpty && repair.appendedRows.isEmpty)
    }

    @Test func aValueOnARowWithoutAnIdIsEmptied() throws {
        let before = Self.table([Self.row("a", note: "a"), Self.row("b", note: "b")])
        let now = Self.table([Self.row("a", note: "a"), Self.row("", note: "new b"), Self.row("b", note: "b")])
        let repair = try #require(WrittenRowsCheck.repairs(before: before, written: Self.edit, now: now, schema: Tab.transactions.schema))
        #expect(repair.cells.contains(CellChange(row: 1, column: Self.note, key: "", cell: .empty)))
        #expect(repair.cells.contains(CellChange(row: 2, column: Self.note, key: "b", cell: .text("new b"))))
    }

    /// A row typed without an id, given one by the write, after a sort just before it applied: the id
    /// went to row "a" and the note meant for "b" to the typed row. Row "a" gets its id back; the typed
    /// row, found by its other cells, gets its id and what it held as read (not emptied as an unknown
    /// row's); "b" gets its note.
    @Test func aTypedRowGivenAnIdIsFollowedByItsOtherCellsAndGetsWhatItHeldBack() throws {
        let key = Self.header.firstIndex(of: "transactionId")!
        let before = Self.table([Self.row("a", note: "a"), Self.row("", note: "typed"), Self.row("b", note: "b")])
        var written = Self.edit
        written.cells = [
            CellChange(row: 1, column: key, key: "t", cell: .text("t")),
            CellChange(row: 2, column: Self.note, key: "b", cell: .text("new b")),
        ]
        let now = Self.table([Self.row("b", note: "b"), Self.row("t", note: "a"), Self.row("", note: "new b")])
        let repair = try #require(WrittenRowsCheck.repairs(before: before, written: written, now: now, schema: Tab.transactions.schema))
        #expect(
            Set(repair.cells) == [
                CellChange(row: 0, column: Self.note, key: "b", cell: .text("new b")),
                CellChange(row: 1, column: key, key: "a", cell: .text("a")),
                CellChange(row: 2, column: key, key: "t", cell: .text("t")),
                CellChange(row: 2, column: Self.note, key: "t", cell: .text("typed")),
            ], "\(repair.cells)")
        #expect(repair.deletedRows.isEmpty && repair.appendedRows.isEmpty)
    }

    @Test func aDeleteThatTookAnotherRowBringsItBackAndDeletesTheOneMeant() throws {
        var delete = TableChanges()
        delete.deletedRows = [1]
        let before = Self.table([Self.row("a", note: "a"), Self.row("b", note: "b"), Self.row("c", note: "c")])
        let now = Self.table([Self.row("a", note: "a"), Self.row("b", note: "b")])
        let repair = try #require(WrittenRowsCheck.repairs(before: before, written: delete, now: now, schema: Tab.transactions.schema))
        #expect(repair.deletedRows == [1])
        #expect(repair.appendedRows == [Self.row("c", note: "c")])
    }

    @Test func numbersAndDatesCompareByValue() {
        #expect(WrittenRowsCheck.same(.number("12.50"), .number("12.5")))
        #expect(WrittenRowsCheck.same(.dateSerial("46023"), .number("46023")))
        #expect(!WrittenRowsCheck.same(.text("12.5"), .number("12.50")))
        #expect(WrittenRowsCheck.same(.text(""), .empty))
    }
}
