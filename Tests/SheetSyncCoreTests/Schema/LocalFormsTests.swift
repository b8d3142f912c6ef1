import SheetSyncCore
import SheetValues
import Testing

/// Dates and amounts typed the local way read by the ledger's `dateOrder` and `decimalSeparator`;
/// a text the setting does not make unambiguous is refused with a hint, never guessed.
@Suite struct LocalFormsTests {
    static let dmy = LocalForms(dateOrder: .dmy, decimalSeparator: .comma)
    static let mdy = LocalForms(dateOrder: .mdy, decimalSeparator: .point)
    static let ymd = LocalForms(dateOrder: .ymd, decimalSeparator: .point)

    func read(_ text: String, _ kind: FieldKind, _ forms: LocalForms) -> Result<String, FieldProblem> {
        FieldParser.canonical(.text(text), FieldSpec(kind == .date ? .date : .amount, kind), forms)
    }

    func value(_ text: String, _ kind: FieldKind, _ forms: LocalForms) -> String? { try? read(text, kind, forms).get() }

    func problem(_ text: String, _ kind: FieldKind, _ forms: LocalForms) -> FieldProblem? {
        guard case .failure(let problem) = read(text, kind, forms) else { return nil }
        return problem
    }

    @Test func aDateWithTheYearLastReadsByTheLedgersOrder() {
        #expect(value("3/4/2026", .date, Self.mdy) == "2026-03-04")
        #expect(value("3/4/2026", .date, Self.dmy) == "2026-04-03")
        #expect(value("26.11.2026", .date, Self.dmy) == "2026-11-26")
        #expect(value("26-11-2026", .date, Self.dmy) == "2026-11-26")
        #expect(value("11/26/2026", .date, Self.mdy) == "2026-11-26")
    }

    @Test func isoAndYearFirstDatesReadTheSameUnderEveryOrder() {
        for forms in [Self.dmy, Self.mdy, Self.ymd] {
            #expect(value("2026-03-04", .date, forms) == "2026-03-04")
            #expect(value("2026/3/4", .date, forms) == "2026-03-04")
            #expect(FieldParser.canonical(.dateSerial("46085"), FieldSpec(.date, .date), forms) == .success("2026-03-04"))
        }
    }

    @Test func anImpossibleMonthUnderTheOrderIsRefusedNamingTheSetting() throws {
        let refused = try #require(problem("26/11/2026", .date, Self.mdy))
        #expect(refused.value == "26/11/2026")
        #expect(refused.message == "'26/11/2026' is not a date: there is no month 26 (this ledger's dateOrder is mdy (month first))")
        #expect(refused.hint.contains("YYYY-MM-DD") && refused.hint.contains("dateOrder"))
        #expect(problem("11/26/2026", .date, Self.dmy)?.message.contains("no month 26") == true)
    }

    @Test func aYearLastDateTheOrderDoesNotReadIsRefusedWithItsReadings() throws {
        let ambiguous = try #require(problem("3/4/2026", .date, Self.ymd))
        #expect(
            ambiguous.message == "'3/4/2026' is not a date sheetsync reads without guessing: this ledger's dateOrder is ymd (year first)")
        #expect(ambiguous.hint == "type it as YYYY-MM-DD (2026-03-04 or 2026-04-03)")
        // Month first reads slashes only: points and dashes with the year last are the European way.
        let dotted = try #require(problem("3.4.2026", .date, Self.mdy))
        #expect(dotted.hint == "type it as YYYY-MM-DD (2026-04-03)")
    }

    @Test func aDayThatDoesNotExistSaysSo() {
        #expect(problem("31/2/2026", .date, Self.dmy)?.message == "'31/2/2026' is not a date: February 2026 has no day 31")
        #expect(problem("2026-11-31", .date, Self.ymd)?.message == "'2026-11-31' is not a date: November 2026 has no day 31")
    }

    @Test func aDecimalCommaLedgerReadsCommasAsTheDecimalMark() {
        #expect(value("12,5", .amount, Self.dmy) == "12.50")
        #expect(value("1.234,50", .amount, Self.dmy) == "1234.50")
        #expect(value("€1.234,50", .amount, Self.dmy) == "1234.50")
        #expect(value("1,234", .amount, Self.dmy) == "1.234")
        #expect(value("1.234.567", .amount, Self.dmy) == "1234567.00")
        // What sheetsync writes (a point, not three digits after it) reads the same.
        #expect(value("12.50", .amount, Self.dmy) == "12.50")
        #expect(value("1234.5", .amount, Self.dmy) == "1234.50")
        // Under a decimal point, as always.
        #expect(value("1,234", .amount, Self.mdy) == "1234.00")
        #expect(problem("12,50", .amount, Self.mdy) != nil)
    }

    @Test func anAmountBothMarksReadDifferentlyIsRefused() throws {
        let refused = try #require(problem("1.234", .amount, Self.dmy))
        #expect(refused.value == "1.234")
        #expect(refused.message.hasPrefix("'1.234' could be 1234 or 1,234: this ledger's decimalSeparator is ','"))
        // Number cells are numbers, whatever the setting.
        #expect(FieldParser.canonical(.number("1.234"), FieldSpec(.amount, .amount), Self.dmy) == .success("1.234"))
    }

    /// A sync reads a tab by the ledger's forms: the same rows load as different dates, or are refused.
    @Test func aTabReadsByTheFormsItsSchemaCarries() throws {
        let header = Tab.transactions.schema.fields.map(\.header)
        func row(_ date: String, _ amount: String) -> [Cell] {
            Tab.transactions.schema.fieldNames.map { name -> Cell in
                switch name {
                case "date": return .text(date)
                case "amount": return .text(amount)
                case "category": return .text("Food")
                default: return .empty
                }
            }
        }
        let table = Table(header: header, rows: [row("3/4/2026", "1.234,50"), row("26/11/2026", "12,5")])
        let now = Timestamp(iso: "2026-11-28T00:00:00Z")!
        let (_, dmyRows) = try TabReader.read(table, schema: Tab.transactions.schema.reading(Self.dmy), seenAt: now)
        let read = dmyRows.compactMap { row -> LedgerRow? in
            guard case .record(let record, _) = row.outcome else { return nil }
            return record
        }
        #expect(read.map { [$0[.date], $0[.amount], $0[.month]] } == [["2026-04-03", "1234.50", "4"], ["2026-11-26", "12.50", "11"]])
        let (_, mdyRows) = try TabReader.read(table, schema: Tab.transactions.schema.reading(Self.mdy), seenAt: now)
        #expect(mdyRows.map(\.outcome).allSatisfy { if case .rejected = $0 { true } else { false } })
    }
}
