import Foundation
import SheetSyncCore
import SheetValues
import TestSupport
import Testing

@testable import Workbook

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

    /// The shortest-spelling path gives exactly what `%.14e` rounding gives, or defers to it: on
    /// random doubles of every magnitude (subnormal ones included), timestamp serials, amounts, and doubles at and next to
    /// 15-digit rounding ties (where rounding a rounded spelling could go the wrong way).
    @Test func roundingFromTheShortestSpellingMatchesFormatting() {
        var random = SeededRandom(seed: 15)
        var values: [Double] = [
            1, -1, 0.1, 1e-5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e21, 1e20, 999_999_999_999_999.5, 0.30000000000000004,
        ]
        for _ in 0..<30_000 {
            let bits = random.next()
            let value = Double(bitPattern: bits)
            if value.isFinite && value != 0 { values.append(value) }
            values.append(Double(40_000 + Int(random.next() % 20_000)) + Double(random.next() % 86_400) / 86_400)
            values.append(Double(Int64(bitPattern: random.next() % 2_000_000_000) - 1_000_000_000) / 100)
            // A 16-digit decimal ending in 5 (a 15-digit tie) and the doubles either side of it.
            let tie = Double(
                "\(1 + random.next() % 9).\(String(format: "%014llu", random.next() % 100_000_000_000_000))5e\(Int(random.next() % 40) - 20)"
            )!
            values += [tie, tie.nextUp, tie.nextDown]
        }
        var deferred = 0
        for value in values + values.map({ -$0 }) {
            guard let fast = DisplayedNumber.fromShortest(value) else {
                deferred += 1
                continue
            }
            #expect(fast == DisplayedNumber.formatted(value), "\(value)")
        }
        // Ties are rare among doubles in general; about one in six here is a constructed tie.
        #expect(deferred < values.count / 2, "\(deferred) of \(2 * values.count) deferred")
    }

    @Test func canonicalTextIsRecognizedWithoutParsing() {
        for text in ["0", "12.5", "-3", "0.0015", "123456789012345"] { #expect(DisplayedNumber.isAlreadyCanonical(text)) }
        for text in ["12.50", "007", "1E3", "1234567890123456", ".5", "5.", "-0", ""] {
            #expect(!DisplayedNumber.isAlreadyCanonical(text), "\(text)")
        }
    }

    @Test func aNumberCellOfTheSameDisplayedValueReadsAsTheSameAmount() throws {
        let spec = FieldSpec(.amount, .amount)
        let noisy = FieldParser.canonical(.number(DisplayedNumber.canonical("91.06999999999999")), spec)
        #expect(try noisy.get() == "91.07")
    }

    @Test func aDateSerialIsDisplayedAsItsISODate() {
        #expect(FieldParser.displayedDate("46024") == "2026-01-02")
        #expect(FieldParser.displayedDate("46024.5") == "2026-01-02T12:00:00")
        #expect(FieldParser.displayedDate("abc") == nil)
    }
}
