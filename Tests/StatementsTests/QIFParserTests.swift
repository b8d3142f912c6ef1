import Statements
import Testing

@Suite struct QIFParserTests {
    @Test func readsQuickenYearsAndSkipsListsAndSplits() throws {
        let statement = try Fixture.read("own/checking.qif")
        #expect(statement.format == .qif)
        #expect(
            statement.entries.map(line) == [
                "2026-11-03 out 4.75 | BLUE BOTTLE COFFEE | POS PURCHASE", "2026-11-03 out 4.75 | BLUE BOTTLE COFFEE | POS PURCHASE",
                "2026-11-30 in 2500.00 | ACME PAYROLL | ",
            ])
        #expect(statement.entries.map(\.line) == [2, 7, 12])
    }

    @Test func readsNerdbankSampleMonthFirstAsItsDatesTell() throws {
        let statement = try Fixture.read("nerdbank-qif/sample.qif")
        #expect(
            statement.entries.map(line) == [
                "2008-01-01 in 1500.00 | Paycheck | ",
                "2008-02-01 in 1500.00 | Paycheck | ",
                "2008-03-01 in 1500.00 | Paycheck | ",
                "2008-04-01 in 1500.00 | Paycheck | ",
                "2008-05-01 in 1500.00 | Paycheck | ",
                "2008-06-01 in 1500.00 | Paycheck | ",
                "2008-07-01 in 1500.00 | Paycheck | ",
                "2008-08-01 in 1500.00 | Paycheck | ",
                "2008-09-01 in 1500.00 | Paycheck | ",
                "2008-10-01 in 1500.00 | Paycheck | ",
                "2008-11-01 in 1500.00 | Paycheck | ",
                "2008-12-01 in 1500.00 | Paycheck | ",
                "2008-04-15 in 1500.00 | Bonus Paycheck | ",
                "2008-10-25 in 4000.00 | Bonus Paycheck | ",
                "2008-03-09 in 50.00 | Gift from Grandma | ",
                "2008-08-04 in 150.00 | Gift from Grandma | ",
                "2008-10-10 in 50.00 | Gift from Grandma | ",
                "2008-01-20 out 98.00 | Payment to Credit Card | ",
                "2008-02-17 out 134.00 | Payment to Credit Card | ",
                "2008-03-18 out 245.00 | Payment to Credit Card | ",
                "2008-04-11 out 147.00 | Payment to Credit Card | ",
                "2008-05-16 out 178.00 | Payment to Credit Card | ",
                "2008-06-17 out 109.00 | Payment to Credit Card | ",
                "2008-07-12 out 245.00 | Payment to Credit Card | ",
                "2008-08-10 out 231.00 | Payment to Credit Card | ",
                "2008-09-07 out 289.00 | Payment to Credit Card | ",
                "2008-10-15 out 138.00 | Payment to Credit Card | ",
                "2008-11-17 out 252.00 | Payment to Credit Card | ",
                "2008-12-10 out 335.00 | Payment to Credit Card | ",
            ])
    }

    @Test func refusesDatesThatReadBothWaysUntilADateFormatIsSet() throws {
        #expect(throws: StatementError.self) { try Fixture.read("quiffen/test_split.qif") }
        let options = StatementOptions(dateFormat: DateFormat(pattern: "M/d/yyyy"))
        let split = try Fixture.read("quiffen/test_split.qif", options: options)
        #expect(split.entries.map(line) == ["2000-01-01 out 10.00 | A Payee | "])
    }

    @Test func refusesInvestmentAccounts() {
        let text = "!Type:Invst\nD1/13/2026\nNBuy\nT100.00\n^\n"
        #expect(throws: StatementError.self) { try StatementReader.read(Array(text.utf8), file: "broker.qif") }
    }
}
