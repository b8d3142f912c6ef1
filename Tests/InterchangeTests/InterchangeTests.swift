import Interchange
import Testing

@Suite struct ColumnLettersTests {
    @Test(arguments: [(0, "A"), (25, "Z"), (26, "AA"), (701, "ZZ"), (702, "AAA"), (16_383, "XFD")])
    func lettersAndIndexRoundTrip(_ index: Int, _ letters: String) {
        #expect(ColumnLetters.letters(ofIndex: index) == letters)
        #expect(ColumnLetters.index(of: letters) == index)
    }

    @Test func lowerCaseOnlyWhenAsked() {
        #expect(ColumnLetters.index(of: "ab") == nil)
        #expect(ColumnLetters.index(of: "ab", caseInsensitive: true) == 27)
        #expect(ColumnLetters.index(of: "") == nil)
        #expect(ColumnLetters.index(of: "A1") == nil)
        #expect(ColumnLetters.index(of: "XFDA", maxLetters: 3) == nil)
    }
}

@Suite struct CivilDaysTests {
    @Test func knownDays() {
        #expect(CivilDays.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDays.daysSinceEpoch(year: 1899, month: 12, day: 30) == -25_569)
        #expect(CivilDays.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilDays.date(daysSinceEpoch: -1) == (1969, 12, 31))
    }

    @Test func everyDayOfFourCenturiesRoundTrips() {
        var expected = CivilDays.daysSinceEpoch(year: 1800, month: 1, day: 1)
        for year in 1800..<2200 {
            for month in 1...12 {
                for day in 1...CivilDays.daysInMonth(year: year, month: month) {
                    let days = CivilDays.daysSinceEpoch(year: year, month: month, day: day)
                    if days != expected { Issue.record("\(year)-\(month)-\(day) → \(days), want \(expected)") }
                    let back = CivilDays.date(daysSinceEpoch: expected)
                    if back != (year, month, day) { Issue.record("\(expected) → \(back), want \(year)-\(month)-\(day)") }
                    expected += 1
                }
            }
        }
    }
}

@Suite struct Base64URLTests {
    @Test func urlAlphabetWithoutPadding() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("-_8=") == [0xfb, 0xff])
        #expect(Base64URL.decode("*") == nil)
    }
}
