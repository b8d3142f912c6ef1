import Foundation
import SheetSyncCore
import TestSupport
import Testing

/// Seeded ledgers in the three shapes the benchmarks time (`bench/generate.py`), small enough for a
/// test: the clean sample's Settings, Categories and RecurringRules with generated Transactions (notes
/// with commas, quotes and line breaks; quoted tag lists) and about one receipt in fifteen.
enum LedgerShape: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// As sheetsync writes them: `…T08:00:00.000Z`, ISO dates, `12.50`.
    case canonical
    /// As people and spreadsheet programs type them, every row valid under the standard forms: dates
    /// `3/4/2026` and `03/04/2026` beside ISO ones, amounts `$1,234.50`, `1,234.50`, `12.5`, `1234`, times
    /// with and without milliseconds and with offsets, `Expense`/`Paid`, tags `food, weekly`, two columns
    /// of the user's own, the sheet sorted by date.
    case user
    /// `canonical` with one transaction in a hundred broken, each kind in turn: a category that does not
    /// exist, an amount that does not read, an id copied from an earlier row; a receipt points at each
    /// of them, and one at no transaction at all.
    case dirty

    var testDescription: String { rawValue }

    static let categories: [(name: String, type: String)] = [
        ("Groceries", "expense"), ("Rent", "expense"), ("Dining", "expense"), ("Transport", "expense"), ("Utilities", "expense"),
        ("Gifts", "both"),
    ]
    static let notes = [
        "", "", "Market", "Lunch with Sam", "Big shop, \"organic\" stuff", "Dinner, drinks and dessert", "Line one\nline two",
        "Split with Jo, Kim and Lee", "Café Central, Wien",
    ]
    static let tags = ["", "", "food", "food,weekly", "trip,summer", "health,kids"]
    static let merchants = ["", "REWE", "Aldi Süd", "Café Central, Wien", "Kino \"Lichtburg\""]

    /// The workbook, and how many transactions are broken (`dirty`; 0 otherwise).
    func book(transactions count: Int, seed: UInt64 = 11) throws -> (book: PlainLoadTests.Book, broken: Int) {
        var random = SeededRandom(seed: seed)
        var book = try PlainLoadTests.clean()
        let rules = (book[.recurringRules] ?? []).dropFirst().map { $0[0] }
        var transactions: [[String]] = []
        var receipts: [[String]] = []
        var dates: [String] = []
        var broken = 0
        for n in 0..<count {
            let seconds = Double(random.next(below: 300 * 86_400)) + Double(random.next(below: 1000)) / 1000
            let created = Date(timeIntervalSince1970: 1_767_254_400 + seconds)
            let modified = random.next(below: 4) == 0 ? created.addingTimeInterval(Double(random.next(below: 86_400))) : created
            var row = canonicalRow(id: Self.uuid(&random), created: created, modified: modified, rules: rules, &random)
            if self == .user { row = typed(row, created: created, modified: modified, &random) }
            if self == .dirty, n % 100 == 50 {
                Self.breakRow(&row, kind: broken % 3, earlier: transactions, &random)
                broken += 1
                receipts.append(receipt(for: row[0], created: created, &random))
            } else if random.next(below: 15) == 0 {
                receipts.append(receipt(for: row[0], created: created, &random))
            }
            transactions.append(row)
            dates.append(Self.utc(created).date)
        }
        if self == .dirty { receipts.append(receipt(for: "11111111-2222-4333-8444-555555555555", created: Date(), &random)) }
        var header = book[.transactions]?[0] ?? []
        if self == .user {
            header = Array(header[..<6]) + ["Merchant"] + Array(header[6...]) + ["Account"]
            transactions = transactions.indices.sorted { (dates[$0], $0) < (dates[$1], $1) }.map { transactions[$0] }
        }
        book[.transactions] = [header] + transactions
        book[.receipts] = [book[.receipts]?[0] ?? []] + receipts
        return (book, broken)
    }

    /// A transaction as sheetsync writes it.
    private func canonicalRow(id: String, created: Date, modified: Date, rules: [String], _ random: inout SeededRandom) -> [String] {
        let income = random.next(below: 12) == 0
        let category = income ? "Salary" : Self.categories[random.next(below: Self.categories.count)].name
        let cents = income ? 100_000 + random.next(below: 800_000) : 1 + random.next(below: 60_000)
        let day = Self.utc(created)
        let rule = random.next(below: 20) == 0 ? rules[random.next(below: rules.count)] : ""
        return [
            id, income ? "income" : "expense", day.date, String(day.year), String(day.month), Self.amount(cents), category,
            Self.tags[random.next(below: Self.tags.count)], Self.notes[random.next(below: Self.notes.count)],
            ["paid", "paid", "unpaid", ""][random.next(below: 4)], ["", "", "reimbursed", "unreimbursed"][random.next(below: 4)], rule,
            stamp(created, &random), stamp(modified, &random),
        ]
    }

    /// The same transaction as a person types it, with the user's two columns.
    private func typed(_ row: [String], created: Date, modified: Date, _ random: inout SeededRandom) -> [String] {
        var row = row
        if random.next(below: 3) == 0 { row[1] = row[1].capitalized }
        if random.next(below: 3) == 0 { row[9] = row[9].capitalized }
        let day = Self.utc(created)
        switch random.next(below: 4) {
        case 0: break
        case 1: row[2] = "\(day.month)/\(day.day)/\(day.year)"
        default: row[2] = String(format: "%02d/%02d/%d", day.month, day.day, day.year)
        }
        let parts = row[5].split(separator: ".").map(String.init)
        let whole = Int(parts[0]) ?? 0
        let grouped = Self.grouped(whole) + "." + parts[1]
        switch random.next(below: 5) {
        case 0: row[5] = "$" + grouped
        case 1: row[5] = grouped
        case 2 where parts[1].hasSuffix("0"): row[5] = parts[0] + "." + parts[1].prefix(1)
        case 3 where parts[1] == "00": row[5] = parts[0]
        default: break
        }
        row[7] = row[7].replacingOccurrences(of: ",", with: ", ")
        return Array(row[..<6]) + [Self.merchants[random.next(below: Self.merchants.count)]] + Array(row[6...])
            + [["", "Visa", "Cash"][random.next(below: 3)]]
    }

    /// One of the ways people break a row: a category that does not exist, an amount that does not
    /// read, an id copied from an earlier row.
    private static func breakRow(_ row: inout [String], kind: Int, earlier: [[String]], _ random: inout SeededRandom) {
        switch kind {
        case 0: row[6] += row[6].hasSuffix("s") ? "es" : "s"
        case 1:
            row[5] =
                [row[5].replacingOccurrences(of: ".", with: ","), String(row[5].dropLast()) + "O", "-" + row[5]][random.next(below: 3)]
        default: row[0] = earlier[random.next(below: earlier.count)][0]
        }
    }

    private func receipt(for transaction: String, created: Date, _ random: inout SeededRandom) -> [String] {
        let id = Self.uuid(&random)
        let time = stamp(created, &random)
        return [id, transaction, "drive-" + id.prefix(13), "\(transaction)_1.jpg", time, time]
    }

    /// A time as the shape spells it (`user`: a third without milliseconds, a third with, a third in
    /// local time with an offset).
    private func stamp(_ date: Date, _ random: inout SeededRandom) -> String {
        let pick = self == .user ? random.next(below: 6) : 2
        let hours = pick == 4 ? 1 : pick == 5 ? -5 : 0
        let t = Self.utc(date.addingTimeInterval(Double(hours * 3600)))
        let time = String(format: "%@T%02d:%02d:%02d", t.date, t.hour, t.minute, t.second)
        switch pick {
        case 0, 1: return time + "Z"
        case 2, 3: return time + String(format: ".%03dZ", t.millisecond)
        default: return time + (hours > 0 ? "+01:00" : "-05:00")
        }
    }

    /// `1234567` as `1,234,567`.
    private static func grouped(_ whole: Int) -> String {
        let digits = Array(String(whole))
        var text = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    private static func amount(_ cents: Int) -> String { String(format: "%d.%02d", cents / 100, cents % 100) }

    private static func uuid(_ random: inout SeededRandom) -> String {
        let hex = String(format: "%016llx%016llx", random.next(), random.next())
        let chars = Array(hex)
        func part(_ r: Range<Int>) -> String { String(chars[r]) }
        return [part(0..<8), part(8..<12), "4" + part(13..<16), "8" + part(17..<20), part(20..<32)].joined(separator: "-")
    }

    private static func utc(_ date: Date) -> (
        date: String, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int
    ) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let (y, m, d) = (c.year ?? 0, c.month ?? 0, c.day ?? 0)
        let ms = Int((date.timeIntervalSince1970 * 1000).rounded()) % 1000
        return (String(format: "%04d-%02d-%02d", y, m, d), y, m, d, c.hour ?? 0, c.minute ?? 0, c.second ?? 0, ms)
    }
}
