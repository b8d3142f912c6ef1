import SheetValues
import Testing

@testable import SheetSyncCore

/// Category names that differ only by invisible characters, bidi marks or full-width letters look the
/// same in a report: the sheet side warns, naming both (shown with the escape of what differs), a row
/// naming the look-alike gets a "did you mean" hint, and the command line refuses one (TerminalEscapeTests).
@Suite struct LookalikeCategoryTests {
    @Test(arguments: ["Din\u{200B}ing", "Dinin\u{200E}g", "Ｄｉｎｉｎｇ", "\u{202A}Dining\u{202C}"])
    func aLookalikeFoldsToTheSameName(name: String) {
        #expect(TerminalText.lookalikeFold(name) == TerminalText.lookalikeFold("Dining"))
        #expect(name != "Dining")
    }

    @Test func aRowNamingALookalikeGetsADidYouMeanHint() {
        let hint = CategoryCheck.hint(for: "Din\u{200B}ing", known: ["Dining", "Rent"])
        #expect(hint == "did you mean 'Dining'? 'Din\u{200B}ing' differs from it only by invisible or full-width characters")
        #expect(CategoryCheck.hint(for: "Ｄｉｎｉｎｇ", known: ["Dining", "Rent"]).hasPrefix("did you mean 'Dining'?"))
    }

    @Test func twoLookalikesInTheCategoriesTabAreNamedOnceAndCaseTwinsAsBefore() {
        let row = LedgerRow()
        let notes = CategoryCheck.caseVariantNotes(result: ["Dining": row, "Din\u{200B}ing": row, "Rent": row], base: ["Dining": row])
        #expect(notes.count == 1)
        #expect(
            notes.first?.code == .categoryCaseVariant && notes.first?.text.contains("'Dining' and 'Din\u{200B}ing' look alike") == true,
            "\(notes)")
        let cases = CategoryCheck.caseVariantNotes(result: ["Books": row, "books": row], base: ["Books": row])
        #expect(
            cases.first?.code == .categoryCaseVariant && cases.first?.text.contains("'Books' and 'books' differ only in case") == true,
            "\(cases)")
    }
}
