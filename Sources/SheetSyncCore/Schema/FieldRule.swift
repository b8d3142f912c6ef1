import Foundation

/// The rule table of the field kinds: for each kind, what a field of it holds and what the store
/// holds a column of it to, in one row (`FieldKind.rule`).
///
/// A row gives the canonical text every reader produces, the SQLite column type, the CHECK the
/// store creates for the column (its words and its SQL, generated here; `DataTable.create` only
/// names the column), and texts the kind reads (with their canonical text) and refuses. The same
/// CHECK decided on bytes (`FieldKind.passesCheck`) sits beside the table. The readers stay
/// hand-tuned where they are (`FieldParser` tolerantly, `FieldParser+Fast` and `CanonicalText` on
/// the bytes of the common forms); `FieldRuleAgreementTests` puts every row's examples, and
/// thousands of texts made from them, through the tolerant parser, the fast readers,
/// `passesCheck` and SQLite's own CHECK, and fails when any of them parts from the row. Where
/// each copy lives: docs/store.md, "The field rules".
public struct FieldRule: Sendable {
    /// The canonical text, in words: what every reader makes of a valid cell, and what the store keeps.
    public let canonical: String
    /// Whether the store keeps the field as an SQLite INTEGER (booleans as 1 and 0), not TEXT.
    public let storedAsInteger: Bool
    /// What the store's CHECK holds a column of the kind to; nil when it takes any text.
    public let check: Check?
    /// Texts a cell of the kind holds, each with the canonical text it reads as (under
    /// `LocalForms.standard`).
    public let reads: [(typed: String, canonical: String)]
    /// Texts a cell of the kind cannot hold.
    public let refuses: [String]

    /// A CHECK constraint, named by its rule in words so SQLite's refusal says what is wrong.
    public struct Check: Sendable {
        /// The rule after the column's name (`must be a UUID`).
        public let words: String
        /// The condition on the column whose quoted name is given.
        public let sql: @Sendable (_ column: String) -> String

        /// The constraint's name and condition for the column `name` (quoted as `quotedName`).
        public func constraint(_ name: String, quotedName: String) -> (rule: String, sql: String) {
            ("\(name) \(words)", sql(quotedName))
        }
    }

    /// The CHECK on a row's key: it is never empty.
    public static let keyCheck = Check(words: "must not be empty") { "\($0) <> ''" }

    /// The texts the store writes for a boolean (kept as 1 and 0).
    public static let trueText = "TRUE", falseText = "FALSE"
}

extension FieldKind {
    /// This kind's row of the rule table, built on each call: for a schema or a query built once,
    /// not for a cell (`passesCheck` is the byte loop for those).
    public var rule: FieldRule {
        switch self {
        case .uuid:
            let id = "c09ca393-0084-5db0-a1be-912f4bec2b3d"
            return FieldRule(
                canonical: "lowercase 8-4-4-4-12 hex digits", storedAsInteger: false,
                check: .init(words: "must be a UUID") { "\($0) GLOB '\(SQLPattern.uuid)'" },
                reads: [
                    (id, id), (id.uppercased(), id), ("{c09ca39300845db0a1be912f4bec2b3d}", id), (" \(id) ", id),
                ],
                refuses: [String(id.dropLast()), String(id.dropLast()) + "g", "c09ca3930-084-5db0-a1be-912f4bec2b3d", "{}", "x"])
        case .text:
            return FieldRule(
                canonical: "the text without spaces around it", storedAsInteger: false, check: nil,
                reads: [("Food", "Food"), ("  Eating out\t", "Eating out"), ("Café ☕", "Café ☕")], refuses: [])
        case .freeText:
            return FieldRule(
                canonical: "the text as typed", storedAsInteger: false, check: nil,
                reads: [("soup \"and\" bread, =1+1", "soup \"and\" bread, =1+1"), (" two\nlines ", " two\nlines ")], refuses: [])
        case .enumeration(let values):
            let first = values.first ?? ""
            return FieldRule(
                canonical: "one of the values, lowercase", storedAsInteger: false,
                check: .init(words: "must be one of \(values.joined(separator: ", "))") { column in
                    "\(column) IN (\(values.map(\.sqlLiteral).joined(separator: ", ")))"
                },
                reads: values.map { ($0, $0) } + [(first.uppercased(), first), (" \(first.capitalized) ", first)],
                refuses: ["\(first)s", "-", "\(first) \(first)"])
        case .date:
            return FieldRule(
                canonical: "YYYY-MM-DD naming a real day", storedAsInteger: false,
                // `+0 days` makes SQLite normalize, so `2026-02-30` comes back different and fails.
                check: .init(words: "must be a real date YYYY-MM-DD") { "date(\($0), '+0 days') IS \($0)" },
                reads: [
                    ("2026-01-05", "2026-01-05"), ("2024-02-29", "2024-02-29"), ("9999-12-31", "9999-12-31"),
                    ("2026/1/5", "2026-01-05"), ("1/15/2026", "2026-01-15"), (" 2026-01-05 ", "2026-01-05"),
                ],
                refuses: ["2026-02-30", "2026-13-01", "2026-00-10", "2026-01-05T10:00", "15/1/2026", "yesterday"])
        case .timestamp:
            return FieldRule(
                canonical: "YYYY-MM-DDTHH:MM:SS.mmmZ in UTC", storedAsInteger: false,
                check: .init(words: "must be a timestamp like 2026-11-21T22:31:20.123Z") {
                    "strftime('%Y-%m-%dT%H:%M:%fZ', \($0), '+0 days') IS \($0)"
                },
                reads: [
                    ("2026-11-21T22:31:20.123Z", "2026-11-21T22:31:20.123Z"), ("2026-11-21T22:31:20Z", "2026-11-21T22:31:20.000Z"),
                    ("2026-11-21T23:31:20.123+01:00", "2026-11-21T22:31:20.123Z"),
                ],
                refuses: ["2026-11-21T23:60:00.000Z", "2026-02-30T00:00:00.000Z", "21/11/2026 22:31", "22:31:20", "now"])
        case .amount:
            return FieldRule(
                canonical: "a non-negative decimal with at least two fraction digits", storedAsInteger: false,
                // A plain non-negative decimal (`12.50`, or `12.5` typed in the shell: the engine
                // canonicalizes); no sign, currency, grouping or exponent.
                check: .init(words: "must be a non-negative decimal like 12.50") { name in
                    "\(name) GLOB '[0-9]*' AND \(name) NOT GLOB '*[^0-9.]*' AND \(name) NOT GLOB '*.*.*'"
                        + " AND \(name) NOT GLOB '*.'"
                },
                reads: [
                    ("12.50", "12.50"), ("12.5", "12.50"), ("0.125", "0.125"), ("1450", "1450.00"), ("$1,234.5", "1234.50"),
                    ("+7", "7.00"),
                ],
                refuses: ["-3", "12.3.4", "1,23.4", "5 dollars"])
        case .integer(let range):
            return FieldRule(
                canonical: "a whole number in decimal", storedAsInteger: true, check: range.check,
                reads: range.examples.map { (String($0), String($0)) } + [(" \(range.examples[0]) ", String(range.examples[0]))],
                refuses: ["1.5", "x"] + range.outside.map(String.init))
        case .boolean:
            return FieldRule(
                canonical: "TRUE or FALSE (kept as 1 or 0)", storedAsInteger: true,
                check: .init(words: "must be 0 or 1") { "\($0) IN (0, 1)" },
                reads: [
                    ("TRUE", "TRUE"), ("FALSE", "FALSE"), ("true", "TRUE"), ("Yes", "TRUE"), ("n", "FALSE"), ("1", "TRUE"), ("0", "FALSE"),
                ],
                refuses: ["maybe", "2", "truee"])
        }
    }

