import SheetValues
import Testing

@testable import SheetSyncCore
@testable import Workbook

/// A CSV file read from an owned byte array keeps its rows as the bytes and decodes a row when asked
/// for: every way of asking must give exactly what a reader that made every cell up front gives.
@Suite struct CSVRowSourceTests {
    static let texts = [
        "id,note,amount\n1,plain,2\n2,\"a, b\",3\n3,\"say \"\"hi\"\"\",4\n",
        "id,note\r\n1,\"two\r\nlines\"\r\n\r\n2,\"x\"tail\r\n3,,\r\n4\r\n",
        "\u{FEFF}id,note\n1,caf\u{E9}\n2,\"\"\n3,\"\"\"\"\n,\n",
        "id,note\r1,a\r2,b",
        "id,a,b,c,d\n1,\"swallowed\n2,x,y,z,w\n3,x,y,z,w\"\n4,ok,,,\n",
        "id,note\n1,has\u{0}nul\n2,fine\n",
        "id\n\n\n1\n",
        "id,note\n1,x,extra,,\n",
    ]

    static func eager(_ text: String) throws -> CSVFile {
        try Array(text.utf8).withUnsafeBytes { try CSVReader.parse($0, source: "t.csv") }
    }

    @Test(arguments: texts)
    func rowsCellsAndHashesMatchAReaderThatMadeEveryCell(_ text: String) throws {
        let lazy = try CSVReader.parse(Array(text.utf8), source: "t.csv").table
        let eager = try Self.eager(text).table
        #expect(lazy.header == eager.header)
        #expect(lazy.damagedRows == eager.damagedRows)
        #expect(lazy.refusedRows == eager.refusedRows)
        #expect(lazy.rowCount == eager.rows.count)
        let seed = RowHash.seed(header: lazy.header)
        for index in 0..<eager.rows.count {
            let cells = eager.rows[index]
            #expect(lazy.row(index) == cells, "row \(index)")
            #expect(lazy.rowHash(index, seed: seed) == RowHash.of(cells, seed: seed), "row \(index)")
            for column in 0..<(cells.count + 2) {
                #expect(lazy.cell(row: index, column: column) == (column < cells.count ? cells[column] : .empty))
            }
        }
        #expect(lazy.rows == eager.rows)
        #expect(lazy == eager)
    }

    @Test func changingARowOfALazyTableChangesOnlyThatRow() throws {
        var table = try CSVReader.parse(Array(Self.texts[0].utf8), source: "t.csv").table
        let before = table.rows
        table.rows[1][1] = .text("changed")
        #expect(table.row(1) == [.text("2"), .text("changed"), .text("3")])
        #expect(table.row(0) == before[0] && table.row(2) == before[2])
        #expect(table != (try CSVReader.parse(Array(Self.texts[0].utf8), source: "t.csv").table))
    }

    /// A sync hashes and keys every row in one visit of its bytes: the same hashes as
    /// `Table.rowHash` and the same keys as the key cell read through the field parser.
    @Test(
        arguments: texts + [
            "transactionId,note\nc09ca393-0084-5db0-a1be-912f4bec2b3d,a\n\"c09ca393-0084-5db0-a1be-912f4bec2b3e\",b\n"
                + "C09CA393-0084-5DB0-A1BE-912F4BEC2B3F,c\n{c09ca393-0084-5db0-a1be-912f4bec2b40},d\n,e\n  ,f\nnot-an-id,g\n"
                + "c09ca393-0084-5db0-a1be-912f4bec2b3d,again\n\n c09ca393-0084-5db0-a1be-912f4bec2b41 ,h\n",
            "note,transactionId\nx\ny,c09ca393-0084-5db0-a1be-912f4bec2b3d,extra\n",
        ])
    func oneVisitHashesAndKeysAsRowByRow(_ text: String) throws {
        let table = try CSVReader.parse(Array(text.utf8), source: "t.csv").table
        let spec = Tab.transactions.schema.fields[0]
        let seed = RowHash.seed(header: table.header)
        let keyColumn = table.header.firstIndex(of: "transactionId") ?? 0
        let keying = RowKeying(seed: seed, keyColumn: keyColumn, keySpec: spec)
        #expect(table.takeKeyedRows() == nil)
        let visited = try #require(KeyedRows.visit(table, keying: keying))
        #expect(visited.hashes == (0..<table.rowCount).map { table.rowHash($0, seed: seed) })
        // In parts side by side (a row or two each), joined in row order: the same.
        for cores in [2, 3, 7] {
            let inParts = RowParts.$rowsPerPart.withValue(1) { RowParts.$cores.withValue(cores) { KeyedRows.visit(table, keying: keying) } }
            #expect(inParts?.hashes == visited.hashes && inParts?.keys == visited.keys, "\(cores) parts")
        }
        let keys = (0..<table.rowCount).map { row -> RowKey? in
            guard case .success(let text) = FieldParser.canonical(table.cell(row: row, column: keyColumn), spec), !text.isEmpty
            else { return nil }
            return RowKey(text)
        }
        #expect(visited.keys == keys)
        // Worked out while the file is read (in one pass, and in parts side by side): the same again.
        for cores in [1, 2, 5] {
            let read = try RowParts.$bytesPerPart.withValue(1) {
                try RowParts.$cores.withValue(cores) {
                    try CSVReader.parse(Array(text.utf8), source: "t.csv", observer: { _ in KeyedRowHashes(keying: keying) }).table
                }
            }
            let keyed = try #require(read.takeKeyedRows(), "\(cores) parts")
            #expect(keyed.keying == keying && keyed.hashes == visited.hashes && keyed.keys == visited.keys, "\(cores) parts")
            // The change scope's visit takes them (handed over once) and gives the same.
            let again = try CSVReader.parse(Array(text.utf8), source: "t.csv", observer: { _ in KeyedRowHashes(keying: keying) }).table
            #expect(KeyedRows.visit(again, keying: keying).map { $0.hashes == visited.hashes && $0.keys == visited.keys } == true)
            #expect(again.takeKeyedRows() == nil)
        }
    }

