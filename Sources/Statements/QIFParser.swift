import Foundation
import SheetSyncCore

/// Quicken Interchange Format: `!Type:Bank` (or `CCard`, `Cash`, `Oth A`, `Oth L`) sections of
/// records, one field a line (`D` date, `T`/`U` amount, `P` payee, `M` memo, `N` number, `L`
/// category), each record ended by `^`. Lists (`!Type:Cat`, `!Type:Class`, `!Type:Memorized`) and
/// `!Account` blocks are skipped; an investment section (`!Type:Invst`) is refused, its amounts
/// being trades rather than money in and out.
enum QIFParser {
    struct Record {
        var fields: [Character: String] = [:]
        var line = 0
    }

    static func read(_ text: String, file: String, options: StatementOptions) throws(StatementError) -> Statement {
        let records = try self.records(text, file: file)
        let dates = try DateColumn(
            values: records.map { quickenYear($0.fields["D"] ?? "") }, configured: options.dateFormat, column: "D (date)", file: file)
        var statement = Statement(format: .qif)
        for record in records {
            do throws(StatementError) {
                statement.entries.append(try entry(record, dates: dates, file: file))
            } catch {
                statement.refused.append(error)
            }
        }
        return statement
    }

    /// The transaction records of the file's money sections.
    private static func records(_ text: String, file: String) throws(StatementError) -> [Record] {
        var records: [Record] = []
        var current = Record()
        var inTransactions = false
        var sawHeader = false
        for (offset, raw) in StatementText.lines(text).enumerated() {
            let line = raw.trimmingWhitespace()
            guard let code = line.first else { continue }
            if code == "!" {
                sawHeader = true
                let header = line.lowercased()
                if header.hasPrefix("!type:invst") {
                    throw StatementError(
                        file: file, line: offset + 1,
                        problem: .unknownFormat("an investment account (!Type:Invst) holds trades, not payments"))
                }
                if header.hasPrefix("!type:") {
                    inTransactions = ["bank", "ccard", "cash", "oth a", "oth l"].contains { header.dropFirst(6).hasPrefix($0) }
                }
                // `!Account` starts an account block (ended by ^), `!Option`/`!Clear` switch modes.
                if header.hasPrefix("!account") { inTransactions = false }
                continue
            }
            guard inTransactions else { continue }
            if code == "^" {
                if !current.fields.isEmpty { records.append(current) }
                current = Record()
                continue
            }
            if current.fields.isEmpty { current.line = offset + 1 }
            // Split lines (S, E, $) belong to the record's total `T`; the first value of a code wins.
            if current.fields[code] == nil { current.fields[code] = String(line.dropFirst()) }
        }
        if !current.fields.isEmpty { records.append(current) }
        guard sawHeader else { throw StatementError(file: file, problem: .unknownFormat("a QIF file starts with a !Type line")) }
        return records
    }

    private static func entry(_ record: Record, dates: DateColumn, file: String) throws(StatementError) -> StatementEntry {
        guard let dateText = record.fields["D"] else {
            throw StatementError(file: file, line: record.line, problem: .missingField("D (date)"))
        }
        guard let date = dates.parse(quickenYear(dateText)) else {
            throw StatementError(file: file, line: record.line, problem: .badDate(dateText))
        }
        guard let amountText = record.fields["T"] ?? record.fields["U"] else {
            throw StatementError(file: file, line: record.line, problem: .missingField("T (amount)"))
        }
        guard let amount = StatementAmount.parse(amountText) else {
            throw StatementError(file: file, line: record.line, problem: .badAmount(amountText))
        }
        return StatementEntry(
            date: date, amount: amount.magnitude, direction: amount.negative ? .outgoing : .incoming,
            payee: record.fields["P"] ?? "", memo: record.fields["M"] ?? "", line: record.line)
    }

    /// Quicken's years: `1/ 2'05` is 2005 (an apostrophe marks this century), `1/2/98` is 1998;
    /// spaces padding the day or month are dropped.
    static func quickenYear(_ text: String) -> String {
        let compact = text.filter { $0 != " " }
        if let apostrophe = compact.lastIndex(of: "'") {
            let year = compact[compact.index(after: apostrophe)...]
            return compact[..<apostrophe] + "/" + (year.count == 2 ? "20" + year : String(year))
        }
        let parts = compact.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, parts[2].count == 2 { return parts[0] + "/" + parts[1] + "/19" + parts[2] }
        return compact
    }
}
