import Foundation
import Testing

/// A push to a dressed-up workbook (number formats, bold header, a filled row, a Total column of
/// formulas, a Summary sheet, a comment, a hyperlink, merged cells, validation, conditional
/// formats, an autofilter) changes the cells that changed and nothing else.
@Suite struct XLSXPatchPushTests {
    static let sheet = "xl/worksheets/sheet1.xml"
    static let summary = "xl/worksheets/sheet6.xml"

    /// The `<row>` elements of a worksheet by row number, as written.
    static func rows(_ xml: String) -> [Int: String] {
        var rows: [Int: String] = [:]
        var rest = Substring(xml)
        while let start = rest.range(of: "<row r=\"") {
            let number = Int(rest[start.upperBound...].prefix { $0.isNumber }) ?? 0
            guard let end = rest[start.lowerBound...].range(of: "</row>") else { break }
            rows[number] = String(rest[start.lowerBound..<end.upperBound])
            rest = rest[end.upperBound...]
        }
        return rows
    }

    /// The names of the parts whose bytes differ between two versions of a workbook.
    static func changedParts(_ before: [String: Data], _ after: [String: Data]) -> Set<String> {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
    }

    @Test func threePushesChangeOnlyTheChangedCellsAndKeepFormulasStylesCommentsLinksAndRanges() async throws {
        let book = try XLSXFixture("dressed-openpyxl.xlsx")
        let original = try book.parts()
        #expect(try await book.run(["sync"]).status == 0)
        #expect(try book.parts() == original, "a first sync with nothing to push rewrote the workbook")

        // Push 1: a new transaction is appended below, styled like the row above, Total extended.
        let added = try await book.run(["add", "expense", "--amount", "12.34", "--category", "Groceries", "--date", "2026-02-01"])
        #expect(added.status == 0)
        #expect(try await book.run(["sync"]).status == 0)
        let first = try book.parts()
        // The Summary's formulas name Transactions: their cached results go, so they recompute.
        #expect(Self.changedParts(original, first) == [Self.sheet, "xl/workbook.xml", Self.summary])
        let summary1 = try book.part(Self.summary)
        #expect(summary1.contains("<f>SUM(Transactions!F:F)</f></c>") && summary1.contains("<f>SUM(Transactions!O:O)</f></c>"))
        #expect(
            summary1
                == String(decoding: original[Self.summary] ?? Data(), as: UTF8.self)
                .replacingOccurrences(of: "<v></v>", with: "").replacingOccurrences(of: "<v />", with: ""),
            "only the Summary's cached formula results changed")
        let sheet1 = try book.part(Self.sheet)
        let before = Self.rows(String(decoding: original[Self.sheet] ?? Data(), as: UTF8.self))
        let after1 = Self.rows(sheet1)
        for number in 1...11 { #expect(after1[number] == before[number], "row \(number) changed on an append") }
        let row12 = try #require(after1[12])
        #expect(row12.contains(#"<c r="O12"><f>F12*2</f></c>"#))
        let styleF11 = try #require(XLSXFixture.cellElement("F11", in: sheet1)?.firstMatch(of: /s="(\d+)"/)?.1)
        #expect(XLSXFixture.cellElement("F12", in: sheet1) == #"<c r="F12" s="\#(styleF11)"><v>12.34</v></c>"#)
        #expect(sheet1.contains(#"<autoFilter ref="A1:O12"/>"#))
        #expect(sheet1.contains(#"<dataValidation sqref="B2:B12""#))
        #expect(sheet1.contains(#"<conditionalFormatting sqref="F2:F12">"#))
        #expect(sheet1.contains(#"<mergeCell ref="P2:Q2""#))
        #expect(sheet1.contains(#"ref="I4""#))
        let workbook = try book.part("xl/workbook.xml")
        #expect(workbook.contains("'Transactions'!$A$1:$O$12"))
        #expect(workbook.contains(#"fullCalcOnLoad="1""#))

        // Push 2: an amount edited in the store rewrites that cell (style kept) and lastModifiedAt.
        try book.execute("UPDATE transactions SET amount = '20.00' WHERE transactionId = '1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9'")
        #expect(try await book.run(["sync"]).status == 0)
        let second = try book.parts()
        #expect(Self.changedParts(first, second) == [Self.sheet])
        let sheet2 = try book.part(Self.sheet)
        let after2 = Self.rows(sheet2)
        for number in after1.keys.sorted() where number != 3 { #expect(after2[number] == after1[number], "row \(number) changed") }
        let oldF3 = try #require(XLSXFixture.cellElement("F3", in: sheet1))
        #expect(XLSXFixture.cellElement("F3", in: sheet2) == oldF3.replacingOccurrences(of: "<v>18.75</v>", with: "<v>20.00</v>"))
        // The Total beside the changed amount keeps its formula and loses its stale cached result.
        let oldO3 = try #require(XLSXFixture.cellElement("O3", in: sheet1))
        #expect(oldO3.contains("<v"))
        #expect(XLSXFixture.cellElement("O3", in: sheet2) == oldO3.replacing(/<v\s*\/>|<v>[^<]*<\/v>/, with: ""))
        #expect(XLSXFixture.cellElement("O4", in: sheet2) == XLSXFixture.cellElement("O4", in: sheet1))
        #expect(XLSXFixture.cellElement("A3", in: sheet2) == XLSXFixture.cellElement("A3", in: sheet1))

        // Push 3: a row deleted in the store closes up; everything below moves with its references.
        try book.execute("DELETE FROM transactions WHERE transactionId = 'c09ca393-0084-5db0-a1be-912f4bec2b3d'")
        #expect(try await book.run(["sync"]).status == 0)
        let third = try book.parts()
        #expect(
            Self.changedParts(second, third)
                == [Self.sheet, "xl/workbook.xml", "xl/comments/comment1.xml", "xl/drawings/commentsDrawing1.vml"])
        let sheet3 = try book.part(Self.sheet)
        let after3 = Self.rows(sheet3)
        #expect(after3.keys.max() == 11)
        #expect(after3[2]?.contains("1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9") == true)
        #expect(after3[2]?.contains("<f>F2*2</f>") == true)
        #expect(after3[11]?.contains("<f>F11*2</f>") == true)
        #expect(XLSXFixture.cellElement("F2", in: sheet3)?.contains("<v>20.00</v>") == true)
        #expect(!sheet3.contains("<mergeCell "), "the merged cells of the deleted row are gone")
        #expect(sheet3.contains(#"ref="I3""#), "the hyperlink moved up with its row")
        #expect(sheet3.contains(#"<autoFilter ref="A1:O11"/>"#))
        #expect(sheet3.contains(#"<dataValidation sqref="B2:B11""#))
        #expect(sheet3.contains(#"<conditionalFormatting sqref="F2:F11">"#))
        #expect(!(try book.part("xl/comments/comment1.xml")).contains("checked by hand"), "the deleted row's comment went with it")
        #expect(try book.part("xl/workbook.xml").contains("'Transactions'!$A$1:$O$11"))
        // The filled row (sheet row 3, now 2) keeps its fill style on every cell.
        let filled = try #require(before[3]?.firstMatch(of: /<c r="A3" s="(\d+)"/)?.1)
        #expect(after3[2]?.contains(#"<c r="A2" s="\#(filled)""#) == true)
        #expect(try book.part(Self.summary) == summary1, "the Summary sheet is copied byte for byte once its cache is gone")

        let rows = try book.store("SELECT transactionId, amount FROM transactions ORDER BY date")
        #expect(rows.count == 10)
        #expect(rows.contains { $0["transactionId"] == "1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9" && $0["amount"] == "20.00" })
    }

    @Test func aRejectedRowIsUntouchedByEveryLaterPush() async throws {
        let book = try XLSXFixture("dressed-rejected-openpyxl.xlsx")
        let first = try await book.run(["sync"])
        #expect(first.status == 65)
        #expect(first.stderr.contains("No Such Category"))
        let rejected = try #require(Self.rows(try book.part(Self.sheet))[12])
        #expect(rejected.contains("<f>F12*2</f>"))

        #expect(try await book.run(["add", "expense", "--amount", "5", "--category", "Groceries", "--date", "2026-02-02"]).status == 0)
        _ = try await book.run(["sync"])
        try book.execute("UPDATE transactions SET note = 'later edit' WHERE transactionId = '1c9d4701-1f9d-58f7-ae8f-16bd3aeef5d9'")
        _ = try await book.run(["sync"])
        let rows = Self.rows(try book.part(Self.sheet))
        #expect(rows[12] == rejected, "the rejected row changed")
        #expect(rows[13]?.contains("<f>F13*2</f>") == true)
        #expect(rows[3]?.contains("later edit") == true)
        let stored = try book.store("SELECT count(*) AS n FROM transactions WHERE note = 'rejected row'")
        #expect(stored.first?["n"] == "0")
    }
}
