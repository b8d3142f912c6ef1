import Statements
import Testing

@Suite struct OFXParserTests {
    @Test func readsABankStatementOfOFXParse() throws {
        let statement = try Fixture.read("ofxparse/bank_medium.ofx")
        #expect(statement.format == .ofx)
        #expect(
            statement.entries.map(line) == [
                "2009-04-01 out 6.60 | MCDONALD'S #112 | POS MERCHANDISE;MCDONALD'S #112",
                "2009-04-02 out 316.67 | Joe's Bald Hairstyles | MISCELLANEOUS PAYMENTS;Joe's Bald Hairstyles",
                "2009-04-03 out 22.00 | CONNIE'S HAIR D | POS MERCHANDISE;CONNIE'S HAIR D",
            ])
        #expect(
            statement.entries.map(\.reference) == [
                "0000123456782009040100001", "0000123456782009040200004", "0000123456782009040300005",
            ])
        #expect(statement.entries.allSatisfy { $0.account == "12300 000012345678" })
        #expect(statement.refused.isEmpty)
    }

    @Test func readsIndentedSGMLWithoutClosingTags() throws {
        let statement = try Fixture.read("ofxparse/checking.ofx")
        #expect(
            statement.entries.map(line) == [
                "2011-03-31 in 0.01 | DIVIDEND EARNED FOR PERIOD OF 03 | DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%",
                "2011-04-05 out 34.51 | AUTOMATIC WITHDRAWAL, ELECTRIC BILL | AUTOMATIC WITHDRAWAL, ELECTRIC BILL WEB(S )",
                "2011-04-07 out 25.00 | RETURNED CHECK FEE, CHECK # 319 | RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11",
            ])
        #expect(statement.entries.map(\.reference) == ["0000486", "0000487", "0000488"])
    }

    @Test func readsCreditCardAndAustralianBankFiles() throws {
        #expect(try Fixture.read("ofxparse/anzcc.ofx").entries.map(line) == ["2017-05-08 out 5.50 |  | SOME MEMO"])
        #expect(try Fixture.read("ofxparse/suncorp.ofx").entries.map(line) == ["2013-12-15 out 16.85 |  | "])
        let empty = try Fixture.read("ofxparse/ofx-v102-empty-tags.ofx")
        #expect(empty.entries.map(line) == ["2018-05-07 in 12.34 |  | CBA:Transfer"])
        #expect(empty.entries.first?.reference == nil)
    }

    @Test func keepsThePostedCalendarDateInItsOwnOffsetAndTwoEqualEntries() throws {
        let statement = try Fixture.read("own/checking-sgml.ofx")
        #expect(
            statement.entries.map(line) == [
                "2026-11-03 out 4.75 | BLUE BOTTLE COFFEE | POS PURCHASE",
                "2026-11-03 out 4.75 | BLUE BOTTLE COFFEE | POS PURCHASE",
                "2026-11-30 in 2500.00 | ACME & SONS PAYROLL | ",
            ])
        #expect(statement.entries.map(\.line) == [17, 18, 19])
    }

    @Test func readsOFX2XMLWithPayeeAggregateAndDecimalComma() throws {
        let statement = try Fixture.read("own/card-xml.qfx")
        #expect(
            statement.entries.map(line) == [
                "2026-11-01 out 18.90 | Café Zürich | Kartenzahlung", "2026-11-29 in 250.00 | PAYMENT THANK YOU | ",
            ])
        #expect(statement.entries.map(\.account) == ["4111111111111111", "4111111111111111"])
    }

    @Test func refusesAnEntryWithoutAmountNamingItsLine() throws {
        let text =
            "OFXHEADER:100\n\n<OFX><BANKTRANLIST>\n<STMTTRN><DTPOSTED>20260101<FITID>1</STMTTRN>\n<STMTTRN><DTPOSTED>2026XX01<TRNAMT>1</STMTTRN></OFX>"
        let statement = try StatementReader.read(Array(text.utf8), file: "bank.ofx")
        #expect(statement.entries.isEmpty)
        #expect(
            statement.refused.map(\.description) == [
                "bank.ofx line 4: the entry has no TRNAMT", "bank.ofx line 5: '2026XX01' is not a date",
            ])
    }

    @Test func aTagLeftOpenAtTheEndOfTheFileIsReadNotACrash() throws {
        let text = "OFXHEADER:100\n\n<OFX><STMTTRN><DTPOSTED>20090401<TRNAMT>1<A"
        let statement = try StatementReader.read(Array(text.utf8), file: "cut.ofx")
        #expect(statement.entries.isEmpty && statement.refused.isEmpty)
    }
}
