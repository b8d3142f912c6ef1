import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// A push drops the cached result of every formula that depends on a changed cell, however it
/// depends on it: through other formulas, in the same sheet or others, through whole columns,
/// shared formulas and defined names (LibreOffice trusts cached results and would
/// show the old ones). Formulas that depend on nothing changed keep theirs.
@Suite struct StaleFormulaClosureTests {
    /// Transactions: amounts in F (rows 2–6), `G = F*2`, a running balance in H, a shared
    /// formula `I = H+1`. Summary: a total of G, a chain on it, a defined name on the chain,
    /// a total through a defined name, a constant. Report: a formula on the Summary's chain.
    static func book() throws -> URL { try parts().write() }

    static func parts() -> PartSet {
        var set = PartSet.sheets(
            ["Transactions", "Summary", "Report"],
            definedNames: [("Doubled", "Summary!$B$2"), ("Amounts", "Transactions!$F$2:$F$6")])
        var rows = #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="F1" t="inlineStr"><is><t>amount</t></is></c></row>"#
        var balance = 0
        for row in 2...6 {
            balance += row * 2
            let shared =
                row == 2 ? #"<f t="shared" ref="I2:I6" si="0">H2+1</f>"# : #"<f t="shared" si="0"/>"#
            let running = row == 2 ? "G2" : "H\(row - 1)+G\(row)"
            rows +=
                #"<row r="\#(row)"><c r="A\#(row)" t="inlineStr"><is><t>k\#(row)</t></is></c><c r="F\#(row)"><v>\#(row)</v></c>"#
                + #"<c r="G\#(row)"><f>F\#(row)*2</f><v>\#(row * 2)</v></c><c r="H\#(row)"><f>\#(running)</f><v>\#(balance)</v></c>"#
                + #"<c r="I\#(row)">\#(shared)<v>\#(balance + 1)</v></c></row>"#
        }
        set.add("xl/worksheets/sheet1.xml", #"<worksheet xmlns="\#(PartSet.main)"><sheetData>\#(rows)</sheetData></worksheet>"#)
        set.add("xl/worksheets/sheet2.xml", summary)
        set.add("xl/worksheets/sheet3.xml", report)
        return set
    }

    static let summary =
        #"<worksheet xmlns="\#(PartSet.main)"><sheetData>"#
        + #"<row r="1"><c r="B1"><f>SUM(Transactions!G:G)</f><v>40</v></c></row>"#
        + #"<row r="2"><c r="B2"><f>B1*2</f><v>80</v></c></row>"#
        + #"<row r="3"><c r="B3"><f>Doubled+1</f><v>81</v></c></row>"#
        + #"<row r="4"><c r="B4"><f>SUM(Amounts)</f><v>20</v></c></row>"#
        + #"<row r="5"><c r="B5"><f>6*7</f><v>42</v></c></row>"#
        + #"</sheetData></worksheet>"#

    static let report =
        #"<worksheet xmlns="\#(PartSet.main)"><sheetData>"#
        + #"<row r="1"><c r="C1"><f>Summary!B2+1</f><v>81</v></c><c r="D1"><f>Summary!B5</f><v>42</v></c></row>"#
        + #"</sheetData></worksheet>"#

    /// Sets the amount of data row 3 (sheet row 4).
    static func amountEdit() -> WorksheetPatch {
        var changes = TableChanges()
        changes.cells = [CellChange(row: 2, column: 5, key: "k4", cell: .number("10"))]
        return WorksheetPatch(sheet: "Transactions", changes: changes, dataRowCount: 5, ledgerColumns: Set(1...6))
    }

    static func text(_ url: URL, _ part: String) throws -> String {
        String(decoding: try XLSXPackage(url: url).data(part), as: UTF8.self)
    }

    /// Whether the `<c>` of `cell` in `xml` still holds a cached `<v>`.
    static func cached(_ cell: String, in xml: String) throws -> Bool {
        let start = try #require(xml.range(of: #"<c r="\#(cell)""#), "no cell \(cell)")
        let end = try #require(xml[start.upperBound...].range(of: "</c>"))
        return xml[start.lowerBound..<end.upperBound].contains("<v>")
    }

    @Test func everyFormulaDownTheChainLosesItsCachedResultAndNoOtherDoes() throws {
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        try XLSXWriter.patch(try Self.book(), to: url, patches: [Self.amountEdit()], adding: [])

        let sheet = try Self.text(url, "xl/worksheets/sheet1.xml")
        #expect(sheet.contains(#"<c r="F4"><v>10</v></c>"#))
        for cell in ["G4", "H4", "H5", "H6", "I4", "I5", "I6"] {
            #expect(try !Self.cached(cell, in: sheet), "\(cell) depends on F4 and kept its cached result")
        }
        for cell in ["G2", "G3", "G5", "G6", "H2", "H3", "I2", "I3"] {
            #expect(try Self.cached(cell, in: sheet), "\(cell) does not depend on F4 and lost its cached result")
        }
        #expect(sheet.contains(#"<c r="I5"><f t="shared" si="0"/></c>"#), "the shared formula stays shared")

        let summary = try Self.text(url, "xl/worksheets/sheet2.xml")
        for cell in ["B1", "B2", "B3", "B4"] {
            #expect(try !Self.cached(cell, in: summary), "Summary!\(cell) depends on F4 and kept its cached result")
        }
        #expect(summary.contains(#"<c r="B2"><f>B1*2</f></c>"#), "the formula itself stays")
        #expect(summary.contains(#"<c r="B5"><f>6*7</f><v>42</v></c>"#))

        let report = try Self.text(url, "xl/worksheets/sheet3.xml")
        #expect(report == Self.report.replacingOccurrences(of: "<v>81</v>", with: ""), "only Report!C1 depends on F4")
    }

    @Test func aDeletedRowMakesTheFormulasBelowThatReadItStale() throws {
        var changes = TableChanges()
        changes.deletedRows = [4]
        let patch = WorksheetPatch(sheet: "Transactions", changes: changes, dataRowCount: 5, ledgerColumns: Set(1...6))
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        try XLSXWriter.patch(try Self.book(), to: url, patches: [patch], adding: [])

        // Sheet row 6 is gone; nothing below it, so the balance rows above keep their results.
        let sheet = try Self.text(url, "xl/worksheets/sheet1.xml")
        #expect(!sheet.contains(#"<row r="6""#))
        for cell in ["G2", "H2", "H5", "I5"] { #expect(try Self.cached(cell, in: sheet), "\(cell) lost its cached result") }
        let summary = try Self.text(url, "xl/worksheets/sheet2.xml")
        for cell in ["B1", "B2", "B3", "B4"] { #expect(try !Self.cached(cell, in: summary), "Summary!\(cell) kept its result") }
        #expect(summary.contains("<f>SUM(Transactions!G:G)</f>"))
        #expect(try !Self.cached("C1", in: Self.text(url, "xl/worksheets/sheet3.xml")))
    }

    @Test func aFormulaOverATableByItsNameLosesItsCachedResult() throws {
        var set = Self.parts()
        let sheet = try #require(set.parts.first { $0.0 == "xl/worksheets/sheet1.xml" }.map { String(decoding: $0.1, as: UTF8.self) })
        set.replace(
            "xl/worksheets/sheet1.xml",
            sheet.replacingOccurrences(
                of: "</worksheet>", with: #"<tableParts count="1"><tablePart r:id="rId1"/></tableParts></worksheet>"#
            )
            .replacingOccurrences(of: "<worksheet ", with: #"<worksheet xmlns:r="\#(PartSet.rels)" "#))
        set.add("xl/worksheets/_rels/sheet1.xml.rels", PartSet.relationships([("rId1", "table", "../tables/table1.xml")]))
        set.add(
            "xl/tables/table1.xml",
            #"<table xmlns="\#(PartSet.main)" id="1" name="Ledger" displayName="Ledger" ref="A1:F6"><autoFilter ref="A1:F6"/></table>"#)
        set.replace(
            "xl/worksheets/sheet3.xml",
            #"<worksheet xmlns="\#(PartSet.main)"><sheetData><row r="1"><c r="C1"><f>SUM(Ledger[amount])</f><v>20</v></c>"#
                + #"<c r="D1"><f>C1/2</f><v>10</v></c><c r="E1"><f>Summary!B5</f><v>42</v></c></row></sheetData></worksheet>"#)
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        try XLSXWriter.patch(try set.write(), to: url, patches: [Self.amountEdit()], adding: [])
        let report = try Self.text(url, "xl/worksheets/sheet3.xml")
        #expect(try !Self.cached("C1", in: report), "the table total kept its cached result")
        #expect(try !Self.cached("D1", in: report), "a formula on the table total kept its cached result")
        #expect(try Self.cached("E1", in: report))
    }

    @Test func formulaAreasReadReferencesNamesAndTablesButNotStringsOrFunctions() {
        let names: (String) -> [FormulaArea] = { $0 == "Amounts" ? [.cell(row: 9, column: 9)] : [] }
        let areas = FormulaAreas.areas(
            in: #"SUM('My ''Sheet'!$B$2:C3, F:F, 2:3)+Amounts+"A1"&Other!Z9+LOG10(4)+Amounts[x]"#, names: names)
        #expect(areas.count == 6)
        #expect(areas[0].sheet == "My 'Sheet" && areas[0].firstRow == 2 && areas[0].lastRow == 3 && areas[0].lastColumn == 3)
        #expect(areas[0].absolute == (true, false, true, false))
        #expect(areas[1].firstRow == 1 && areas[1].lastRow == CellReference.maximumRow && areas[1].firstColumn == 6)
        #expect(areas[2].firstRow == 2 && areas[2].lastRow == 3 && areas[2].lastColumn == CellReference.maximumColumn)
        #expect(areas[3] == .cell(row: 9, column: 9), "the defined name's area")
        #expect(areas[4].sheet == "Other" && areas[4].firstRow == 9 && areas[4].firstColumn == 26)
        #expect(areas[5] == .cell(row: 9, column: 9), "a structured reference reads the table's area")
        #expect(FormulaAreas.areas(in: #"[1]Book!A1+'[2]Other'!B2+ROUND(2.5,1)"#).allSatisfy { $0.sheet != "[2]Other" })
        #expect(areas[0].filled(rows: 2, columns: 1)?.lastRow == 5, "a relative edge moves with a fill")
        #expect(areas[0].filled(rows: 2, columns: 1)?.firstRow == 2, "a $ edge stays")
    }

    @Test func aLongRunningBalanceIsFollowedToItsLastRowAndIntoAWholeColumnTotal() {
        // 100,000 rows of `H(n) = H(n-1) + G(n)` plus a whole-column total of H: a change at the
        // top reaches all of them, each found once through the tree, not by rescanning.
        var dependents = FormulaDependents()
        let rows = 100_000
        for row in 2...rows {
            let reading = row == 2 ? [FormulaArea.cell(row: 2, column: 7)] : [.cell(row: row - 1, column: 8), .cell(row: row, column: 7)]
            dependents.add(sheet: 0, row: row, column: 8, reading: reading.map { (0, $0) })
        }
        let column = FormulaArea(
            sheet: nil, firstRow: 1, lastRow: CellReference.maximumRow, firstColumn: 8, lastColumn: 8,
            absolute: (true, true, false, false))
        dependents.add(sheet: 1, row: 1, column: 2, reading: [(0, column)])
        let stale = dependents.closure(of: [.cell(sheet: 0, row: 2, column: 7)])
        #expect(stale[0]?.count == rows - 1)
        #expect(stale[1] == [StaleFormulas.key(row: 1, column: 2)])
    }
}

extension FormulaArea {
    static func cell(row: Int, column: Int) -> FormulaArea {
        FormulaArea(
            sheet: nil, firstRow: row, lastRow: row, firstColumn: column, lastColumn: column, absolute: (false, false, false, false))
    }
}
