import SheetSyncCore
import Testing

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
}
