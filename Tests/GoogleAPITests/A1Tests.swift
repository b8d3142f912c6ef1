import Testing

@testable import GoogleAPI

@Suite struct A1Tests {
    @Test func sheetNamesAreQuotedWithInnerQuotesDoubled() {
        #expect(A1.quoteSheetName("My Tab") == "'My Tab'")
        #expect(A1.quoteSheetName("Bob's Sheet") == "'Bob''s Sheet'")
        #expect(A1.range(sheet: "My Tab", firstColumn: 0, firstRow: 1, lastColumn: 13) == "'My Tab'!A1:N")
        #expect(A1.range(sheet: "T", firstColumn: 1, firstRow: 2, lastColumn: 3, lastRow: 9) == "'T'!B2:D9")
    }

    @Test(arguments: [(0, "A"), (25, "Z"), (26, "AA"), (27, "AB"), (51, "AZ"), (52, "BA"), (701, "ZZ"), (702, "AAA"), (16_383, "XFD")])
    func columnLettersForAnyIndex(_ index: Int, _ letters: String) {
        #expect(A1.columnLetters(index) == letters)
        #expect(A1.columnIndex(letters) == index)
    }

    @Test func columnIndexRejectsNonLetters() {
        #expect(A1.columnIndex("") == nil)
        #expect(A1.columnIndex("A1") == nil)
        #expect(A1.columnIndex("aa") == 26)
    }

    @Test func sheetNameIsReadBackFromReturnedRanges() {
        #expect(A1.sheetName(ofRange: "'Bob''s Sheet'!A1:B2") == "Bob's Sheet")
        #expect(A1.sheetName(ofRange: "Transactions!A1:N1000") == "Transactions")
        #expect(A1.sheetName(ofRange: "'My Tab'") == "My Tab")
    }
}
