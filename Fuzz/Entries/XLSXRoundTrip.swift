import Foundation
import SheetSyncCore
import SheetValues
import Workbook

/// XLSX write → read must give back the cells written, up to what the writer documents it
/// changes: `.error` cells are written as text, numbers come back as a spreadsheet shows them (15
/// significant digits, no leading `+`), empty cells and rows are left out, and date serials may come
/// back in another spelling of the same instant.
enum XLSXRoundTrip {
    static func run(_ bytes: UnsafeRawBufferPointer) throws(PropertyViolation) {
        let sheets = sheets(from: Array(bytes))
        let url = FuzzScratch.url("RoundTrip.xlsx")
        defer { FuzzScratch.remove(url) }
        do {
            try XLSXWriter.write(sheets, to: url)
        } catch {
            // A refusal (a bad sheet name, a number that is not one, an overlong text) is loud, not lossy.
            return
        }
        let read: [XLSXRawSheet]
        do {
            read = try XLSXReader.readRows(contentsOf: url)
        } catch {
            throw PropertyViolation("the writer's workbook does not read back: \(error)")
        }
        guard read.map(\.name) == sheets.map(\.name) else {
            throw PropertyViolation("sheet names \(sheets.map(\.name)) read back as \(read.map(\.name))")
        }
        for (written, got) in zip(sheets, read) {
            let expected = trimmed(rows(of: written).map { $0.map(expectedCell) })
            let actual = trimmed(got.rows)
            guard same(expected, actual) else {
                throw PropertyViolation("sheet '\(written.name)': wrote \(expected), read back \(actual)")
            }
        }
    }

    /// Sheets from the input: lines (`\n`) are rows, tabs separate cells, and a cell's first byte
    /// picks its type. A line starting with `\u{1}` starts a new sheet named by the rest of the line.
    static func sheets(from bytes: [UInt8]) -> [XLSXSheet] {
        var sheets: [XLSXSheet] = []
        var name = "Transactions"
        var rows: [[Cell]] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.first == 0x01 {
                sheets.append(XLSXSheet(name: name, rows: rows))
                name = String(decoding: line.dropFirst(), as: UTF8.self)
                rows = []
                continue
            }
            rows.append(line.split(separator: 0x09, omittingEmptySubsequences: false).map(cell))
        }
        sheets.append(XLSXSheet(name: name, rows: rows))
        return sheets
    }

    static func cell(_ token: ArraySlice<UInt8>) -> Cell {
        guard let tag = token.first else { return .empty }
        let text = String(decoding: token.dropFirst(), as: UTF8.self)
        switch tag % 8 {
        case 3: return .number(text)
        case 4: return .bool(token.count % 2 == 0)
        case 5: return .dateSerial(text)
        case 6: return .error(text)
        default: return .text(text)
        }
    }

    /// The header as the text cells it is written as, then the data rows.
    static func rows(of sheet: XLSXSheet) -> [[Cell]] {
        [sheet.table.header.map { $0.isEmpty ? Cell.empty : Cell.text($0) }] + sheet.table.rows
    }

    static func expectedCell(_ cell: Cell) -> Cell {
        switch cell {
        case .text(let s): return s.isEmpty ? .empty : .text(s)
        // An error cell is written as an inline string, even an empty one (read back as `.text("")`).
        case .error(let s): return .text(s)
        // The reader gives numbers as a spreadsheet shows them (`DisplayedNumber`, 15 significant digits).
        case .number(let s): return .number(DisplayedNumber.canonical(s.hasPrefix("+") ? String(s.dropFirst()) : s))
        // A serial's leading `+` is not written either; a serial past a double's range (`+1E9999`) then
        // reads back as its text without it (crash-0aa4d675).
        case .dateSerial(let s) where s.hasPrefix("+"): return .dateSerial(String(s.dropFirst()))
        default: return cell
        }
    }

    /// Rows without their trailing empty cells, without trailing empty rows.
    static func trimmed(_ rows: [[Cell]]) -> [[Cell]] {
        var rows = rows.map { row in Array(row.reversed().drop(while: \.isEmpty).reversed()) }
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// Serials in [1, 2) are 1899-12-31, a day Excel's 1900 calendar does not have (its serial 1 is
    /// 1900-01-01), so they read back a day later. sheetsync never writes them: dates before 1900 are
    /// written as text (`FieldParser.cell`).
    /// The day is added as the reader adds it: to the number as a spreadsheet shows it (15 significant
    /// digits), in decimal. In doubles `1.0193 + 1` is one unit in the last place from `2.0193`
    /// (crash-ada4679d), and a 20-digit serial plus one rounds the other way (crash-64ac6184).
    /// A serial just below 2 that shows as 2 (`1.999999999999999`) is read as the day 2 shows
    /// (crash-a47f670d), and one just below 1 that shows as 1 (`0.9999999999999997`) as the day 1 shows
    /// (crash-42365beb): the writer leaves a serial below 2 as it is, the reader shifts what it shows.
    static func isExcelsMissingDay(_ written: String, _ read: String) -> Bool {
        let plain = written.hasPrefix("+") ? String(written.dropFirst()) : written
        let shown = DisplayedNumber.canonical(plain)
        guard let w = Double(plain), w < 2, let exact = Decimal(string: shown, locale: Locale(identifier: "en_US_POSIX")),
            exact >= 1
        else { return false }
        return DisplayedNumber.canonical((exact + 1).description) == DisplayedNumber.canonical(read)
    }

    static func same(_ expected: [[Cell]], _ actual: [[Cell]]) -> Bool {
        guard expected.count == actual.count else { return false }
        for (a, b) in zip(expected, actual) {
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where x != y {
                // Date serials come back as a spreadsheet shows the number (`-6022.` as `-6022`), so the
                // same number or the same instant counts as the same cell.
                guard case .dateSerial(let a) = x, case .dateSerial(let b) = y,
                    DisplayedNumber.canonical(a) == DisplayedNumber.canonical(b)
                        || (FieldParser.timestamp(x) != nil && FieldParser.timestamp(x) == FieldParser.timestamp(y))
                        || isExcelsMissingDay(a, b)
                else { return false }
            }
        }
        return true
    }
}
