import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// One push deletes rows in two ledger sheets: each sheet's formulas, validation lists, the
/// defined names and the charts that point into the other follow the other's rows, as Excel
/// moves them when rows are deleted.
@Suite struct CrossLedgerReferenceTests {
    /// Transactions (rows 2–6; G reads Receipts' amounts, H a shared `Receipts!B2*2`, a list
    /// validation over Receipts' ids) and Receipts (rows 2–6; C reads Transactions' amounts).
    static func book() throws -> URL {
        var set = PartSet.sheets(
            ["Transactions", "Receipts"], definedNames: [("Both", "Transactions!$F$2:$F$6,Receipts!$B$2:$B$6")])
        let reads = [2: "Receipts!B5", 3: "Receipts!B3", 4: "Receipts!B2", 5: "Receipts!B6", 6: "SUM(Receipts!B2:B6)"]
        var transactions = #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>"#
        var receipts = transactions
        for row in 2...6 {
            let shared = row == 2 ? #"<f t="shared" ref="H2:H6" si="0">Receipts!B2*2</f>"# : #"<f t="shared" si="0"/>"#
            transactions +=
                #"<row r="\#(row)"><c r="A\#(row)" t="inlineStr"><is><t>t\#(row)</t></is></c><c r="F\#(row)"><v>\#(row)</v></c>"#
                + #"<c r="G\#(row)"><f>\#(reads[row] ?? "")</f><v>1</v></c><c r="H\#(row)">\#(shared)<v>1</v></c></row>"#
            receipts +=
                #"<row r="\#(row)"><c r="A\#(row)" t="inlineStr"><is><t>r\#(row)</t></is></c><c r="B\#(row)"><v>\#(row * 10)</v></c>"#
                + #"<c r="C\#(row)"><f>Transactions!F\#(row)</f><v>\#(row)</v></c></row>"#
        }
        let validation =
            #"<dataValidations count="1"><dataValidation type="list" sqref="C2:C6"><formula1>Receipts!$A$2:$A$6</formula1>"#
            + "</dataValidation></dataValidations>"
            + #"<conditionalFormatting sqref="F2:F6"><cfRule type="expression" priority="1"><formula>F2&gt;Receipts!$B$6</formula>"#
            + "</cfRule></conditionalFormatting>"
        set.add(
            "xl/worksheets/sheet1.xml",
            #"<worksheet xmlns="\#(PartSet.main)"><sheetData>\#(transactions)</sheetData>\#(validation)</worksheet>"#)
        set.add("xl/worksheets/sheet2.xml", #"<worksheet xmlns="\#(PartSet.main)"><sheetData>\#(receipts)</sheetData></worksheet>"#)
        set.add(
            "xl/charts/chart1.xml",
            #"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:val><c:numRef><c:f>Receipts!$B$2:$B$6</c:f></c:numRef></c:val></c:chartSpace>"#
        )
        return try set.write()
    }

    /// Deletes data row `index` (sheet row `index + 2`) of a five-row sheet.
    static func deleting(_ index: Int, in sheet: String) -> WorksheetPatch {
        var changes = TableChanges()
        changes.deletedRows = [index]
        return WorksheetPatch(sheet: sheet, changes: changes, dataRowCount: 5, ledgerColumns: Set(1...2))
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

    /// The formula text of each cell of `xml` that has one, by cell name.
    static func formulas(_ xml: String) -> [String: String] {
        var found: [String: String] = [:]
        for match in xml.matches(of: /<c r="([A-Z]+\d+)"[^>]*>(<f[^>]*>([^<]*)<\/f>|<f[^>]*\/>)/) {
            found[String(match.output.1)] = match.output.3.map(String.init) ?? "(shared)"
        }
        return found
    }

    @Test func formulasInEachLedgerSheetFollowTheRowsDeletedInTheOther() throws {
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        // Transactions loses sheet row 3, Receipts sheet row 4, in one push.
        try XLSXWriter.patch(
            try Self.book(), to: url, patches: [Self.deleting(1, in: "Transactions"), Self.deleting(2, in: "Receipts")], adding: [])

        let transactions = try Self.text(url, "xl/worksheets/sheet1.xml")
        let formulas = Self.formulas(transactions)
        #expect(formulas["G2"] == "Receipts!B4", "Receipts row 5 moved up to 4")
        #expect(formulas["G3"] == "Receipts!B2", "old row 4 reads a Receipts row that stays")
        #expect(formulas["G4"] == "Receipts!B5")
        #expect(formulas["G5"] == "SUM(Receipts!B2:B5)", "the range lost Receipts' deleted row")
        // The shared formula read Receipts row by row: each cell now holds its own formula.
        #expect(formulas["H2"] == "Receipts!B2*2")
        #expect(formulas["H3"] == "Receipts!#REF!*2", "old H4 read the deleted Receipts row 4")
        #expect(formulas["H4"] == "Receipts!B4*2")
        #expect(formulas["H5"] == "Receipts!B5*2")
        #expect(!transactions.contains("t=\"shared\""))
        #expect(transactions.contains(#"<dataValidation type="list" sqref="C2:C5"><formula1>Receipts!$A$2:$A$5</formula1>"#))
        #expect(
            transactions.contains(
                #"<conditionalFormatting sqref="F2:F5"><cfRule type="expression" priority="1"><formula>F2&gt;Receipts!$B$5</formula>"#),
            "a conditional format's formula follows both sheets' rows")
        #expect(try !Self.cached("G5", in: transactions), "the total over the deleted row is stale")
        #expect(try Self.cached("G2", in: transactions), "a moved reference reads the same value")

        let receipts = Self.formulas(try Self.text(url, "xl/worksheets/sheet2.xml"))
        #expect(receipts == ["C2": "Transactions!F2", "C3": "Transactions!#REF!", "C4": "Transactions!F4", "C5": "Transactions!F5"])

        #expect(try Self.text(url, "xl/workbook.xml").contains("Transactions!$F$2:$F$5,Receipts!$B$2:$B$5"))
        #expect(try Self.text(url, "xl/charts/chart1.xml").contains("<c:f>Receipts!$B$2:$B$5</c:f>"))
    }

    @Test func aPushThatMovesOnlyTheOtherSheetStillMovesTheReferencesIntoIt() throws {
        // Transactions gets an amount edit (no row moves), Receipts loses sheet row 4.
        var edit = TableChanges()
        edit.cells = [CellChange(row: 0, column: 5, key: "t2", cell: .number("9"))]
        let amount = WorksheetPatch(sheet: "Transactions", changes: edit, dataRowCount: 5, ledgerColumns: Set(1...6))
        let url = try XLSXTestFiles.scratch("pushed.xlsx")
        try XLSXWriter.patch(try Self.book(), to: url, patches: [amount, Self.deleting(2, in: "Receipts")], adding: [])

        let formulas = Self.formulas(try Self.text(url, "xl/worksheets/sheet1.xml"))
        #expect(formulas["G2"] == "Receipts!B4")
        #expect(formulas["G3"] == "Receipts!B3")
        #expect(formulas["G6"] == "SUM(Receipts!B2:B5)")
        #expect(formulas["H4"] == "Receipts!#REF!*2")
        #expect(formulas["H6"] == "Receipts!B5*2")
        let receipts = try Self.text(url, "xl/worksheets/sheet2.xml")
        #expect(try !Self.cached("C2", in: receipts), "Receipts!C2 reads the edited amount")
        #expect(try Self.cached("C3", in: receipts))
    }
}
