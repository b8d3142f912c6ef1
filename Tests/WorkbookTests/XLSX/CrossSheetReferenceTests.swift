import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// When a push deletes ledger rows, what points at those rows from elsewhere moves with them: a
/// Summary sheet's formulas, a chart's series, a pivot cache's source and the sheet's own table.
@Suite struct CrossSheetReferenceTests {
    /// Transactions (header + 9 rows, amounts in F, a table over A1:F10), a Summary sheet whose
    /// formulas name Transactions' cells, and a chart over the amounts.
    static func book() throws -> URL {
        var set = PartSet.sheets(["Transactions", "Summary"])
        var rows = #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="F1" t="inlineStr"><is><t>amount</t></is></c></row>"#
        for row in 2...10 {
            rows += #"<row r="\#(row)"><c r="A\#(row)" t="inlineStr"><is><t>k\#(row)</t></is></c><c r="F\#(row)"><v>\#(row)</v></c></row>"#
        }
        set.add(
            "xl/worksheets/sheet1.xml",
            #"<worksheet xmlns="\#(PartSet.main)" xmlns:r="\#(PartSet.rels)"><sheetData>\#(rows)</sheetData><tableParts count="1"><tablePart r:id="rId1"/></tableParts></worksheet>"#
        )
        set.add("xl/worksheets/_rels/sheet1.xml.rels", PartSet.relationships([("rId1", "table", "../tables/table1.xml")]))
        set.add(
            "xl/tables/table1.xml",
            #"<table xmlns="\#(PartSet.main)" id="1" name="Ledger" displayName="Ledger" ref="A1:F10"><autoFilter ref="A1:F10"/></table>"#)
        set.add("xl/worksheets/sheet2.xml", summary)
        set.add(
            "xl/charts/chart1.xml",
            #"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:val><c:numRef><c:f>Transactions!$F$2:$F$10</c:f></c:numRef></c:val></c:chartSpace>"#
        )
        return try set.write()
    }

    static let summary =
        #"<worksheet xmlns="\#(PartSet.main)"><sheetData>"#
        + #"<row r="1"><c r="B1"><f>SUM(Transactions!F2:F10)</f><v>54</v></c></row>"#
        + #"<row r="2"><c r="B2"><f>Transactions!F7</f><v>7</v></c></row>"#
        + #"<row r="3"><c r="B3"><f>Transactions!F3</f><v>3</v></c></row>"#
        + #"<row r="4"><c r="B4"><f>F3*2</f><v>0</v></c></row>"#
        + #"<row r="5"><c r="B5"><f>'Transactions'!$F$10&amp;" total"</f><v>10</v></c></row>"#
        + #"</sheetData><mergeCells count="1"><mergeCell ref="C3:D3"/></mergeCells></worksheet>"#

    static func patch(deleting deleted: [Int], appending appended: Int) -> WorksheetPatch {
        var changes = TableChanges()
        changes.deletedRows = deleted
        changes.appendedRows = Array(repeating: [Cell.text("new"), .empty, .empty, .empty, .empty, .number("1")], count: appended)
        return WorksheetPatch(sheet: "Transactions", changes: changes, dataRowCount: 9, ledgerColumns: Set(1...6))
    }

    static func text(_ url: URL, _ part: String) throws -> String {
        String(decoding: try XLSXPackage(url: url).data(part), as: UTF8.self)
    }

    @Test func summaryFormulasChartSeriesAndTheTableFollowDeletedRows() throws {
        let original = try Self.book()
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        // Data rows 1 and 4 are sheet rows 3 and 6; one record is appended.
        try XLSXWriter.patch(original, to: url, patches: [Self.patch(deleting: [1, 4], appending: 1)], adding: [])

        let summary = try Self.text(url, "xl/worksheets/sheet2.xml")
        #expect(summary.contains("<f>SUM(Transactions!F2:F8)</f>"), "the range loses its two deleted rows")
        #expect(summary.contains("<f>Transactions!F5</f>"), "row 7 moved up past two deleted rows")
        #expect(summary.contains("<f>Transactions!#REF!</f>"), "a reference to a deleted row is gone, as in Excel")
        #expect(summary.contains("<f>F3*2</f>"), "the Summary's own cells do not move")
        #expect(summary.contains(#"<f>'Transactions'!$F$8&amp;&quot; total&quot;</f>"#))
        #expect(summary.contains(#"<mergeCell ref="C3:D3"/>"#), "the Summary's own ranges do not move")
        #expect(
            try Self.text(url, "xl/charts/chart1.xml").contains("<c:f>Transactions!$F$2:$F$8</c:f>"),
            "the chart's series follows the rows")
        let table = try Self.text(url, "xl/tables/table1.xml")
        #expect(table.contains(#"ref="A1:F9""#), "the table lost two rows and took in the appended one")
        #expect(table.contains(#"<autoFilter ref="A1:F9"/>"#))
        let rows = try #require(XLSXReader.read(contentsOf: url, sheets: ["Transactions"]).first).table.rows
        #expect(rows.map { $0[0].rawText } == ["k2", "k4", "k5", "k7", "k8", "k9", "k10", "new"])
    }

    @Test func anAppendAloneMovesNoReferenceAndGrowsTheTable() throws {
        let original = try Self.book()
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        try XLSXWriter.patch(original, to: url, patches: [Self.patch(deleting: [], appending: 2)], adding: [])
        // The Summary's formulas stay as written; only their cached results go, to be recomputed.
        let summary = try Self.text(url, "xl/worksheets/sheet2.xml")
        // B4's `=F3*2` names no other sheet and keeps its cached result.
        let expected = ["54", "7", "3", "10"].reduce(Self.summary) { $0.replacingOccurrences(of: "<v>\($1)</v>", with: "") }
        #expect(summary == expected)
        #expect(summary.contains("<f>F3*2</f><v>0</v>"))
        #expect(try XLSXPackage(url: url).data("xl/charts/chart1.xml") == XLSXPackage(url: original).data("xl/charts/chart1.xml"))
        #expect(try Self.text(url, "xl/tables/table1.xml").contains(#"ref="A1:F12""#))
    }
}
