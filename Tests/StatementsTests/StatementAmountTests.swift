import SheetSyncCore
import Testing

@testable import Statements

@Suite struct StatementAmountTests {
    /// A plain amount (`-12.50`, `34,09`) is read without the general reader's work per character, and
    /// must read as the general reader reads it, whatever the file's decimal mark: every mix of signs,
    /// digits, marks, fractions and decorations around them.
    @Test func aPlainAmountReadsAsTheGeneralReaderReadsIt() {
        var texts: [String] = []
        for sign in ["", "-", "+", "−", "--"] {
            for whole in ["", "0", "7", "12", "1234", "00012", "1.234", "1,234"] {
                for mark in ["", ".", ",", ",.", "'"] {
                    for fraction in ["", "0", "5", "50", "505", "5050"] {
                        for (before, after) in [("", ""), (" ", ""), ("", " "), ("€", ""), ("", " DR"), ("(", ")"), ("", "-")] {
                            texts.append(before + sign + whole + mark + fraction + after)
                        }
                    }
                }
            }
        }
        let differing = texts.filter { text in
            [nil, ".", ","].contains { (decimalMark: Character?) in
                StatementAmount.parse(text, decimalMark: decimalMark) != StatementAmount.general(text, decimalMark: decimalMark)
            }
        }
        #expect(differing.isEmpty, "\(differing)")
        #expect(texts.count { StatementAmount.plain($0) != nil } > 100)
    }

    @Test func readsTheFormsBanksPrint() throws {
        let cases: [(String, String, Bool)] = [
            ("1,234.56", "1234.56", false), ("1.234,56", "1234.56", false), ("-12,50", "12.50", true), ("(12.50)", "12.50", true),
            ("12.50-", "12.50", true), ("$1,234.56", "1234.56", false), ("€ 12,50", "12.50", false), ("12.50 EUR", "12.50", false),
            ("-$4.75", "4.75", true), ("1'234.50", "1234.50", false), ("1 234,56", "1234.56", false), ("−3.10", "3.10", true),
            ("+7", "7.00", false), ("1.234", "1234.00", false),
        ]
        for (text, value, negative) in cases {
            let amount = try #require(StatementAmount.parse(text), "\(text)")
            #expect(amount.magnitude.description == value, "\(text)")
            #expect(amount.negative == negative, "\(text)")
        }
    }

    @Test func aLoneMarkBeforeThreeDigitsFollowsTheFile() {
        #expect(StatementAmount.parse("1.234", decimalMark: ".")?.magnitude.description == "1.234")
        #expect(StatementAmount.parse("1,234", decimalMark: ",")?.magnitude.description == "1.234")
        #expect(DecimalMark.detect(["1.234", "12,50", "3,10"]) == ",")
        #expect(DecimalMark.detect(["1,234", "12.50"]) == ".")
    }

    @Test func aCreditOrDebitMarkBeforeOrAfterTheAmountGivesItsDirection() throws {
        let cases: [(String, String, StatementEntry.Direction)] = [
            ("12.50 DR", "12.50", .outgoing), ("12.50 CR", "12.50", .incoming), ("1,234.56Dr", "1234.56", .outgoing),
            ("12,50 cr", "12.50", .incoming), ("CR 7.00", "7.00", .incoming), ("DR $3.10", "3.10", .outgoing),
            ("12.50 EUR DR", "12.50", .outgoing), ("-12.50 DR", "12.50", .outgoing),
        ]
        for (text, value, direction) in cases {
            let amount = try #require(StatementAmount.parse(text), "\(text)")
            #expect(amount.magnitude.description == value, "\(text)")
            #expect(amount.marked == direction, "\(text)")
        }
        #expect(StatementAmount.parse("12.50")?.marked == nil)
        #expect(StatementAmount.parse("12.50 EUR")?.marked == nil)
    }

    @Test func refusesWhatIsNoAmount() {
        for text in ["", "abc", "12.3.4,5", "1,23.4", "12 abc 50", "--"] { #expect(StatementAmount.parse(text) == nil, "\(text)") }
    }
}