    /// Whether a field's non-empty stored text (as bytes, bound as the store binds it) passes the
    /// kind's CHECK, decided in Swift: true only when SQLite would agree, false also for some
    /// texts SQLite would take. A first load asks it of every field, so it is a byte loop of its own.
    package func passesCheck(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .enumeration(let values):
            return values.contains { value in value.utf8.elementsEqual(text) }
        case .boolean:
            // Bound as 1 or 0, or refused before SQLite sees it.
            return true
        case .integer(let range):
            return CanonicalText.plainInteger(text).map(range.contains) ?? false
        case .uuid:
            return RowKey.uuidBits(text) != nil
        case .date:
            return CanonicalText.isDate(text)
        case .timestamp:
            return CanonicalText.isTimestamp(text)
        case .amount:
            // `GLOB '[0-9]*'`, digits and points only, at most one point, not last.
            guard CanonicalText.isDigit(text[0]), text[text.count - 1] != UInt8(ascii: ".") else { return false }
            var points = 0
            for byte in text {
                if byte == UInt8(ascii: ".") {
                    points += 1
                } else if !CanonicalText.isDigit(byte) {
                    return false
                }
            }
            return points <= 1
        case .text, .freeText:
            return true
        }
    }
}

extension ClosedRange<Int> {
    /// The CHECK on an integer in the range: nil when it spans every `Int`.
    fileprivate var check: FieldRule.Check? {
        switch (lowerBound == Int.min, upperBound == Int.max) {
        case (false, false):
            return .init(words: "must be between \(lowerBound) and \(upperBound)") { "\($0) BETWEEN \(lowerBound) AND \(upperBound)" }
        case (false, true):
            return .init(words: "must be at least \(lowerBound)") { "\($0) >= \(lowerBound)" }
        case (true, false):
            return .init(words: "must be at most \(upperBound)") { "\($0) <= \(upperBound)" }
        case (true, true):
            return nil
        }
    }

    /// Whole numbers in the range: its finite bounds, or small numbers where it has none.
    fileprivate var examples: [Int] {
        let bounds = [lowerBound, upperBound].filter { $0 != Int.min && $0 != Int.max }
        return bounds.isEmpty ? [0, -3, 12] : bounds
    }

    /// Whole numbers just outside the range.
    fileprivate var outside: [Int] {
        (lowerBound == Int.min ? [] : [lowerBound - 1]) + (upperBound == Int.max ? [] : [upperBound + 1])
    }
}

/// GLOB patterns for the canonical texts (GLOB has no repetition, hence the spelled-out classes).
package enum SQLPattern {
    static let digit = "[0-9]"
    static let hex = "[0-9a-f]"
    package static let date = String(repeating: digit, count: 4) + "-" + digit + digit + "-" + digit + digit
    package static let uuid = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }.joined(separator: "-")
}

extension String {
    /// The text as an SQL string literal (`'it''s'`).
    package var sqlLiteral: String { "'" + replacingOccurrences(of: "'", with: "''") + "'" }
}
