import Foundation
import SheetSyncCore

/// A bank's CSV or TSV export: the header found below any preamble (account, period), the table's
/// rows read until the summary lines below it, the delimiter (`,`, `;`, tab) and the forms of its
/// dates and amounts told from the file itself.
enum BankCSV {
    static func read(_ text: String, file: String, options: StatementOptions) throws(StatementError) -> Statement {
        guard let (records, header, headerIndex) = findTable(text, options: options) else {
            let delimiter: Character = text.contains("\t") ? "\t" : text.contains(";") ? ";" : ","
            throw StatementError(file: file, problem: missing(DelimitedRecords.split(text, delimiter: delimiter), options: options))
        }
        return try read(records, header: header, headerIndex: headerIndex, file: file, options: options)
    }

    /// A sheet's rows, each cell as text (`rows[i]` is row `i + 1`): the table found and read as in a
    /// CSV export, below any title rows.
    static func read(rows: [[String]], file: String, options: StatementOptions) throws(StatementError) -> Statement {
        let records = rows.enumerated().map { DelimitedRecords.Record(fields: $0.element, line: $0.offset + 1) }
        guard let (header, headerIndex) = findHeader(records, options: options) else {
            throw StatementError(file: file, problem: missing(records, options: options))
        }
        return try read(records, header: header, headerIndex: headerIndex, file: file, options: options)
    }

    private static func read(
        _ records: [DelimitedRecords.Record], header: BankCSVHeader, headerIndex: Int, file: String, options: StatementOptions
    ) throws(StatementError) -> Statement {
        let rows = tableRows(records[(headerIndex + 1)...], header: header)
        let dates = try DateColumn(
            values: rows.map { cell($0, header.date) }, configured: options.dateFormat, column: name(header, header.date), file: file)
        let amountColumns = [BankCSVHeader.Role.amount, .debit, .credit].compactMap { header.columns[$0] }.joined()
        let mark = DecimalMark.detect(rows.flatMap { row in amountColumns.map { cell(row, $0) } })
        var statement = Statement(format: .csv)
        statement.layout = header.layout
        for row in rows {
            if row.fields.allSatisfy({ $0.trimmingWhitespace().isEmpty }) { continue }
            do throws(StatementError) {
                statement.entries.append(try entry(row, header: header, dates: dates, mark: mark, options: options, file: file))
            } catch {
                statement.refused.append(error)
            }
        }
        return statement
    }

    /// The records split by the first delimiter under which a header row shows a date and an amount
    /// column, with that header and its index.
    private static func findTable(
        _ text: String, options: StatementOptions
    ) -> ([DelimitedRecords.Record], BankCSVHeader, Int)? {
        // The header is among the first records: only those are split to look for it, the whole text
        // once, under the delimiter that shows one.
        for delimiter: Character in ["\t", ";", ","] {
            let head = DelimitedRecords.split(text, delimiter: delimiter, limit: headerSearch)
            if let (header, index) = findHeader(head, options: options) {
                return (DelimitedRecords.split(text, delimiter: delimiter), header, index)
            }
        }
        return nil
    }

    /// How many records from the top a header may be found in (below an export's preamble).
    private static let headerSearch = 40

    /// The first of the first `headerSearch` records that reads as a header with a date and an amount column.
    private static func findHeader(_ records: [DelimitedRecords.Record], options: StatementOptions) -> (BankCSVHeader, Int)? {
        for (index, record) in records.prefix(headerSearch).enumerated() where record.fields.count > 1 {
            let header = BankCSVHeader(record.fields, configured: options.columns)
            if header.isComplete { return (header, index) }
        }
        return nil
    }

    /// The rows under the header down to the last row with a date: the lines below it are the
    /// export's summary (closing balance, totals), not entries.
    private static func tableRows(_ records: ArraySlice<DelimitedRecords.Record>, header: BankCSVHeader) -> [DelimitedRecords.Record] {
        guard let last = records.lastIndex(where: { DateColumn.looksLikeDate(cell($0, header.date)) }) else { return [] }
        return Array(records[..<(last + 1)])
    }

