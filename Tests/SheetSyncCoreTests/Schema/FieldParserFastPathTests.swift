import SheetValues
import TestSupport
import Testing

@testable import SheetSyncCore

/// The byte-level readers answer only with the tolerant parser's own answer (differential tests).
@Suite struct FieldParserFastPathTests {
    /// One spec per kind of field the five tabs hold.
    static let specs: [FieldSpec] = {
        var seen: Set<FieldKind> = []
        return Tab.allCases.flatMap(\.schema.fields).filter { seen.insert($0.kind).inserted }
    }()

    /// Every reading of dates and amounts typed as text a ledger can have.
    static let allForms = LocalForms.DateOrder.allCases.flatMap { order in
        LocalForms.DecimalSeparator.allCases.map { LocalForms(dateOrder: order, decimalSeparator: $0) }
    }

    /// `disagreements` under every `LocalForms`.
    static func disagreementsUnderEveryForm(_ text: String) -> [String] {
        allForms.flatMap { forms in disagreements(text, forms).map { "\(forms.dateOrder) '\(forms.decimalSeparator.rawValue)': \($0)" } }
    }

    /// Every disagreement between the fast reading of `.text(text)` and the tolerant one, and between
    /// the checks `PlainRows` makes on the text's bytes and the fast reading, under `forms`.
    static func disagreements(_ text: String, _ forms: LocalForms = .standard) -> [String] {
        var found: [String] = []
        let bytes = Array(text.utf8)
        for spec in specs where !bytes.isEmpty {
            let rule = FieldParser.FastRule(spec.kind, forms)!
            let onBytes = bytes.withUnsafeBufferPointer { FieldParser.readsFast($0, rule) }
            let fast = FieldParser.canonicalFast(.text(text), spec.kind, forms)
            if onBytes, fast == nil { found.append("\(spec.header): '\(text)' reads fast on its bytes, not as text") }
            let bits = bytes.withUnsafeBufferPointer(CanonicalText.uuidKey)
            if spec.kind == .uuid, let bits, bits != fast.flatMap({ Array($0.utf8).withUnsafeBufferPointer(CanonicalText.uuidKey) }) {
                found.append("'\(text)' has another UUID key than its canonical text '\(fast ?? "")'")
            }
        }
        for spec in specs {
            guard let fast = FieldParser.canonicalFast(.text(text), spec.kind, forms) else { continue }
            let tolerant = FieldParser.canonicalTolerantly(.text(text), spec, forms)
            if case .success(fast) = tolerant { continue }
            found.append("\(spec.header) (\(spec.kind)): '\(text)' reads fast as '\(fast)', tolerantly as \(tolerant)")
        }
        return found
    }

    static let edges = [
        "", " ", "0", "1", "y", "Y", "n", "no", "NO", "yes", "Yes", "true", "TRUE", "True", "false", "FaLsE", "t", "\0true",
        "2026-01-05", "2026-1-5", "2026/01/05", "2026.1.5", "1/5/2026", "01/05/2026", "5.1.2026", "5-1-2026", "2026--1-5",
        "-2026-1-5", "2026-1-5-", "2026/13/01", "2026/02/29", "2024/02/29", "0000-01-01", "9999-12-31", "10000-01-01",
        "2026-01-05 ", " 2026-01-05", "+2026-1-5", "2026-+1-5", "1/5/26", "123456789/1/2026", "1234567890-1-1",
        "2025-11-13T09:57:50Z", "2025-11-13T09:57:50.1Z", "2025-11-13T09:57:50.123456789Z", "2025-11-13T09:57:50,5Z",
        "2025-11-13T09:57:50+01:00", "2025-11-13T09:57:50-0530", "2025-11-13 09:57", "2025-11-13t09:57:50z",
        "2025-11-13", "2025-11-13T24:00:00Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", " 2025-11-13T09:57:50Z",
        "12", "12.5", "12.", ".5", ".", "$", "+", "+$1", "$+1", "$1,234.50", "+1,234", "€1,234.5", "£0.5", "¥1000",
        "1,23.4", "12,50", ",123", "1,2345", "1,234,567.891", "000,123", "0,001.10", "-3", "-0", "(12.50)", "1e3", "1.5E-3",
        "$1,234.", "$.5", "$,", "$ 5", "12.3.4", "1.2,3", "€\u{301}12", "$\u{301}12", "9999999999999999999999.99",
        "C09CA393-0084-5DB0-A1BE-912F4BEC2B3D", "{c09ca393-0084-5db0-a1be-912f4bec2b3d}", "c09ca39300845db0a1be912f4bec2b3d",
        "{C09CA39300845DB0A1BE912F4BEC2B3D}", "c09ca393-0084-5db0-a1be-912f4bec2b3", "c09ca393-0084-5db0-a1be-912f4bec2b3g",
        "{c09ca393-0084-5db0-a1be-912f4bec2b3d", "c09ca3930-084-5db0-a1be-912f4bec2b3d", "{}", "{",
        "Expense", "EXPENSE", "income ", "Paid", "Unreimbursed", "Monthly", "BOTH", "expenße",
        "26/11/2026", "11/26/2026", "26.11.2026", "3.4.2026", "3-4-2026", "3/4/2026", "03/04/2026", "3/4.2026", "31/02/2026",
        "1.234", "1.234,50", "12,5", "0,125", "0.125", "1.234.567", "1,234", "€1.234,50", "$1.234", "1.2345", "12.50", "1.234.5",
    ]

