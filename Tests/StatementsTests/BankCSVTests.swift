import Statements
import Testing

@Suite struct BankCSVTests {
    @Test func readsAUSBankExportMonthFirstWithSignedAmounts() throws {
        let statement = try Fixture.read("own/us-checking.csv")
        #expect(statement.format == .csv)
        #expect(
            statement.entries.map(line) == [
                "2026-11-03 out 4.75 |  | STARBUCKS STORE 01234 SEATTLE WA", "2026-11-03 out 4.75 |  | STARBUCKS STORE 01234 SEATTLE WA",
                "2026-11-14 in 3150.00 |  | ACME CORP PAYROLL PPD ID: 9876543210", "2026-11-20 out 1200.00 |  | CHECK 1042",
                "2026-11-28 out 86.12 |  | WHOLEFDS MKT #10234, \"ORGANIC\"",
            ])
        #expect(statement.entries.map(\.line) == [2, 3, 4, 5, 6])
        #expect(statement.refused.isEmpty)
    }

    @Test func readsAUKExportInWindows1252BelowItsPreambleWithPaidOutAndPaidIn() throws {
        let statement = try Fixture.read("own/uk-current-account.csv")
        #expect(
            statement.entries.map(line) == [
                "2026-11-03 out 12.50 |  | TESCO STORES 3051", "2026-11-05 out 41.17 |  | THAMES WATER",
                "2026-11-25 in 2100.00 |  | EMPLOYER LTD SALARY", "2026-11-28 out 3000.00 |  | LANDLORD RENT NOV",
            ])
        #expect(statement.entries.first?.line == 6)
    }

    @Test func readsAGermanExportWithDecimalCommaUmlautsAndASummaryLine() throws {
        let statement = try Fixture.read("own/de-girokonto.csv")
        #expect(
            statement.entries.map(line) == [
                "2026-11-02 out 23.45 | REWE Markt GmbH | REWE SAGT DANKE 48211 Köln",
                "2026-11-04 out 3.50 | Bäckerei Müller | Brötchen & Kaffee für 3,50 €",
                "2026-11-15 in 2750.00 | Arbeitgeber AG | Gehalt November",
                "2026-11-30 out 1050.00 | Hausverwaltung Straßburger | Miete Dezember",
            ])
        #expect(statement.refused.isEmpty)
    }

    @Test func readsACreditCardWhosePurchasesArePositive() throws {
        let statement = try Fixture.read("own/credit-card.csv", options: StatementOptions(expenseSign: .positive))
        #expect(
            statement.entries.map(line) == [
                "2026-11-02 out 29.99 |  | AMAZON MKTPLACE PMTS AMZN.COM/BILL WA", "2026-11-13 out 412.40 |  | DELTA AIR LINES ATLANTA",
                "2026-11-15 in 500.00 |  | ONLINE PAYMENT - THANK YOU", "2026-11-21 in 29.99 |  | AMAZON MKTPLACE RETURN",
            ])
    }

    @Test func readsUTF16TabSeparatedWithAReferenceColumn() throws {
        let statement = try Fixture.read("own/utf16-export.txt")
        #expect(
            statement.entries.map(line) == [
                "2026-11-01 out 5.40 |  | Café Crème Zürich", "2026-11-13 out 32.00 |  | Ærø Ferry Ticket",
                "2026-11-20 in 12.00 |  | Refund — Naïve Shop",
            ])
        #expect(statement.entries.map(\.reference) == ["TX-0001", "TX-0002", "TX-0003"])
    }

    @Test func refusesDatesWhoseOrderTheFileCannotTellNamingTheColumnAndSetting() throws {
        #expect(throws: StatementError(file: "ambiguous-dates.csv", problem: .ambiguousDates(column: "Date", example: "01/02/2026"))) {
            try Fixture.read("own/ambiguous-dates.csv")
        }
        let error = try #require(throws: StatementError.self) { try Fixture.read("own/ambiguous-dates.csv") }
        #expect(error.description.contains("import.csv.dateFormat"))
        let statement = try Fixture.read(
            "own/ambiguous-dates.csv", options: StatementOptions(dateFormat: DateFormat(pattern: "dd/MM/yyyy")))
        #expect(statement.entries.map(line) == ["2026-02-01 out 3.20 |  | Coffee", "2026-04-03 out 15.00 |  | Books"])
    }

    @Test func anAmountMarkedCROrDRIsMoneyInOrOutWhateverTheExpenseSign() throws {
        let text = "Date,Description,Amount,Balance\n2026-11-02,Rent,900.00 DR,100.00 CR\n2026-11-03,Refund,12.50 CR,112.50 CR\n"
        for sign in StatementOptions.ExpenseSign.allCases {
            let statement = try StatementReader.read(Array(text.utf8), file: "bank.csv", options: StatementOptions(expenseSign: sign))
            #expect(statement.entries.map(line) == ["2026-11-02 out 900.00 |  | Rent", "2026-11-03 in 12.50 |  | Refund"], "\(sign)")
        }
    }

    @Test func aDebitCreditColumnBesideAnUnsignedAmountGivesTheDirection() throws {
        // A budgeting app's export (Transaction Type debit/credit) and an Indian bank's (Cr/Dr), both unsigned.
        let app = """
            "Date","Description","Original Description","Amount","Transaction Type","Category","Account Name"
            "11/02/2026","Rent","ACH RENT","900.00","debit","","Checking"
            "11/13/2026","Paycheck","ACME PAYROLL","2500.00","credit","","Checking"

            """
        let bank =
            "Transaction Date,Description,Cr/Dr,Amount\n12-11-2026,ATM WDL,DR,\"2,000.00\"\n25-11-2026,NEFT SALARY,CR,\"50,000.00\"\n"
        let soll = "Buchungstag;Verwendungszweck;Betrag;S/H\n02.11.2026;Miete;900,00;S\n15.11.2026;Gehalt;2.750,00;H\n"
        #expect(
            try StatementReader.read(Array(app.utf8), file: "app.csv").entries.map(line) == [
                "2026-11-02 out 900.00 |  | Rent", "2026-11-13 in 2500.00 |  | Paycheck",
            ])
        #expect(
            try StatementReader.read(Array(bank.utf8), file: "bank.csv").entries.map(line) == [
                "2026-11-12 out 2000.00 |  | ATM WDL", "2026-11-25 in 50000.00 |  | NEFT SALARY",
            ])
        #expect(
            try StatementReader.read(Array(soll.utf8), file: "giro.csv").entries.map(line) == [
                "2026-11-02 out 900.00 |  | Miete", "2026-11-15 in 2750.00 |  | Gehalt",
            ])
    }

    @Test func configuredColumnsOverrideDetection() throws {
        let text = "When;What;How much;Balance\n2026-11-02;Rent;-900,00;100,00\n"
        let options = StatementOptions(columns: .init(date: "When", amount: "How much", note: "What"))
        let statement = try StatementReader.read(Array(text.utf8), file: "bank.csv", options: options)
        #expect(statement.entries.map(line) == ["2026-11-02 out 900.00 |  | Rent"])
    }

    @Test func refusesFilesThatAreNoStatementNamingWhatIsMissing() {
        #expect(throws: StatementError(file: "x.csv", problem: .empty)) { try StatementReader.read([], file: "x.csv") }
        #expect(throws: StatementError(file: "x.png", problem: .binary("the bytes 89 50 4E 47 0D 0A 1A 0A"))) {
            try StatementReader.read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], file: "x.png")
        }
        #expect(throws: StatementError(file: "x.csv", problem: .missingColumn("amount", found: ["Date", "Shop"]))) {
            try StatementReader.read(Array("Date,Shop\n2026-01-02,Bakery\n".utf8), file: "x.csv")
        }
    }

    @Test func refusesARowWithABadAmountNamingItsLineAndKeepsTheOthers() throws {
        let text = "Date,Description,Amount\n2026-11-02,Rent,-900.00\n2026-11-03,Typo,12.3.4\n2026-11-04,Lunch,-9.10\n"
        let statement = try StatementReader.read(Array(text.utf8), file: "bank.csv")
        #expect(statement.entries.map(line) == ["2026-11-02 out 900.00 |  | Rent", "2026-11-04 out 9.10 |  | Lunch"])
        #expect(statement.refused.map(\.description) == ["bank.csv line 3: '12.3.4' is not an amount"])
    }
}
