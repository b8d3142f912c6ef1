import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// A measurement, not a check: what finding the stale formulas costs a push on a large sheet
/// whose every row has a Total (`=F*2`) and a running balance (`=P(above)+O`), with the first
/// amount changed so the closure reaches every balance. Runs only when asked:
///
///     SHEETSYNC_CLOSURE_PROBE_ROWS=100000 swift test --skip-build --filter FormulaClosureProbe
///
/// It prints the time of the whole patch, of the closure alone, and of the same patch over the
/// same sheet without formulas.
@Suite struct FormulaClosureProbe {
    static let rows = ProcessInfo.processInfo.environment["SHEETSYNC_CLOSURE_PROBE_ROWS"].flatMap { Int($0) }

    static func book(rows: Int, formulas: Bool) throws -> URL {
        let url = try XLSXTestFiles.scratch("chain.xlsx")
        let writer = try PackageWriter(url: url)
        for (name, data) in PartSet.workbook(sheetData: "").parts where name != "xl/worksheets/sheet1.xml" {
            try writer.add(name, data: data)
        }
        try writer.add("xl/worksheets/sheet1.xml") { sink in
            sink.append(#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#)
            sink.append(bytes: #"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>"#.utf8)
            for row in 2...rows {
                sink.append(bytes: #"<row r="\#(row)"><c r="A\#(row)" t="inlineStr"><is><t>k\#(row)</t></is></c>"#.utf8)
                sink.append(bytes: #"<c r="F\#(row)"><v>\#(row).25</v></c>"#.utf8)
                if formulas {
                    let balance = row == 2 ? "O2" : "P\(row - 1)+O\(row)"
                    sink.append(bytes: #"<c r="O\#(row)"><f>F\#(row)*2</f><v>1</v></c><c r="P\#(row)"><f>\#(balance)</f><v>1</v></c>"#.utf8)
                } else {
                    sink.append(bytes: #"<c r="O\#(row)"><v>1</v></c><c r="P\#(row)"><v>1</v></c>"#.utf8)
                }
                sink.append(bytes: "</row>".utf8)
                try sink.flushIfFull()
            }
            sink.append("</sheetData></worksheet>")
        }
        try writer.finish()
        return url
    }

    static func patch(rows: Int) -> WorksheetPatch {
        var changes = TableChanges()
        changes.cells = [CellChange(row: 0, column: 5, key: "k2", cell: .number("9"))]
        return WorksheetPatch(sheet: "Sheet1", changes: changes, dataRowCount: rows - 1, ledgerColumns: Set(1...6))
    }

    @Test(.enabled(if: rows != nil, "a measurement: set SHEETSYNC_CLOSURE_PROBE_ROWS to run it"))
    func closureCostOnALargeRunningBalance() throws {
        let rows = try #require(Self.rows)
        let clock = ContinuousClock()
        for formulas in [false, true] {
            let original = try Self.book(rows: rows, formulas: formulas)
            let url = try XLSXTestFiles.scratch("pushed.xlsx")
            let patch = try clock.measure { try XLSXWriter.patch(original, to: url, patches: [Self.patch(rows: rows)], adding: []) }
            let package = try XLSXPackage(url: original)
            let layout = try WorkbookLayout.load(from: package)
            var stale = StaleFormulas()
            let closure = try clock.measure {
                stale = try StaleFormulas.find(package: package, layout: layout, patches: [Self.patch(rows: rows)])
            }
            var bytes = 0
            let inflate = try clock.measure { try package.stream("xl/worksheets/sheet1.xml") { bytes += $0.count } }
            print(
                "closure probe: \(rows) rows (\(bytes >> 20) MiB), formulas \(formulas): patch \(patch), closure \(closure), "
                    + "inflating the sheet alone \(inflate), stale \(stale.count)")
            if formulas { #expect(stale.count == rows, "O2 and every balance from P2 down") }
        }
    }
}