    private static func entry(
        _ row: DelimitedRecords.Record, header: BankCSVHeader, dates: DateColumn, mark: Character?, options: StatementOptions,
        file: String
    ) throws(StatementError) -> StatementEntry {
        let dateText = cell(row, header.date)
        guard let date = dates.parse(dateText) else { throw StatementError(file: file, line: row.line, problem: .badDate(dateText)) }
        let (amount, direction) = try money(row, header: header, mark: mark, options: options, file: file)
        let text = { (role: BankCSVHeader.Role) in
            (header.columns[role] ?? []).map { cell(row, $0) }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        let reference = text(.reference)
        var entry = StatementEntry(
            date: date, amount: amount, direction: Self.direction(of: text(.type)) ?? direction, payee: text(.payee), memo: text(.memo),
            reference: reference.isEmpty ? nil : reference, line: row.line)
        entry.category = text(.category)
        return entry
    }

    /// The amount and its direction: a signed amount column (with `expenseSign`; a `CR`/`DR` mark on
    /// the amount or a Soll/Haben, Dr/Cr indicator column beside it wins over the sign), or a pair of
    /// money-out and money-in columns.
    private static func money(
        _ row: DelimitedRecords.Record, header: BankCSVHeader, mark: Character?, options: StatementOptions, file: String
    ) throws(StatementError) -> (Amount, StatementEntry.Direction) {
        func read(_ column: Int) throws(StatementError) -> StatementAmount? {
            let text = cell(row, column)
            if text.isEmpty { return nil }
            guard let amount = StatementAmount.parse(text, decimalMark: mark) else {
                throw StatementError(file: file, line: row.line, problem: .badAmount(text))
            }
            return amount
        }
        if let column = header.columns[.amount]?.first {
            guard let amount = try read(column) else { throw StatementError(file: file, line: row.line, problem: .badAmount("")) }
            if let marked = amount.marked { return (amount.magnitude, marked) }
            if let indicator = header.columns[.indicator]?.first {
                let flag = cell(row, indicator).lowercased()
                if let first = flag.first, "shdc".contains(first) {
                    return (amount.magnitude, "sd".contains(first) ? .outgoing : .incoming)
                }
            }
            let out = amount.negative == (options.expenseSign == .negative)
            return (amount.magnitude, out ? .outgoing : .incoming)
        }
        let debit = try header.columns[.debit]?.first.map { c throws(StatementError) in try read(c) } ?? nil
        let credit = try header.columns[.credit]?.first.map { c throws(StatementError) in try read(c) } ?? nil
        switch (debit.flatMap { $0.magnitude.isZero ? nil : $0 }, credit.flatMap { $0.magnitude.isZero ? nil : $0 }) {
        case (let out?, nil): return (out.magnitude, .outgoing)
        case (nil, let into?): return (into.magnitude, .incoming)
        case (nil, nil):
            if let zero = debit ?? credit { return (zero.magnitude, .outgoing) }
            throw StatementError(file: file, line: row.line, problem: .missingField("amount (both money-out and money-in are empty)"))
        case (let out?, let into?):
            throw StatementError(
                file: file, line: row.line,
                problem: .malformed("both money out (\(out.magnitude)) and money in (\(into.magnitude)) are filled; which is it?"))
        }
    }

    /// A budget sheet's `Type`: `expense`/`income` (`Ausgabe`/`Einnahme`), or a `Transaction Type` of
    /// `debit`/`credit` beside an unsigned amount (a budgeting app's export); a bank's own types
    /// (`DEBIT_CARD`, `Direct debit`) say nothing here, and the amount's sign decides.
    private static func direction(of type: String) -> StatementEntry.Direction? {
        switch type.lowercased() {
        case "expense", "ausgabe", "debit": return .outgoing
        case "income", "einnahme", "credit": return .incoming
        default: return nil
        }
    }

    /// Why a table is no bank statement: the columns of its widest early row, and the one missing.
    private static func missing(_ records: [DelimitedRecords.Record], options: StatementOptions) -> StatementError.Problem {
        let records = records.prefix(headerSearch)
        guard let widest = records.max(by: { $0.fields.count < $1.fields.count }), widest.fields.count > 1 else {
            return .unknownFormat("no lines with columns")
        }
        let header = BankCSVHeader(widest.fields, configured: options.columns)
        return .missingColumn(header.date == nil ? "date" : "amount", found: widest.fields.map { $0.trimmingWhitespace() })
    }

    private static func cell(_ row: DelimitedRecords.Record, _ column: Int?) -> String {
        guard let column, column < row.fields.count else { return "" }
        return row.fields[column].trimmingWhitespace()
    }

    private static func name(_ header: BankCSVHeader, _ column: Int?) -> String {
        guard let column, column < header.names.count else { return "" }
        return header.names[column].trimmingWhitespace()
    }
}
