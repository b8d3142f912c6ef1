import SheetSyncCore
import SheetValues
import Testing

@Suite struct FieldParserTests {
    func parse(_ cell: Cell, _ kind: FieldKind) -> String? {
        try? FieldParser.canonical(cell, FieldSpec(.note, kind)).get()
    }

    @Test func datesAcceptIsoSlashesUSOrderAndSheetSerials() {
        #expect(parse(.text("2026-01-15"), .date) == "2026-01-15")
        #expect(parse(.text(" 2026/1/5 "), .date) == "2026-01-05")
        #expect(parse(.text("1/15/2026"), .date) == "2026-01-15")
        #expect(parse(.number("46037"), .date) == "2026-01-15")
        #expect(parse(.dateSerial("46037.75"), .date) == "2026-01-15")
        #expect(parse(.text("15/1/2026"), .date) == nil)
        #expect(parse(.text("2026-02-30"), .date) == nil)
    }

    @Test func timestampsAreWrittenInOneFormatWithMilliseconds() {
        #expect(parse(.text("2026-11-21T22:31:20Z"), .timestamp) == "2026-11-21T22:31:20.000Z")
        #expect(parse(.text("2026-11-21 23:31:20.5+01:00"), .timestamp) == "2026-11-21T22:31:20.500Z")
        #expect(parse(.dateSerial("46037.5"), .timestamp) == "2026-01-15T12:00:00.000Z")
        #expect(parse(.text("yesterday"), .timestamp) == nil)
    }

    @Test func amountsAreExactOrRejectedNeverGuessed() {
        #expect(parse(.text("$1,234.50"), .amount) == "1234.50")
        #expect(parse(.text("12.5"), .amount) == "12.50")
        #expect(parse(.number("0.1"), .amount) == "0.10")
        #expect(parse(.number("1.5E-3"), .amount) == "0.0015")
        #expect(parse(.text("1,23.4"), .amount) == nil)
        #expect(parse(.text("12,50"), .amount) == nil)
        #expect(parse(.text("-3"), .amount) == nil)
        #expect(parse(.text("abc"), .amount) == nil)
    }

