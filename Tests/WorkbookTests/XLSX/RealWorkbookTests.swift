import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// Real files from other producers, checked against python-calamine's reading of them.
///
/// They live beside the repository in `../shared/fixtures/real-xlsx/` and are never copied into it;
/// a clone without that folder skips these tests, and the test report says why.
@Suite struct RealWorkbookTests {
    static let folder: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/real-xlsx")

    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("expected").path) }

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".xlsx") }.sorted()
    }

    struct Reading: Decodable {
        var sheets: [String: [[CalamineValue]]]
    }

    static let skipReason: Comment = "skipped: needs the real-xlsx fixtures in ../shared/fixtures/real-xlsx/ beside the repository"

    @Test(.enabled(if: available, skipReason), arguments: files)
    func readingAgreesWithCalamine(file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("expected/\(file).json"))
        let expected = try JSONDecoder().decode(Reading.self, from: data)
        let sheets = try XLSXReader.readRows(contentsOf: Self.folder.appendingPathComponent(file))
        #expect(Set(sheets.map(\.name)) == Set(expected.sheets.keys))
        for sheet in sheets {
            let mine = CalamineValue.usedRange(of: sheet.rows)
            let theirs = expected.sheets[sheet.name] ?? []
            #expect(mine.count == theirs.count, "\(file) '\(sheet.name)': row count")
            for (index, (row, reference)) in zip(mine, theirs).enumerated() {
                #expect(row.count == reference.count, "\(file) '\(sheet.name)' row \(index): width")
                for (column, (cell, value)) in zip(row, reference).enumerated() where !value.matches(cell) {
                    Issue.record("\(file) '\(sheet.name)' [\(index)][\(column)]: read \(cell), calamine \(value)")
                }
            }
        }
    }

    @Test(.enabled(if: available, skipReason))
    func errorCellsAreReportedWhereCalamineShowsEmptyText() throws {
        let sheets = try XLSXReader.readRows(contentsOf: Self.folder.appendingPathComponent("calamine-errors.xlsx"))
        let errors = sheets.first { $0.name == "Feuil1" }?.rows.map { $0.first }
        #expect(
            errors == ["#DIV/0!", "#NAME?", "#VALUE!", "#NULL!", "#REF!", "#NUM!", "#N/A"].map { Cell.error($0) })
    }
}

/// One cell as python-calamine's JSON shows it.
enum CalamineValue: Decodable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case date(String)
    case datetime(String)
    case duration(Double)

    private enum Keys: String, CodingKey { case date, datetime, duration_seconds }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if let value = try? single.decode(Bool.self) { self = .bool(value); return }
            if let value = try? single.decode(Double.self) { self = .number(value); return }
            if let value = try? single.decode(String.self) { self = .string(value); return }
        }
        let keyed = try decoder.container(keyedBy: Keys.self)
        if let value = try keyed.decodeIfPresent(String.self, forKey: .date) { self = .date(value); return }
        if let value = try keyed.decodeIfPresent(String.self, forKey: .datetime) { self = .datetime(value); return }
        self = .duration(try keyed.decode(Double.self, forKey: .duration_seconds))
    }

    var description: String {
        switch self {
        case .string(let s): "'\(s)'"
        case .number(let n): "\(n)"
        case .bool(let b): "\(b)"
        case .date(let d): "date \(d)"
        case .datetime(let d): "datetime \(d)"
        case .duration(let d): "duration \(d)s"
        }
    }

    /// Whether a cell read here is the value calamine read (error cells are empty text there).
    func matches(_ cell: Cell) -> Bool {
        switch (self, cell) {
        case (.string(""), .empty), (.string(""), .error): return true
        case (.string(let s), .text(let t)): return s == t
        // A double is read as a spreadsheet shows it, at 15 significant digits.
        case (.number(let n), .number(let t)): return t == DisplayedNumber.canonical("\(n)")
        case (.bool(let b), .bool(let c)): return b == c
        case (.duration(let seconds), .number(let t)): return abs((Double(t) ?? .nan) * 86_400 - seconds) < 0.001
        case (.date(let d), .dateSerial(let t)):
            guard let serial = Double(t), serial == serial.rounded(.down) else { return false }  // whole days
            return Self.isoDate(serial) == d
        case (.datetime(let d), .dateSerial(let t)):
            guard let serial = Double(t) else { return false }
            let seconds = (serial * 86_400).rounded()
            let day = (seconds / 86_400).rounded(.down)
            let time = Int(seconds - day * 86_400)
            let text = Self.isoDate(day) + String(format: "T%02d:%02d:%02d", time / 3600, time / 60 % 60, time % 60)
            return d.hasPrefix(text)
        default: return false
        }
    }

    /// The date `serial` days after 1899-12-30 (Howard Hinnant's civil-from-days).
    static func isoDate(_ serial: Double) -> String {
        let z = Int(serial) - 25_569 + 719_468  // 25,569 days from 1899-12-30 to 1970-01-01
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// The rectangle calamine reports: from the first to the last row and column holding a cell,
    /// padded with empty cells.
    static func usedRange(of rows: [[Cell]]) -> [[Cell]] {
        var firstRow = Int.max, lastRow = -1, firstColumn = Int.max, lastColumn = -1
        for (r, row) in rows.enumerated() {
            for (c, cell) in row.enumerated() where cell != .empty {
                firstRow = min(firstRow, r); lastRow = max(lastRow, r)
                firstColumn = min(firstColumn, c); lastColumn = max(lastColumn, c)
            }
        }
        guard lastRow >= 0 else { return [] }
        return rows[firstRow...lastRow].map { row in
            (firstColumn...lastColumn).map { $0 < row.count ? row[$0] : .empty }
        }
    }
}
