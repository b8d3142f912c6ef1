import SheetSyncCore
import Testing

@testable import Workbook

/// A rewrite that changes some rows copies every other row from the bytes it was read from.
@Suite struct CSVPatchWriterTests {
    static let text = "id,note\r\n1,\"plain, quoted\"\r\n2,\"needlessly quoted\"\r\n3,x\r\n4,last"

    static func read(_ text: String) throws -> CSVFile { try CSVReader.parse(Array(text.utf8), source: "t.csv") }

    @Test func unchangedRowsKeepTheirBytesAndChangedOnesAreEncoded() throws {
        let old = try Self.read(Self.text)
        var new = old
        new.table.rows[2][1] = .text("y")  // row 3 changes
        new.table.rows.remove(at: 0)  // row 1 is deleted
        new.table.rows.append([.text("5"), .text("new, row")])
        let bytes = CSVWriter.encode(new, patching: old, deleted: [0])
        #expect(String(decoding: bytes, as: UTF8.self) == "id,note\r\n2,\"needlessly quoted\"\r\n3,y\r\n4,last\r\n5,\"new, row\"")
        // It reads back as the table written, exactly as a whole encoding would.
        #expect(try Self.read(String(decoding: bytes, as: UTF8.self)).table == new.table)
    }

    @Test func anyLayoutChangeFallsBackToAWholeEncoding() throws {
        let old = try Self.read(Self.text)
        var new = old
        new.table.header.append("extra")
        #expect(CSVWriter.encode(new, patching: old, deleted: []) == CSVWriter.encode(new))
        var unread = old
        unread.source = nil
        #expect(CSVWriter.encode(old, patching: unread, deleted: []) == CSVWriter.encode(old))
    }

    @Test(arguments: ["", "id\n", "id\n\n", "a,b\n1,2\n\n", "\u{FEFF}a\n\"1\"\n", "a\r1\r2"])
    func patchingWithNoChangeGivesBackTheFileAsItReads(_ text: String) throws {
        let old = try Self.read(text)
        let bytes = CSVWriter.encode(old, patching: old, deleted: [])
        #expect(try Self.read(String(decoding: bytes, as: UTF8.self)) == old)
    }
}