    @Test func aFormulaWithNoSavedResultSaysSoAndHowToFixIt() throws {
        let result = FieldParser.canonical(.error(Cell.formulaWithoutResult), FieldSpec(.amount, .amount))
        guard case .failure(let problem) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(problem.message == "amount is a formula with no saved result")
        #expect(
            problem.hint
                == "open the workbook in a spreadsheet program and save it (that saves the formula's result), or type the value")
    }

    @Test func negativeAmountGetsItsOwnMessage() {
        let result = FieldParser.canonical(.text("-3.00"), FieldSpec(.amount, .amount))
        guard case .failure(let problem) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(problem.message == "amount '-3.00' is negative")
    }

    @Test func booleansAcceptTheUsualSpellings() {
        for yes in ["TRUE", "true", "1", "yes", "Yes"] { #expect(parse(.text(yes), .boolean) == "TRUE") }
        for no in ["FALSE", "false", "0", "no"] { #expect(parse(.text(no), .boolean) == "FALSE") }
        #expect(parse(.bool(true), .boolean) == "TRUE")
        #expect(parse(.text("maybe"), .boolean) == nil)
    }

    @Test func enumsMatchCaseInsensitivelyAndUUIDsAreLowercased() {
        #expect(parse(.text(" Expense "), .enumeration(["expense", "income"])) == "expense")
        #expect(parse(.text("spend"), .enumeration(["expense", "income"])) == nil)
        #expect(parse(.text("6F9619FF-8B86-D011-B42D-00CF4FC964FF"), .uuid) == "6f9619ff-8b86-d011-b42d-00cf4fc964ff")
        #expect(parse(.text("not-a-uuid"), .uuid) == nil)
    }

    /// A full-width digit or letter (an input method's) is no hex digit of a UUID: read as one, the
    /// store's CHECK refused the row and every later sync stopped with an internal error.
    @Test func fullWidthCharactersAreNoUUIDDigits() {
        #expect(parse(.text("c94839fb-9d8e-5116-be50-879909f6ed7\u{FF14}"), .uuid) == nil)
        #expect(parse(.text("\u{FF21}94839fb-9d8e-5116-be50-879909f6ed74"), .uuid) == nil)
        #expect(parse(.text("c94839fb9d8e5116be50879909f6ed7\u{FF14}"), .uuid) == nil)
    }

    @Test func freeTextIsKeptVerbatimAndTextIsTrimmed() {
        #expect(parse(.text("  two  spaces "), .freeText) == "  two  spaces ")
        #expect(parse(.text("  Food "), .text) == "Food")
    }

    @Test func errorCellsAreRejected() {
        #expect(parse(.error("#N/A"), .amount) == nil)
    }

    @Test func typedCellsAreWrittenAsNumbersDatesAndBooleans() {
        #expect(FieldParser.cell("12.50", FieldSpec(.amount, .amount), typed: true) == .number("12.50"))
        #expect(FieldParser.cell("2026-01-15", FieldSpec(.date, .date), typed: true) == .dateSerial("46037"))
        #expect(FieldParser.cell("TRUE", FieldSpec(.isActive, .boolean), typed: true) == .bool(true))
        #expect(FieldParser.cell("2026-01-15", FieldSpec(.date, .date), typed: false) == .text("2026-01-15"))
    }
}

@Suite struct TabReaderTests {
    let now = Timestamp(iso: "2026-02-01T12:00:00.000Z")!

    func read(_ header: [String], _ rows: [[String]]) throws -> [SheetRow] {
        let table = Table(header: header, rows: rows.map { $0.map { $0.isEmpty ? Cell.empty : .text($0) } })
        return try TabReader.read(table, schema: .transactions, seenAt: now).1
    }

    static let header = [
        "transactionId", "type", "date", "year", "month", "amount", "category", "tags", "note",
        "paidFlag", "reimbursedFlag", "recurringRuleId", "createdAt", "lastModifiedAt",
    ]

    @Test func columnsAreMatchedByTrimmedCaseInsensitiveHeaderInAnyOrder() throws {
        var header = Self.header.reversed().map { " \($0.uppercased()) " }
        header.append("My own column")
        let values = ["", "", "", "", "", "", "", "Food", "12.5", "1", "2026", "2026-01-15", "", "", "x"]
        let rows = try read(header, [values])
        guard case .record(let r, let fixes) = rows[0].outcome else {
            Issue.record("row not read: \(rows[0].outcome)")
            return
        }
        #expect(r[.amount] == "12.50")
        #expect(r[.category] == "Food")
        #expect(r[.type] == "expense")
        #expect(fixes.contains("type"))
    }

    @Test func aMissingColumnStopsTheTabWithTheColumnNamed() {
        let header = Self.header.filter { $0 != "note" } + ["notes"]
        #expect(throws: TabError.self) { try read(header, []) }
        do { _ = try read(header, []) } catch { #expect("\(error)".contains("'note'")) }
    }

    @Test func staleYearAndMonthAreCorrectedFromTheDate() throws {
        let rows = try read(Self.header, [["", "expense", "2026-03-04", "2025", "1", "5", "Food", "", "", "", "", "", "", ""]])
        guard case .record(let r, let fixes) = rows[0].outcome else {
            Issue.record("row not read")
            return
        }
        #expect(r[.year] == "2026" && r[.month] == "3")
        #expect(fixes.isSuperset(of: ["year", "month", "createdAt", "lastModifiedAt"]))
    }

    @Test func blankRowsAreSkippedAndBadRowsRejectedWithEveryProblem() throws {
        let rows = try read(
            Self.header,
            [
                Array(repeating: "", count: 14),
                ["", "spend", "someday", "", "", "-4", "Food", "", "", "", "", "", "", ""],
            ])
        #expect(rows[0].outcome == .blank)
        guard case .rejected(let problems) = rows[1].outcome else {
            Issue.record("expected a rejection")
            return
        }
        #expect(problems.map(\.field).sorted() == ["amount", "date", "type"])
    }
}
