import Testing

@testable import SheetSyncCore

/// A double reads as a spreadsheet shows it: 15 significant digits, canonical decimal text.
@Suite struct DisplayedNumberTests {
    @Test(arguments: [
        ("91.06999999999999", "91.07"), ("2.899999999999999", "2.9"), ("0.30000000000000004", "0.3"),
        ("54.2", "54.2"), ("12.50", "12.5"), ("1.5E-3", "0.0015"), ("-3", "-3"), ("-0", "0"), ("0", "0"),
        ("007", "7"), ("1E+21", "1E+21"), ("123456789012", "123456789012"), ("1.0", "1"),
        ("45000.999999999993", "45001"), ("0.1234567890123456", "0.123456789012346"),
    ])
    func numbersAreRoundedToFifteenSignificantDigits(_ text: String, _ shown: String) {
        #expect(DisplayedNumber.canonical(text) == shown)
    }

    @Test func canonicalTextIsRecognizedWithoutParsing() {
        for text in ["0", "12.5", "-3", "0.0015", "123456789012345"] { #expect(DisplayedNumber.isAlreadyCanonical(text)) }
        for text in ["12.50", "007", "1E3", "1234567890123456", ".5", "5.", "-0", ""] {
            #expect(!DisplayedNumber.isAlreadyCanonical(text), "\(text)")
        }
    }

    @Test func aNumberCellOfTheSameDisplayedValueReadsAsTheSameAmount() throws {
        let spec = FieldSpec("amount", .amount)
        let noisy = FieldParser.canonical(.number(DisplayedNumber.canonical("91.06999999999999")), spec)
        #expect(try noisy.get() == "91.07")
    }

    @Test func aDateSerialIsDisplayedAsItsISODate() {
        #expect(FieldParser.displayedDate("46024") == "2026-01-02")
        #expect(FieldParser.displayedDate("46024.5") == "2026-01-02T12:00:00")
        #expect(FieldParser.displayedDate("abc") == nil)
    }
}