    /// Rows hashed and keyed while read are handed over once, used only for the keying they were
    /// worked out with, and not once the table's rows are changed.
    @Test func rowsKeyedWhileReadAreUsedOnlyAsTheyWereRead() throws {
        let text = "transactionId,note\nc09ca393-0084-5db0-a1be-912f4bec2b3d,a\n"
        let schema = Tab.transactions.schema
        func read() throws -> Table {
            try CSVReader.parse(
                Array(text.utf8), source: "t.csv", observer: { KeyedRowHashes(keying: RowKeying(header: $0, schema: schema)) }
            ).table
        }
        let once = try read()
        #expect(once.takeKeyedRows()?.keying == RowKeying(header: once.header, schema: schema))
        #expect(once.takeKeyedRows() == nil)
        let other = RowKeying(seed: 7, keyColumn: 1, keySpec: schema.fields[0])
        let table = try read()
        #expect(KeyedRows.visit(table, keying: other)?.hashes == [table.rowHash(0, seed: 7)])
        var changed = try read()
        changed.rows[0][1] = .text("changed")
        #expect(changed.takeKeyedRows() == nil)
        #expect(KeyedRows(changed, schema: schema).hashes == [changed.rowHash(0, seed: RowHash.seed(header: changed.header))])
    }

    /// A file read in parts side by side, each cut after a line feed, is the file read in one pass:
    /// the same records, line endings, damaged and refused rows, and the same error where there is
    /// one, whatever the cut lands in (a quoted field holding a line feed, a CRLF, a blank line).
    @Test(
        arguments: texts + [
            "id,note\n" + (1...40).map { "\($0),\"line\nbreak \($0)\"\n" }.joined(),
            "id,note\r\n" + (1...40).map { "\($0),x\($0)\r\n\r\n" }.joined(),
            "id,a,b,c,d\n" + (1...30).map { "\($0),x,y,z,w\n" }.joined() + "99,\"open\n1,2,3,4,5\n6,7,8,9,0\n",
            "id,note\n" + (1...30).map { "\($0),x\n" }.joined() + "31,\"never closed\n32,y\n",
            "id,note\n" + (1...30).map { "\($0),caf\u{E9}\n" }.joined() + "31,\u{FF}\n",
            "id,note\n" + (1...30).map { "\($0),x" }.joined(separator: "\n"),
            "id,note\n" + (1...30).map { "\($0),x\($0 % 7 == 0 ? "\r y" : "")" }.joined(separator: "\n") + "\n",
            "id,note\r\n" + (1...30).map { "\($0),x\($0 % 9 == 0 ? "\r\r" : "")" }.joined(separator: "\r\n"),
            // In two parts the second starts with the row a stray CR cuts: judged by the file's line end.
            "id,note\n1," + String(repeating: "a", count: 100) + "\n2,x\r y\n3,z\n",
        ])
    func aFileReadInPartsIsTheFileReadInOnePass(_ text: String) throws {
        let bytes: [UInt8] = text.unicodeScalars.contains("\u{FF}") ? Array(text.utf8).map { $0 == 0xC3 ? 0xFF : $0 } : Array(text.utf8)
        let whole = Result { try CSVReader.parse(bytes, source: "t.csv") }
        for cores in [2, 3, 5, 16] {
            let parts = RowParts.$bytesPerPart.withValue(1) {
                RowParts.$cores.withValue(cores) { Result { try CSVReader.parse(bytes, source: "t.csv") } }
            }
            switch (whole, parts) {
            case (.success(let a), .success(let b)):
                #expect(a.recordRanges == b.recordRanges && a.table == b.table, "\(cores) parts")
                #expect(a.lineEnding == b.lineEnding && a.endsWithNewline == b.endsWithNewline && a.hasBOM == b.hasBOM)
                #expect(a.table.damagedRows == b.table.damagedRows && a.table.refusedRows == b.table.refusedRows)
            case (.failure(let a), .failure(let b)):
                #expect("\(a)" == "\(b)", "\(cores) parts")
            default:
                Issue.record("\(cores) parts: \(whole) vs \(parts)")
            }
        }
    }
}