    @Test func fastReadingsOfEdgeInputsAreTheTolerantReadings() {
        #expect(Self.edges.flatMap(Self.disagreementsUnderEveryForm) == [])
    }

    @Test func fastReadingsOfRandomInputsAreTheTolerantReadings() {
        var random = SeededRandom(seed: 13)
        let alphabet = Array("0123456789012345678901234567890123456789-/.:,+TtZz $€£¥eE()abcdefABCDEF{}yesnortuYESNO\u{A0}\t")
        var found: [String] = []
        for round in 0..<30_000 {
            let text: String
            if round % 2 == 0 {
                text = String((0..<random.next(below: 40)).map { _ in alphabet[random.next(below: alphabet.count)] })
            } else {
                text = random.mutated(Self.edges[random.next(below: Self.edges.count)], alphabet: alphabet)
            }
            found += Self.disagreements(text, Self.allForms[round % Self.allForms.count])
            if found.count > 10 { break }
        }
        #expect(found == [])
    }

    @Test func theFormsPeopleWriteTakeTheFastPath() {
        let cases: [(String, FieldKind, String)] = [
            ("2025-11-13T09:57:50Z", .timestamp, "2025-11-13T09:57:50.000Z"),
            ("2025-11-13T10:57:50.123456+01:00", .timestamp, "2025-11-13T09:57:50.123Z"),
            ("2026/1/5", .date, "2026-01-05"),
            ("1/15/2026", .date, "2026-01-15"),
            ("$1,234.5", .amount, "1234.50"),
            ("+0.125", .amount, "0.125"),
            ("Yes", .boolean, "TRUE"),
            ("n", .boolean, "FALSE"),
            ("Expense", .enumeration(TabSchema.transactionTypes), "expense"),
            ("{C09CA393-0084-5DB0-A1BE-912F4BEC2B3D}", .uuid, "c09ca393-0084-5db0-a1be-912f4bec2b3d"),
        ]
        for (text, kind, canonical) in cases {
            #expect(FieldParser.canonicalFast(.text(text), kind) == canonical, "\(text)")
            // `PlainRows` reads them on their bytes too.
            #expect(Array(text.utf8).withUnsafeBufferPointer { FieldParser.readsFast($0, FieldParser.FastRule(kind)!) }, "\(text)")
        }
        // One UUID in every form has one value; another UUID another.
        let forms = ["c09ca393-0084-5db0-a1be-912f4bec2b3d", "C09CA393-0084-5DB0-A1BE-912F4BEC2B3D", "{c09ca39300845db0a1be912f4bec2b3d}"]
        let values = Set(forms.map { Array($0.utf8).withUnsafeBufferPointer(CanonicalText.uuidKey) })
        #expect(values.count == 1 && values.first! != nil)
        #expect(Array("c09ca393-0084-5db0-a1be-912f4bec2b3e".utf8).withUnsafeBufferPointer(CanonicalText.uuidKey) != values.first!)
    }
}
