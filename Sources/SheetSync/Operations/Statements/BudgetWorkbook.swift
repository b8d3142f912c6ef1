import Foundation
import SheetSyncCore
import SheetValues
import Statements
import Workbook

/// A budget kept in an `.xlsx` with its own columns (a title row above the header, maybe one sheet per
/// year): each sheet's table found and read as a bank's CSV export's is (`StatementReader.read(rows:)`).
struct BudgetWorkbook {
    /// The entries of every sheet read, in workbook order.
    var statement = Statement(format: .csv)
    /// The sheet each entry of `statement` came from.
    var sheetOfEntry: [String] = []
    var sheetsRead: [String] = []
    /// Sheets an all-sheets read left out: no date and amount columns (a summary, a chart's data).
    var sheetsSkipped: [String] = []

    /// Whether `import` reads `url` as a budget: an `.xlsx` whose sheets are asked for (`--sheet`), or
    /// one without the ledger's `Transactions` sheet. One that cannot be opened is not: the workbook
    /// import names its problem.
    static func isBudget(_ url: URL, sheets: [String]) -> Bool {
        guard XLSXWorkbookRemote.isWorkbookFile(url) else { return false }
        if !sheets.isEmpty { return true }
        guard let names = try? XLSXReader.sheetNames(contentsOf: url) else { return false }
        return !names.contains { $0.lowercased() == Tab.transactions.rawValue.lowercased() }
    }

    /// The sheets named in `wanted` (every sheet when empty) of the workbook at `url`. A name the
    /// workbook lacks is refused (78) naming the sheets it has; a sheet named that holds no table is
    /// refused as a CSV without one is, and skipped (and named) when every sheet is read.
    init(_ url: URL, sheets wanted: [String], options: StatementOptions) throws {
        let file = url.lastPathComponent
        let sheets: [XLSXRawSheet]
        do {
            let names = try XLSXReader.sheetNames(contentsOf: url)
            let unknown = wanted.filter { name in !names.contains { $0.lowercased() == name.lowercased() } }
            guard unknown.isEmpty else {
                throw SheetSyncError.configuration(
                    "\(file) has no sheet \(unknown.map { "'\($0)'" }.joined(separator: ", ")); its sheets: "
                        + names.map { "'\($0)'" }.joined(separator: ", "),
                    hint: "name one of its sheets with --sheet, or leave --sheet out to read every sheet")
            }
            sheets = try XLSXReader.readRows(contentsOf: url, sheets: wanted.isEmpty ? nil : Set(wanted))
        } catch let error as XLSXError {
            throw SheetSyncError.refusing(error, exitCode: .dataError)
        }
        // One source for every sheet: a year's entries keep their ids whichever sheets an import reads.
        statement.layout = "xlsx budget"
        for sheet in sheets {
            let read: Statement
            do {
                read = try StatementReader.read(
                    rows: sheet.rows.map { $0.map(Self.text) }, file: "\(file) sheet '\(sheet.name)'", options: options)
            } catch {
                guard wanted.isEmpty, case .missingColumn = error.problem else { throw error }
                sheetsSkipped.append(sheet.name)
                continue
            }
            sheetsRead.append(sheet.name)
            statement.entries += read.entries
            statement.refused += read.refused
            sheetOfEntry += Array(repeating: sheet.name, count: read.entries.count)
        }
        guard !sheetsRead.isEmpty else {
            throw StatementError(file: file, problem: .missingColumn("date and amount", found: []))
        }
    }

    /// A cell as the statement reader takes it: a date cell as its ISO date, a number as its exact text.
    private static func text(_ cell: Cell) -> String {
        if case .dateSerial = cell, let date = FieldParser.date(cell) { return date.description }
        return cell.rawText
    }
}
