import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// The worksheet patch on hand-made parts: what Excel writes (shared formulas, prefixes) and what
/// the fixtures do not cover.
@Suite struct WorksheetPatcherTests {
    static func sheet(_ rows: String, tail: String = "") -> [UInt8] {
        Array(
            (#"<?xml version="1.0"?><worksheet xmlns="\#(PartSet.main)"><dimension ref="A1:G4"/><sheetData>"#
                + rows + "</sheetData>" + tail + "</worksheet>").utf8)
    }

    static func patch(_ changes: TableChanges, rows: Int) -> WorksheetPatch {
        WorksheetPatch(sheet: "Transactions", changes: changes, dataRowCount: rows, ledgerColumns: Set(1...6))
    }

    static func run(_ patch: WorksheetPatch, _ bytes: [UInt8]) throws -> (String, WorksheetPatchReport) {
        var patcher = WorksheetPatcher(
            patch: patch, cells: PatchedCell(prefix: "", uses1904: false, dateStyle: 9, isDateStyle: { $0 == 2 }))
        let url = try XLSXTestFiles.scratch("patched.xml")
        let sink = try ByteSink(path: url.path)
        try patcher.run(bytes, to: sink)
        try sink.close()
        return (String(decoding: try Data(contentsOf: url), as: UTF8.self), patcher.report)
    }

    @Test func aSharedFormulaWhoseFirstRowIsDeletedPassesToTheNextRow() throws {
        let rows =
            #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>"#
            + #"<row r="2"><c r="F2"><v>1</v></c><c r="G2"><f t="shared" ref="G2:G4" si="0">F2*2</f><v>2</v></c></row>"#
            + #"<row r="3"><c r="F3"><v>2</v></c><c r="G3"><f t="shared" si="0"/><v>4</v></c></row>"#
            + #"<row r="4"><c r="F4"><v>3</v></c><c r="G4"><f t="shared" si="0"/><v>6</v></c></row>"#
        var changes = TableChanges()
        changes.deletedRows = [0]
        let (xml, _) = try Self.run(
            Self.patch(changes, rows: 3), Self.sheet(rows, tail: #"<mergeCells count="1"><mergeCell ref="A2:B2"/></mergeCells>"#))
        #expect(xml.contains(#"<row r="2"><c r="F2"><v>2</v></c><c r="G2"><f t="shared" si="0" ref="G2:G3">F2*2</f><v>4</v></c></row>"#))
        #expect(xml.contains(#"<row r="3"><c r="F3"><v>3</v></c><c r="G3"><f t="shared" si="0"/><v>6</v></c></row>"#))
        #expect(!xml.contains("<row r=\"4\""))
        #expect(!xml.contains("<mergeCell "))
        #expect(xml.contains(#"<dimension ref="A1:G3"/>"#))
    }

    @Test func aFormulaInALedgerCellGivesWayToAValueThatMustChangeAndTheReportSaysSo() throws {
        let rows =
            #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>"#
            + #"<row r="2"><c r="E2" s="4"><f>1+2</f><v>3</v></c><c r="F2" s="2"><v>45000</v></c></row>"#
        var changes = TableChanges()
        changes.cells = [
            CellChange(row: 0, column: 4, key: "k", cell: .number("5")),
            CellChange(row: 0, column: 5, key: "k", cell: .dateSerial("45001")),
            CellChange(row: 0, column: 6, key: "k", cell: .text("a < b & \"c\"")),
        ]
        let (xml, report) = try Self.run(Self.patch(changes, rows: 1), Self.sheet(rows))
        #expect(xml.contains(#"<c r="E2" s="4"><v>5</v></c>"#))
        #expect(xml.contains(#"<c r="F2" s="2"><v>45001</v></c>"#), "a date cell keeps its own date style")
        #expect(xml.contains(#"<c r="G2" t="inlineStr"><is><t>a &lt; b &amp; &quot;c&quot;</t></is></c>"#))
        #expect(report.replacedFormulas == ["Transactions cell E2: formula '=1+2' replaced by the value '5'"])
    }

    @Test func prefixedWorksheetsArePatchedWithTheirPrefix() throws {
        let xml =
            #"<x:worksheet xmlns:x="\#(PartSet.main)"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>id</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>"#
        var changes = TableChanges()
        changes.appendedRows = [[Cell.text("new"), Cell.number("1")]]
        let (out, _) = try Self.run(Self.patch(changes, rows: 0), Array(xml.utf8))
        #expect(
            out.contains(
                #"<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>new</x:t></x:is></x:c><x:c r="B2"><x:v>1</x:v></x:c></x:row></x:sheetData>"#
            ))
    }

    @Test func formulasReadingAChangedRowLoseTheirCachedResultExceptInFrozenRows() throws {
        let rows =
            #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>"#
            + #"<row r="2"><c r="F2"><v>1</v></c><c r="G2"><f>F2</f><v>1</v></c></row>"#
            + #"<row r="3"><c r="F3"><v>2</v></c><c r="G3"><f>G2+F3</f><v>3</v></c><c r="H3"><f>F3*2</f><v>4</v></c></row>"#
            + #"<row r="4"><c r="F4"><v>3</v></c><c r="G4" t="n"><f>G3+F4</f><v>6</v></c><c r="H4"><f>F4*2</f><v>6</v></c></row>"#
            + #"<row r="5"><c r="F5"><v>4</v></c><c r="G5"><f>G4+F5</f><v>10</v></c><c r="H5"><f>SUM(F:F)</f><v>10</v></c></row>"#
            + #"<row r="6"><c r="F6"><v>5</v></c><c r="G6"><f>SUM(F$2:F3)</f><v>3</v></c></row>"#
        var changes = TableChanges()
        changes.cells = [CellChange(row: 1, column: 5, key: "k", cell: .number("20"))]
        var patch = Self.patch(changes, rows: 5)
        patch.frozenRows = [6]
        let (xml, _) = try Self.run(patch, Self.sheet(rows))
        #expect(xml.contains(#"<c r="F3"><v>20</v></c><c r="G3"><f>G2+F3</f></c><c r="H3"><f>F3*2</f></c>"#), "the changed row")
        #expect(xml.contains(#"<c r="G4"><f>G3+F4</f></c><c r="H4"><f>F4*2</f><v>6</v></c>"#), "G4 reads row 3; H4 does not")
        #expect(xml.contains(#"<c r="G5"><f>G4+F5</f><v>10</v></c><c r="H5"><f>SUM(F:F)</f></c>"#), "a whole column reads row 3")
        #expect(xml.contains(#"<row r="6"><c r="F6"><v>5</v></c><c r="G6"><f>SUM(F$2:F3)</f><v>3</v></c></row>"#), "a frozen row")
        #expect(xml.contains(#"<row r="2"><c r="F2"><v>1</v></c><c r="G2"><f>F2</f><v>1</v></c></row>"#))
    }
}
