import Foundation
import SheetSyncCore
import SheetValues
import TestSupport
import Testing

@testable import Workbook

/// What sheetsync writes, openpyxl (and python-calamine, and LibreOffice after re-saving it) read
/// back with the same values. Runs `scripts/xlsx/crosscheck.py`; skipped where python3 with
/// openpyxl is not installed (`pip install openpyxl python-calamine`).
@Suite struct CrossCheckTests {
    static let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/xlsx/crosscheck.py")

    static let python = ExternalTools.python
    static var hasOpenpyxl: Bool { ExternalTools.hasOpenpyxl }
    static var hasLibreOffice: Bool { ExternalTools.hasLibreOffice }

    static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        try ExternalTools.run(executable, arguments)
    }

    /// A cell as the script reports it.
    enum Seen: Decodable, Equatable {
        case text(String), number(Double), bool(Bool), date(String)

        private enum Keys: String, CodingKey { case s, n, b, d }

        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: Keys.self)
            if let value = try keyed.decodeIfPresent(String.self, forKey: .s) {
                self = .text(value)
            } else if let value = try keyed.decodeIfPresent(Double.self, forKey: .n) {
                self = .number(value)
            } else if let value = try keyed.decodeIfPresent(Bool.self, forKey: .b) {
                self = .bool(value)
            } else {
                self = .date(try keyed.decode(String.self, forKey: .d))
            }
        }

        /// What another reader should see for a cell sheetsync wrote.
        static func expected(_ cell: Cell) -> Seen? {
            switch cell {
            case .empty: return nil
            case .text(let s): return s.isEmpty ? nil : .text(s)
            case .error(let s): return .text(s)
            case .number(let s): return Double(s).map(Seen.number)
            case .bool(let b): return .bool(b)
            case .dateSerial(let s):
                guard let serial = Double(s) else { return nil }
                let seconds = Int((serial * 86_400).rounded())
                let date = CalamineValue.isoDate(Double(seconds / 86_400))
                let time = seconds % 86_400
                if time == 0 { return .date(date) }
                return .date(date + String(format: "T%02d:%02d:%02d", time / 3600, time / 60 % 60, time % 60))
            }
        }
    }

    /// The writer tests' ledger without the texts other readers cannot give back: openpyxl leaves
    /// `_xHHHH_` escapes in inline strings undecoded (so control characters and a literal
    /// `_x000D_` come back escaped); LibreOffice turns `\r\n` into `\n` and keeps 15 significant
    /// digits. sheetsync's own round trip covers those.
    static let sheets = [
        XLSXSheet(
            name: "Transactions",
            table: Table(
                header: XLSXWriterTests.ledger.table.header,
                rows: XLSXWriterTests.ledger.table.rows.map { row in
                    row.map { cell in
                        switch cell {
                        case .text(let text) where text.contains("_x") || text.contains("\r"): .text("plain & simple")
                        case .number(let text) where text.count > 15: .number("1234567890.12345")
                        default: cell
                        }
                    }
                })),
        XLSXSheet(
            name: "Dates & Flags",
            table: Table(
                header: ["date", "when", "flag", "amount"],
                rows: [
                    [.dateSerial("46000"), .dateSerial("46000.5"), .bool(false), .number("0.30")],
                    [.dateSerial("61"), .dateSerial("45000.25"), .bool(true), .number("-1234567.89")],
                ])),
    ]

    typealias Readings = [String: [String: [[Seen?]]]]

    static func readings(of url: URL) throws -> Readings {
        let python = try #require(Self.python)
        var arguments = [script.path, url.path]
        if hasLibreOffice { arguments.append("--libreoffice") }
        let result = try run(python, arguments)
        #expect(result.status == 0)
        let readings = try JSONDecoder().decode(Readings.self, from: result.output)
        #expect(readings["openpyxl"] != nil)
        return readings
    }

    static func expectSheets(_ sheets: [XLSXSheet], in readings: Readings) {
        for (reader, seen) in readings {
            for sheet in sheets {
                let rows = [sheet.table.header.map(Cell.text)] + sheet.table.rows
                let expected: [[Seen?]] = rows.map { row in
                    var cells = row.map(Seen.expected)
                    while cells.last == .some(nil) { cells.removeLast() }
                    return cells
                }
                #expect(seen[sheet.name] == expected, "\(reader) read sheet '\(sheet.name)' differently")
            }
        }
    }

    @Test(.enabled(if: hasOpenpyxl)) func otherReadersSeeTheValuesSheetsyncWrote() throws {
        let url = try XLSXTestFiles.scratch("crosscheck.xlsx")
        try XLSXWriter.write(Self.sheets, to: url)
        Self.expectSheets(Self.sheets, in: try Self.readings(of: url))
    }

    @Test(.enabled(if: hasOpenpyxl)) func otherReadersSeeAPreservingWriteAndTheUntouchedSheets() throws {
        let original = try XLSXTestFiles.fixture("libreoffice-types.xlsx")
        let url = try XLSXTestFiles.scratch("crosscheck.xlsx")
        var replaced = Self.sheets[1]
        replaced.name = "Types"
        try XLSXWriter.write([replaced, Self.sheets[0]], to: url, preservingOtherSheetsFrom: original)
        let before = try Self.readings(of: original)
        let after = try Self.readings(of: url)
        Self.expectSheets([replaced, Self.sheets[0]], in: after)
        for (reader, sheets) in before {
            #expect(after[reader]?["R&D ü"] == sheets["R&D ü"], "\(reader) read the untouched sheet differently")
            #expect(after[reader]?["Hidden"] == sheets["Hidden"], "\(reader) read the hidden sheet differently")
        }
    }

    @Test(.enabled(if: hasOpenpyxl)) func otherReadersOpenARewriteInsideAFormattedTab() throws {
        let url = try XLSXTestFiles.scratch("crosscheck.xlsx")
        var replaced = Self.sheets[0]
        replaced.name = "Transactions"
        try XLSXWriter.write([replaced], to: url, preservingOtherSheetsFrom: XLSXTestFiles.fixture("openpyxl-formatted.xlsx"))
        let after = try Self.readings(of: url)
        Self.expectSheets([replaced], in: after)
        for (reader, sheets) in after {
            #expect(sheets["Notes"] == [[.text("my own notes")]], "\(reader) lost the Notes sheet")
        }
    }
}
