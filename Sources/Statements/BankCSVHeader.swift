import Foundation

/// What each column of a bank's CSV header holds, found by the header names banks use in English
/// and German, or by the names configured (`StatementOptions.Columns`).
struct BankCSVHeader {
    enum Role: CaseIterable {
        case date, valueDate, amount, debit, credit, indicator, payee, memo, reference
        /// A column that holds the description only where no better-named one does (`Details`,
        /// which in some US exports holds `DEBIT`/`CREDIT`).
        case fallbackMemo
        /// A budget sheet's own category, and its `Type` (expense or income) where it says one.
        case category, type
    }

    /// Column indexes per role, in file order.
    var columns: [Role: [Int]] = [:]
    var names: [String]

    /// The booking date, else the value date.
    var date: Int? { columns[.date]?.first ?? columns[.valueDate]?.first }
    var isComplete: Bool { date != nil && (columns[.amount] != nil || columns[.debit] != nil || columns[.credit] != nil) }

    init(_ names: [String], configured: StatementOptions.Columns) {
        self.names = names
        let keys = names.map(Self.normalize)
        let overrides: [(Role, String?)] = [
            (.date, configured.date), (.amount, configured.amount), (.memo, configured.note), (.payee, configured.payee),
            (.debit, configured.debit), (.credit, configured.credit), (.reference, configured.reference),
        ]
        for (index, key) in keys.enumerated() {
            guard let role = Self.role(of: key, overrides: overrides) else { continue }
            columns[role, default: []].append(index)
        }
        if columns[.memo] == nil { columns[.memo] = columns[.fallbackMemo] }
    }

    /// The header names of the columns read, by role (`date=buchungstag;amount=betrag (eur);…`):
    /// one bank's layout, told from another's. Columns no role reads (a balance) are not in it.
    var layout: String {
        Role.allCases.compactMap { role in
            columns[role].map { "\(role)=" + $0.map { Self.normalize(names[$0]) }.joined(separator: "+") }
        }.joined(separator: ";")
    }

    private static func role(of key: String, overrides: [(Role, String?)]) -> Role? {
        let configured = overrides.filter { $0.1 != nil }
        if let (role, _) = configured.first(where: { normalize($0.1 ?? "") == key }) { return role }
        // A role the config names is found only by that name.
        let taken = Set(configured.map(\.0))
        return Self.known.first { $0.names.contains(key) && !taken.contains($0.role) }?.role
    }

    /// `Betrag (EUR)` → `betrag`; `Empfänger` → `empfaenger`: lowercase, umlauts spelled out, a
    /// trailing currency in brackets or after `in` dropped, spaces collapsed.
    static func normalize(_ name: String) -> String {
        var key = name.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        for (umlaut, spelled) in [("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")] {
            key = key.replacingOccurrences(of: umlaut, with: spelled)
        }
        for suffix in ["(eur)", "(€)", "(usd)", "($)", "(gbp)", "(£)", "(chf)", "in eur", "in €", "in usd", "in gbp"]
        where key.hasSuffix(suffix) {
            key = String(key.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
        }
        return key.split(separator: " ").joined(separator: " ")
    }

    private static let known: [(role: Role, names: Set<String>)] = [
        (
            .date,
            [
                "booking date", "posting date", "post date", "posted date", "transaction date", "trans. date", "trans date", "date",
                "buchungstag", "buchungsdatum", "datum", "buchung", "date posted",
            ]
        ),
        (.valueDate, ["value date", "wertstellung", "valuta", "valutadatum", "wertstellungsdatum", "wert"]),
        (.amount, ["amount", "betrag", "umsatz", "transaction amount", "billing amount", "betrag/eur"]),
        (
            .debit,
            [
                "debit", "debits", "debit amount", "withdrawal", "withdrawals", "withdrawal amount", "money out", "paid out", "soll",
                "ausgang", "belastung",
            ]
        ),
        (
            .credit,
            [
                "credit", "credits", "credit amount", "deposit", "deposits", "deposit amount", "money in", "paid in", "haben",
                "eingang", "gutschrift",
            ]
        ),
        (
            .indicator,
            [
                "soll/haben", "s/h", "debit/credit", "dr/cr", "cr/dr", "credit/debit", "debit/credit indicator",
                "credit/debit indicator", "credit debit indicator", "dr/cr indicator", "cr/dr indicator",
            ]
        ),
        (
            .payee,
            [
                "payee", "name", "beguenstigter/zahlungspflichtiger", "auftraggeber/empfaenger", "empfaenger", "auftraggeber",
                "zahlungsempfaenger", "zahlungspflichtiger", "counterparty", "merchant", "zahlungsempfaenger*in",
                "name zahlungsbeteiligter", "auftraggeber / beguenstigter", "empfaenger/auftraggeber",
            ]
        ),
        (
            .memo,
            [
                "description", "memo", "verwendungszweck", "transaction description", "narrative",
                "transaction details", "reference", "notes", "beschreibung", "note", "notiz", "bemerkung", "comment",
            ]
        ),
        (.fallbackMemo, ["details"]),
        (.category, ["category", "kategorie"]),
        (.type, ["type", "typ", "transaction type"]),
        (.reference, ["transaction id", "id", "reference number", "transaktions-id", "transaction reference", "fitid", "bank reference"]),
    ]
}
