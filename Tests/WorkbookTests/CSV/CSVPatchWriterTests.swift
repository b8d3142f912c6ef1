import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// A rewrite that changes some rows copies every other row from the bytes it was read from, and
/// neither table is decoded whole.
@Suite struct CSVPatchWriterTests {
    static let text = "id,note\r\n1,\"plain, quoted\"\r\n2,\"needlessly quoted\"\r\n3,x\r\n4,last"

    static func read(_ text: String) throws -> CSVFile { try CSVReader.parse(Array(text.utf8), source: "t.csv") }

    @Test func unchangedRowsKeepTheirBytesAndChangedOnesAreEncoded() throws {
        let old = try Self.read(Self.text)
        var changes = TableChanges()
        changes.cells = [CellChange(row: 2, column: 1, key: "3", cell: .text("y"))]
        changes.deletedRows = [0]
        changes.appendedRows = [[.text("5"), .text("new, row")]]
        let bytes = try #require(CSVWriter.encode(patching: old, with: changes))
        #expect(String(decoding: bytes, as: UTF8.self) == "id,note\r\n2,\"needlessly quoted\"\r\n3,y\r\n4,last\r\n5,\"new, row\"")
        // It reads back as the table the whole rewrite gives, row for row.
        var whole = old
        whole.table = TablePatcherProbe.apply(changes, to: old.table)
        #expect(try Self.read(String(decoding: bytes, as: UTF8.self)).table.rows == whole.table.rows)
    }

    @Test func aCellChangedPastTheRowsEndPadsTheRow() throws {
        let old = try Self.read("a,b,c\n1\n2,x,y\n")
        var changes = TableChanges()
        changes.cells = [CellChange(row: 0, column: 2, key: "1", cell: .text("z"))]
        let bytes = try #require(CSVWriter.encode(patching: old, with: changes))
        #expect(String(decoding: bytes, as: UTF8.self) == "a,b,c\n1,,z\n2,x,y\n")
    }

    @Test func aChangeToTheSameCellKeepsTheRowsBytesAndChangesNothing() throws {
        let old = try Self.read(Self.text)
        var changes = TableChanges()
        changes.cells = [CellChange(row: 1, column: 1, key: "2", cell: .text("needlessly quoted"))]
        #expect(CSVWriter.encode(patching: old, with: changes) == old.source)
        #expect(try #require(CSVPatch(old, changes)).changesNothing)
        #expect(try #require(CSVPatch(old, TableChanges())).changesNothing)
        changes.deletedRows = [3]
        #expect(try #require(CSVPatch(old, changes)).changesNothing == false)
    }

    @Test(arguments: [1, 2, 7, 64])
    func aPatchWrittenInChunksIsTheSameBytes(_ chunkSize: Int) throws {
        let old = try Self.read(Self.text)
        var changes = TableChanges()
        changes.cells = [CellChange(row: 2, column: 1, key: "3", cell: .text("y"))]
        changes.appendedRows = [[.text("5")]]
        let patch = try #require(CSVPatch(old, changes))
        var chunks: [[UInt8]] = []
        patch.write(chunkSize: chunkSize) { chunks.append(Array($0)) }
        #expect(chunks.joined().elementsEqual(try #require(CSVWriter.encode(patching: old, with: changes))))
        #expect(!chunks.contains { $0.isEmpty })
    }

    /// In a file whose every separator is the first one, the rows between two changed ones go out
    /// as one slice of the bytes read.
    @Test func aFileWithOneLineEndingIsCopiedInOneSliceAroundEachChange() throws {
        let old = try Self.read("id,note\n1,a\n2,\"b, c\"\n\n3,d\n4,e\n5,f")
        var changes = TableChanges()
        changes.cells = [CellChange(row: 3, column: 1, key: "3", cell: .text("D"))]
        changes.deletedRows = [5]
        var chunks: [String] = []
        try #require(CSVPatch(old, changes)).write { chunks.append(String(decoding: $0, as: UTF8.self)) }
        #expect(chunks == ["id,note", "\n1,a\n2,\"b, c\"\n", "\n3,D", "\n4,e"])
    }

    /// Unchanged rows go out as slices of the bytes read, a run of them at a time; a row whose line
    /// ending before it is not the file's (the first one read) is written with the file's, as a
    /// whole rewrite writes it, so the new file's line endings are the file's throughout.
    @Test func runsOfUnchangedRowsAreCopiedWithTheFilesLineEnding() throws {
        let old = try Self.read("id,note\r\n1,a\n2,\"b\"\r\n3,c\r\n\r\n4,d\n5,e\r\n")
        var changes = TableChanges()
        changes.cells = [CellChange(row: 3, column: 1, key: "", cell: .text("blank no more"))]
        var chunks: [ArraySlice<UInt8>] = []
        try #require(CSVPatch(old, changes)).write { chunks.append($0) }
        let text = String(decoding: chunks.joined(), as: UTF8.self)
        #expect(text == "id,note\r\n1,a\r\n2,\"b\"\r\n3,c\r\n,blank no more\r\n4,d\r\n5,e\r\n")
        #expect(chunks.contains { String(decoding: $0, as: UTF8.self) == "\r\n3,c" })
        // With nothing changed, rows 3, the blank one and 4 (each read after a CRLF, one after the
        // other) go out as one slice; the bytes are the whole rewrite's.
        var none: [ArraySlice<UInt8>] = []
        try #require(CSVPatch(old, TableChanges())).write { none.append($0) }
        #expect(String(decoding: none.joined(), as: UTF8.self) == "id,note\r\n1,a\r\n2,\"b\"\r\n3,c\r\n\r\n4,d\r\n5,e\r\n")
        #expect(none.contains { String(decoding: $0, as: UTF8.self) == "\r\n3,c\r\n\r\n4,d" })
    }

    @Test func aNewColumnOrBytesNotKeptLeaveItToTheWholeEncoding() throws {
        let old = try Self.read(Self.text)
        var changes = TableChanges()
        changes.newColumns = [(2, "extra")]
        #expect(CSVWriter.encode(patching: old, with: changes) == nil)
        var unread = old
        unread.source = nil
        #expect(CSVWriter.encode(patching: unread, with: TableChanges()) == nil)
    }

    @Test func anEmptyFileIsLeftToTheWholeEncoding() throws {
        #expect(CSVWriter.encode(patching: try Self.read(""), with: TableChanges()) == nil)
    }

    @Test(arguments: ["id\n", "id\n\n", "a,b\n1,2\n\n", "\u{FEFF}a\n\"1\"\n", "a\r1\r2", "a,b\n\"x\"\"y\",\"z\"tail\n"])
    func patchingWithNoChangeGivesBackTheBytesRead(_ text: String) throws {
        let old = try Self.read(text)
        #expect(CSVWriter.encode(patching: old, with: TableChanges()) == Array(text.utf8))
    }
}

/// The whole-table rewrite the patch must agree with: cells set (rows padded), deleted rows dropped,
/// new rows appended.
enum TablePatcherProbe {
    static func apply(_ changes: TableChanges, to table: Table) -> Table {
        var table = table
        for change in changes.cells {
            if table.rows[change.row].count <= change.column {
                table.rows[change.row] += Array(repeating: .empty, count: change.column + 1 - table.rows[change.row].count)
            }
            table.rows[change.row][change.column] = change.cell
        }
        let doomed = Set(changes.deletedRows)
        table.rows = table.rows.enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
        table.rows += changes.appendedRows
        return table
    }
}
