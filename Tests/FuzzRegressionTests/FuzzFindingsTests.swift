import Foundation
import FuzzEntries
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// The bugs the fuzz targets found, each shown on the real write path: a canonical value written to
/// an `.xlsx` workbook as sheetsync writes it, read back by the reader, must be the same value, or
/// the next sync takes the changed cell for a user's edit and changes the store.
@Suite struct FuzzFindingsTests {
    static func writtenAndReadBack(_ value: String, field: FieldKey) throws -> (cell: Cell, read: Result<String, FieldProblem>) {
        let spec = try #require(Tab.transactions.schema.field(field))
        let cell = FieldParser.cell(value, spec, typed: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-findings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Ledger.xlsx")
        try XLSXWriter.write([XLSXSheet(name: "Transactions", table: Table(header: [spec.header], rows: [[cell]]))], to: url)
        let sheets = try XLSXReader.read(contentsOf: url)
        let read = try #require(sheets.first?.table.rows.first?.first)
        return (cell, FieldParser.canonical(read, spec))
    }

    /// `fields` (seed `99999999999999999999`): an amount of more than 15 digits was written as a number
    /// cell, which a spreadsheet keeps as a double: `12345678901234567.89` read back as `12345678901234600.00`.
    @Test(arguments: ["12345678901234567.89", "99999999999999999999.00", "0.0000000000000001"])
    func anAmountOfMoreDigitsThanADoubleKeepsReadsBackUnchanged(_ amount: String) throws {
        let (cell, read) = try Self.writtenAndReadBack(amount, field: .amount)
        #expect(read == .success(amount), "written as \(cell)")
    }

    /// `fields` (seed `0001-01-01`): a date before 1900 was written as a negative date serial, which no
    /// reader takes for a date (the row was rejected on the next read), and 1899-12-31 as serial 1,
    /// which Excel's calendar (and the reader) shows as 1900-01-01.
    @Test(arguments: ["1850-01-01", "0001-01-01", "1899-12-31"])
    func aDateBeforeNineteenHundredReadsBackUnchanged(_ date: String) throws {
        let (cell, read) = try Self.writtenAndReadBack(date, field: .date)
        #expect(read == .success(date), "written as \(cell)")
    }

    /// Ordinary values stay typed cells (numbers a `SUM()` counts, date cells).
    @Test func ordinaryAmountsAndDatesStayTypedCells() throws {
        let amount = try Self.writtenAndReadBack("123456789012.50", field: .amount)
        #expect(amount.cell == .number("123456789012.50"))
        #expect(amount.read == .success("123456789012.50"))
        let date = try Self.writtenAndReadBack("1900-01-01", field: .date)
        #expect(date.cell == .dateSerial("2"))
        #expect(date.read == .success("1900-01-01"))
    }
}

/// Values the readers accepted but whose canonical text no reader accepts back: the store kept them,
/// wrote them to the sheet, and the next read rejected the row.
@Suite struct FuzzFindingsOutOfRangeTests {
    static func canonical(_ cell: Cell, _ field: FieldKey) throws -> Result<String, FieldProblem> {
        FieldParser.canonical(cell, try #require(Tab.transactions.schema.field(field)))
    }

    static func readsBack(_ value: String, _ field: FieldKey) throws -> Bool {
        try canonical(.text(value), field) == .success(value)
    }

    /// `fields` (crash-cb5256f9…, the number `2960465`): date serials up to 3,000,000 were taken for dates,
    /// up to the year 10,113; the last date a spreadsheet has is 9999-12-31 (serial 2958465).
    @Test func aDateSerialPastTheYear9999IsNoDate() throws {
        #expect(try Self.canonical(.number("2958465"), .date) == .success("9999-12-31"))
        #expect(try Self.canonical(.number("2958465.5"), .createdAt) == .success("9999-12-31T12:00:00.000Z"))
        for serial in ["2958466", "2960465", "2999999", "2958465.99999999999"] {
            #expect(try Self.canonical(.number(serial), .date).isFailure, "\(serial)")
            #expect(try Self.canonical(.dateSerial(serial), .createdAt).isFailure, "\(serial)")
        }
    }

    /// `fields` (crash-71f3abb1, the release run of 2026-11-26 after 1427 CPU-s): an exponent of Int.min
    /// (`5E-9223372036854775808`) trapped in `abs` while its size was checked, in any amount cell or
    /// number read as a date, stopping the process. It is refused like any exponent past ±400.
    @Test(arguments: ["5E-9223372036854775808", "1e-9223372036854775808", "5E9223372036854775807", "5E-401"])
    func aNumberWithAnEnormousExponentIsRefusedNotATrap(_ text: String) throws {
        #expect(try Self.canonical(.text(text), .amount).isFailure)
        #expect(try Self.canonical(.number(text), .amount).isFailure)
        #expect(try Self.canonical(.number(text), .date).isFailure)
    }

    /// `fields` (timestamp-after-9999, timestamp-before-0001): a zone offset carried a timestamp past
    /// 9999-12-31 or before 0001-01-01, whose canonical text (`10000-01-01T00:59:00.000Z`) is no timestamp.
    @Test func aTimestampOutsideTheYears1To9999IsRefused() throws {
        #expect(try Self.canonical(.text("9999-12-31T23:59:00-01:00"), .createdAt).isFailure)
        #expect(try Self.canonical(.text("0001-01-01T00:30+01:00"), .createdAt).isFailure)
        #expect(try Self.readsBack("9999-12-31T23:59:59.999Z", .createdAt))
        #expect(try Self.readsBack("0001-01-01T00:00:00.000Z", .createdAt))
        #expect(try Self.canonical(.text("0001-01-01T01:30+01:00"), .createdAt) == .success("0001-01-01T00:30:00.000Z"))
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

/// Worksheets whose few bytes made the reader lay out millions of empty cells.
@Suite struct FuzzFindingsWorksheetMemoryTests {
    static func read(worksheetRows rows: String) throws -> Result<[XLSXSheet], any Error> {
        let xml =
            #"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
            + "<sheetData>\(rows)</sheetData></worksheet>"
        let data = try #require(FuzzPackage.workbook(selector: 0, xml: Array(xml.utf8)))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-wide-\(UUID().uuidString).xlsx")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return Result { try XLSXReader.read(contentsOf: url) }
    }

    /// `xlsx-part` (Fuzz/regressions/xlsx-part/wide-rows): 2,500 rows of one cell in column XFD, 113 KiB
    /// of XML, laid out 41 million empty cells (1.4 GB, 11 s under ASan). Such a sheet is refused,
    /// naming the part; a sheet with a few far cells still reads.
    @Test func aSheetOfFarCellsIsRefusedNotLaidOut() throws {
        let rows = (1...2500).map { #"<row r="\#($0)"><c r="XFD\#($0)"><v>1</v></c></row>"# }.joined()
        let result = try Self.read(worksheetRows: rows)
        guard case .failure(let error) = result, let xlsx = error as? XLSXError else {
            Issue.record("read: \(result)")
            return
        }
        #expect(xlsx.part == "xl/worksheets/sheet1.xml")
        #expect(xlsx.description.contains("empty ones"))

        let few = (1...20).map { #"<row r="\#($0)"><c r="A\#($0)"><v>1</v></c><c r="XFD\#($0)"><v>2</v></c></row>"# }.joined()
        let sheet = try #require(try Self.read(worksheetRows: few).get().first)
        #expect(sheet.table.rows.count == 19)
        #expect(sheet.table.rows.last?.count == 16_384)
        #expect(sheet.table.rows.last?.last == .number("2"))
    }
}

/// The XLSX reader's refusals of a damaged container.
@Suite struct FuzzFindingsPackageTests {
    /// `xlsx-package` (crash-58f9cf38, the release run of 2026-11-26 after 349 CPU-s): an entry whose ZIP64
    /// field declares an inflated size of 2^63 bytes or more trapped in `Int64(_:)`, stopping the
    /// process. It is refused as too large, naming the part, before a byte is inflated.
    @Test func aPartDeclaringAnImpossibleSizeIsRefusedNotATrap() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-findings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Ledger.xlsx")
        try XLSXWriter.write([XLSXSheet(name: "Transactions", table: Table(header: ["id"], rows: [[.text("a")]]))], to: url)
        var bytes = [UInt8](try Data(contentsOf: url))
        #expect(try XLSXReader.read(contentsOf: url).first?.table.rows == [[.text("a")]])

        // xl/workbook.xml's central directory record: its size field says "see the ZIP64 field",
        // which says 2^63; the directory's size in the end record grows by the 12 bytes added.
        let name = Array("xl/workbook.xml".utf8)
        let record = try #require(
            bytes.indices.first { i in
                i + 46 + name.count <= bytes.count && bytes[i..<i + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02])
                    && bytes[i + 46..<i + 46 + name.count].elementsEqual(name)
            })
        bytes.replaceSubrange(record + 24..<record + 28, with: [0xFF, 0xFF, 0xFF, 0xFF])
        bytes.replaceSubrange(record + 30..<record + 32, with: [12, 0])
        bytes.insert(contentsOf: [0x01, 0x00, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x80], at: record + 46 + name.count)
        let end = try #require(bytes.indices.last { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual([0x50, 0x4B, 0x05, 0x06]) })
        let size = bytes[end + 12..<end + 16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } + 12
        bytes.replaceSubrange(end + 12..<end + 16, with: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        try Data(bytes).write(to: url)

        let error = try #require(throws: XLSXError.self) { _ = try XLSXReader.read(contentsOf: url) }
        #expect(error.part == "xl/workbook.xml")
        #expect(error.description.contains("9223372036854775808 bytes inflated, past the"), "\(error)")
    }
}

/// The XLSX writer's refusals.
@Suite struct FuzzFindingsWriterTests {
    /// `xlsx-roundtrip` (crash-fee88e0a…): a date serial that is no number (`3.\0 spaced `) was not refused
    /// but written as the number `2`: `Double` and `Decimal` read the text only up to the NUL. The writer
    /// refuses it, naming the cell, as it refuses any number that is not one.
    @Test(arguments: ["3.\0 spaced ", "12abc", "4x"])
    func aDateSerialThatIsNoNumberIsRefused(_ serial: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-serial-\(UUID().uuidString).xlsx")
        defer { try? FileManager.default.removeItem(at: url) }
        let sheet = XLSXSheet(name: "Transactions", table: Table(header: ["date"], rows: [[.dateSerial(serial)]]))
        #expect(throws: XLSXError.self) { try XLSXWriter.write([sheet], to: url) }
        #expect(DateSerial.stored(serial, uses1904: false) == serial)
        #expect(DateSerial.stored(serial, uses1904: true) == serial)
    }

    /// `xlsx-roundtrip` (crash-2310befc…): `023.` skipped the 1900-calendar correction (its leading zero
    /// counted as a digit), so it was stored as 23 and read back as 24; `+1` likewise.
    @Test func aSerialWithLeadingZerosGetsTheSameCorrection() {
        #expect(DateSerial.stored("023.", uses1904: false) == DateSerial.stored("23", uses1904: false))
        #expect(DateSerial.stored("023.", uses1904: false) == "22")
        #expect(DateSerial.stored("+05", uses1904: false) == "4")
    }

    /// `xlsx-roundtrip` (crash-941eaf58…): `4005e-3` (4.005) skipped it too, its digits before the
    /// exponent counted as the integer part, so it was stored as 4.005 and read back as 5.005. Every
    /// spelling of a serial below 61 gets the correction.
    @Test func aSerialWithAnExponentGetsTheSameCorrection() {
        for spelling in ["4005e-3", "4.005E0", "0.4005e1", "+4005E-3", "40.05e-1"] {
            #expect(DateSerial.stored(spelling, uses1904: false) == "3.005", "\(spelling)")
        }
        #expect(DateSerial.stored("6e1", uses1904: false) == "59")
        #expect(DateSerial.stored("61e0", uses1904: false) == "61e0")
        #expect(DateSerial.stored("4.5e4", uses1904: false) == "4.5e4")
    }
}
