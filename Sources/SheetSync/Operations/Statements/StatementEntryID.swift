import Foundation
import SheetSyncCore
import Statements

/// The transaction id of a statement entry: the same entry gives the same id on every machine and
/// in every statement it appears in, which is what makes an import idempotent.
enum StatementEntryID {
    /// sheetsync's namespace for statement entries: `5d1c1d8e-3b8f-4f6a-9c3e-2b7a4f0e6d21`. Picked once;
    /// changing it would give every entry imported before a new id, and re-importing would duplicate it.
    static let namespace = UUID(
        uuid: (0x5d, 0x1c, 0x1d, 0x8e, 0x3b, 0x8f, 0x4f, 0x6a, 0x9c, 0x3e, 0x2b, 0x7a, 0x4f, 0x0e, 0x6d, 0x21))

    /// The ids of a statement's entries, in order. With the bank's reference (`FITID`, `AcctSvcrRef`,
    /// a transaction-id column) the id is of the account and that reference; without, of the account,
    /// date, direction, amount, text, and the entry's occurrence among equal entries of that day, so
    /// two equal coffees are two rows and stay two. An entry that names no account (a CSV export, a
    /// QIF file) stands in `source`'s: the bank's profile, else the export's layout
    /// (`source(profile:statement:)`), so two banks that both number entries from 1001 never merge.
    /// `notes` are the entries' notes (`StatementNote.text`), in order.
    static func ids(of entries: [StatementEntry], notes: [String], source: String) -> [String] {
        var occurrences = Occurrences()
        return zip(entries, notes).map { entry, note in
            let account = entry.account.isEmpty ? source : entry.account
            if let reference = entry.reference?.trimmingWhitespace(), !reference.isEmpty {
                return UUIDv5.make(namespace: namespace, name: "ref\u{1F}\(account)\u{1F}\(reference)")
            }
            let fingerprint = [
                "fp", account, entry.date.description, entry.direction.rawValue, entry.amount.description,
                StatementNote.folded(note),
            ].joined(separator: "\u{1F}")
            let occurrence = occurrences.count(
                fingerprint, account: account, day: entry.date.description, amount: entry.amount.description)
            return UUIDv5.make(namespace: namespace, name: "\(fingerprint)\u{1F}\(occurrence)")
        }
    }

    /// How often each fingerprint has come so far. Kept by day and amount (short ASCII texts, cheap to
    /// hash), each with its fingerprints compared as texts: a fingerprint holding `ü` or `€` costs a
    /// Unicode normalization to hash, where comparing it with the few of its day and amount is quick.
    /// The fingerprints counted together are the equal ones, as in a dictionary of them (an account
    /// holding the separator, which could make equal fingerprints of other days, keeps one list).
    struct Occurrences {
        private var byDay: [String: [(fingerprint: String, count: Int)]] = [:]

        /// The occurrence (1, 2, …) of `fingerprint`, an entry's of that account, day and amount, counting this one.
        mutating func count(_ fingerprint: String, account: String, day: String, amount: String) -> Int {
            let key = account.utf8.contains(0x1F) ? "" : day + "\u{1F}" + amount
            return Self.count(fingerprint, in: &byDay[key, default: []])
        }

        private static func count(_ fingerprint: String, in seen: inout [(fingerprint: String, count: Int)]) -> Int {
            if let index = seen.firstIndex(where: { $0.fingerprint == fingerprint }) {
                seen[index].count += 1
                return seen[index].count
            }
            seen.append((fingerprint, 1))
            return 1
        }
    }

    /// The account of a statement whose entries name none: the import profile it was read with
    /// (one per bank or account, docs/bank-statements.md), else its layout; empty when it has neither.
    static func source(profile: String?, statement: Statement) -> String {
        profile.map { "profile\u{1F}\($0)" } ?? statement.layout
    }
}

/// The note a statement entry's transaction gets: its payee and its memo, each with its spaces
/// collapsed, the memo left out when it only repeats the payee.
enum StatementNote {
    static func text(_ entry: StatementEntry) -> String {
        let payee = collapse(entry.payee)
        let memo = collapse(entry.memo)
        if payee.isEmpty || memo.lowercased() == payee.lowercased() { return memo.isEmpty ? payee : memo }
        if memo.isEmpty { return payee }
        return "\(payee) — \(memo)"
    }

    /// The text as a fingerprint compares it: lowercase, spaces collapsed.
    static func folded(_ text: String) -> String { collapse(text).lowercased() }

    private static func collapse(_ text: String) -> String {
        if isCollapsed(text) { return text }
        return text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    /// Whether `collapse` gives `text` back, as it does most payees and memos: told by the scalars
    /// where each `Character` is one (`StatementText.scansByBytes`), there being no whitespace but
    /// single spaces between other scalars.
    static func isCollapsed(_ text: String) -> Bool {
        guard StatementText.scansByBytes(text) else { return false }
        var afterSpace = true
        for scalar in text.unicodeScalars {
            let space = scalar == " "
            // ASCII's whitespace is told without Unicode's property tables: tab to carriage return, and the space.
            let whitespace = scalar.isASCII ? (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
            if space ? afterSpace : whitespace { return false }
            afterSpace = space
        }
        return !afterSpace || text.isEmpty
    }
}
