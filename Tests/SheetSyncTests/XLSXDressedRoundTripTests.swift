import Foundation
import TestSupport
import Testing

/// Outside tools' view of a dressed-up workbook pushed to three times: openpyxl still sees every
/// formula, style, comment, link and range where the rows put them, and LibreOffice opens each
/// pushed version with its formulas recalculated.
/// The tools are optional on a developer's machine: each test says why it is skipped.
@Suite struct XLSXDressedRoundTripTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sheetName = "Transactions"

    // MARK: the tools

    static func executable(_ name: String) -> URL? { ExternalTools.executable(name) }

    static func run(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        try ExternalTools.run(tool, arguments)
    }

    static var hasOpenpyxl: Bool { ExternalTools.hasOpenpyxl }

    static var hasLibreOffice: Bool { ExternalTools.python != nil && ExternalTools.hasLibreOffice }

    static func script(_ name: String, _ book: URL) throws -> (status: Int32, output: Data) {
        let python = try #require(executable("python3"))
        return try run(python, [repository.appendingPathComponent("scripts/xlsx/\(name)").path, book.path])
    }

    // MARK: openpyxl's view

    struct Dressing: Decodable {
        var sheets: [String: Sheet]
    }

    struct Sheet: Decodable, Equatable {
        var formulas: [String: String]
        var styles: [String: Style]
        var comments: [String: String]
        var hyperlinks: [String: String]
        var merged: [String]
        var validations: [String]
        var conditional: [String]
        var autofilter: String?
        var freeze: String?
    }

    struct Style: Decodable, Equatable {
        var numberFormat: String
        var bold: Bool
        var fill: String?
        var fontColor: String?
    }

    static func dressing(_ book: URL) throws -> Dressing {
        let result = try script("dressing.py", book)
        #expect(result.status == 0)
        return try JSONDecoder().decode(Dressing.self, from: result.output)
    }

    /// `A12` → (`A`, 12).
    static func split(_ cell: String) -> (String, Int) {
        let letters = cell.prefix { $0.isLetter }
        return (String(letters), Int(cell.dropFirst(letters.count)) ?? 0)
    }

    /// The cell-keyed parts of a sheet with each row moved by `map` (nil: the row is gone) and
    /// same-row references in formulas (`=F3*2`) moved along.
    static func moved(_ sheet: Sheet, _ map: (Int) -> Int?) -> Sheet {
        func keys<V>(_ items: [String: V], _ value: (V, Int, Int) -> V = { v, _, _ in v }) -> [String: V] {
            var out: [String: V] = [:]
            for (cell, item) in items {
                let (column, row) = split(cell)
                guard let new = map(row) else { continue }
                out[column + String(new)] = value(item, row, new)
            }
            return out
        }
        var result = sheet
        result.formulas = keys(sheet.formulas) { text, old, new in
            text.replacing(/([A-Z]+)(\d+)/) { match in Int(match.output.2) == old ? match.output.1 + String(new) : String(match.output.0) }
        }
        result.styles = keys(sheet.styles)
        result.comments = keys(sheet.comments)
        result.hyperlinks = keys(sheet.hyperlinks)
        return result
    }

    /// The sheet without the cells of `row`.
    static func without(row: Int, _ sheet: Sheet) -> Sheet { moved(sheet) { $0 == row ? nil : $0 } }

    @Test(.enabled(if: hasOpenpyxl, "needs python3 with openpyxl (pip install openpyxl); skipped"))
    func threePushesKeepFormulasStylesCommentsLinksAndRangesAsOpenpyxlSeesThem() async throws {
        let book = try XLSXFixture("dressed-openpyxl.xlsx")
        #expect(try await book.run(["sync"]).status == 0)
        let original = try Self.dressing(book.book)
        let before = try #require(original.sheets[Self.sheetName])

        // Push 1: an appended row takes the style of the row above and extends the Total formula.
        #expect(try await book.run(["add", "expense", "--amount", "12.34", "--category", "Groceries", "--date", "2026-02-01"]).status == 0)
        #expect(try await book.run(["sync"]).status == 0)
        let first = try Self.dressing(book.book)
        let after1 = try #require(first.sheets[Self.sheetName])
        var expected1 = before
        expected1.autofilter = "A1:O12"
        expected1.validations = ["B2:B12"]
        expected1.conditional = ["F2:F12"]
        #expect(Self.without(row: 12, after1) == expected1)
        #expect(after1.formulas["O12"] == "=F12*2")
        for column in ["A", "C", "F", "O"] {
            #expect(after1.styles["\(column)12"] == before.styles["\(column)11"], "\(column)12 is not styled like the row above")
        }
        for (name, sheet) in original.sheets where name != Self.sheetName { #expect(first.sheets[name] == sheet, "sheet \(name) changed") }

        // Push 2: an amount edited in the store changes a value, nothing openpyxl sees as dressing.
        try book.execute("UPDATE transactions SET amount = '20.00' WHERE transactionId = '1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9'")
        #expect(try await book.run(["sync"]).status == 0)
        let second = try Self.dressing(book.book)
        #expect(second.sheets == first.sheets)

        // Push 3: deleting sheet row 2 moves every row below up by one, dressing and all; the
        // comment and the merged cells on row 2 go with it.
        try book.execute("DELETE FROM transactions WHERE transactionId = 'c09ca393-0084-5db0-a1be-912f4bec2b3d'")
        #expect(try await book.run(["sync"]).status == 0)
        let third = try Self.dressing(book.book)
        let after3 = try #require(third.sheets[Self.sheetName])
        var expected3 = Self.moved(after1) { $0 == 2 ? nil : $0 > 2 ? $0 - 1 : $0 }
        expected3.merged = []
        expected3.autofilter = "A1:O11"
        expected3.validations = ["B2:B11"]
        expected3.conditional = ["F2:F11"]
        #expect(after3 == expected3)
        #expect(after3.comments.isEmpty && after3.hyperlinks == ["I3": "https://example.com/receipt"])
        for (name, sheet) in original.sheets where name != Self.sheetName { #expect(third.sheets[name] == sheet, "sheet \(name) changed") }
    }

    // MARK: LibreOffice

    struct Recalc: Decodable {
        var formulas: Int
        var evaluated: Int
        var problems: [String]
    }

    static func recalculated(_ book: URL) throws -> Recalc {
        let result = try script("recalc_check.py", book)
        let recalc = try JSONDecoder().decode(Recalc.self, from: result.output)
        #expect(result.status == 0, "\(recalc.problems)")
        return recalc
    }

    /// The workbook opened and saved by LibreOffice, so every formula carries a cached value.
    static func resaved(_ book: URL) throws {
        let soffice = try #require(executable("soffice"))
        let work = try TestWorkbook.scratch("resave")
        let result = try run(
            soffice,
            [
                "-env:UserInstallation=file://\(work.path)/profile", "--headless", "--norestore", "--convert-to", "xlsx", "--outdir",
                work.appendingPathComponent("out").path, book.path,
            ])
        #expect(result.status == 0)
        let saved = work.appendingPathComponent("out").appendingPathComponent(book.lastPathComponent)
        try FileManager.default.removeItem(at: book)
        try FileManager.default.copyItem(at: saved, to: book)
    }

    @Test(.enabled(if: hasLibreOffice, "needs LibreOffice (apt-get install libreoffice-calc-nogui) and python3; skipped"))
    func eachPushedVersionOpensInLibreOfficeWithItsFormulasRecalculated() async throws {
        let book = try XLSXFixture("dressed-openpyxl.xlsx")
        try Self.resaved(book.book)
        #expect(try await book.run(["sync"]).status == 0)
        let cachedO3 = try #require(XLSXFixture.cellElement("O3", in: try book.part("xl/worksheets/sheet1.xml")))
        #expect(cachedO3.contains("<v>37.5</v>"), "LibreOffice's copy caches the Total: \(cachedO3)")
        #expect(try Self.recalculated(book.book).problems.isEmpty)

        // The amount behind O3 changes: O3 (and the Summary's totals) lose their cached results,
        // which LibreOffice, set by default never to recalculate Excel files, would otherwise show.
        try book.execute("UPDATE transactions SET amount = '20.00' WHERE transactionId = '1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9'")
        #expect(try await book.run(["sync"]).status == 0)
        let pushedO3 = try #require(XLSXFixture.cellElement("O3", in: try book.part("xl/worksheets/sheet1.xml")))
        #expect(pushedO3.contains(">F3*2</f>") && !pushedO3.contains("<v>"), "\(pushedO3)")
        let second = try Self.recalculated(book.book)
        #expect(second.problems.isEmpty)
        #expect(second.evaluated >= 12)

        // A deleted row and an appended one: formulas move, the new row's Total has no cached value.
        try book.execute("DELETE FROM transactions WHERE transactionId = 'c09ca393-0084-5db0-a1be-912f4bec2b3d'")
        #expect(try await book.run(["add", "expense", "--amount", "12.34", "--category", "Groceries", "--date", "2026-02-01"]).status == 0)
        #expect(try await book.run(["sync"]).status == 0)
        let third = try Self.recalculated(book.book)
        #expect(third.problems.isEmpty)
        #expect(third.evaluated >= 12)
    }
}
