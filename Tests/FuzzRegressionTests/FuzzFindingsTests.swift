import Foundation
import SheetSyncCore
import Testing
import Workbook

/// The bugs the fuzz targets found, each shown on the real write path: a canonical value written to
/// an `.xlsx` workbook as sheetsync writes it, read back by the reader, must be the same value, or
/// the next sync takes the changed cell for a user's edit and changes the store.
@Suite struct FuzzFindingsTests {
    static func writtenAndReadBack(_ value: String, field: String) throws -> (cell: Cell, read: Result<String, FieldProblem>) {
        let spec = try #require(Tab.transactions.schema.field(named: field))
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
        let (cell, read) = try Self.writtenAndReadBack(amount, field: "amount")
        #expect(read == .success(amount), "written as \(cell)")
    }

    /// `fields` (seed `0001-01-01`): a date before 1900 was written as a negative date serial, which no
    /// reader takes for a date (the row was rejected on the next read), and 1899-12-31 as serial 1,
    /// which Excel's calendar (and the reader) shows as 1900-01-01.
    @Test(arguments: ["1850-01-01", "0001-01-01", "1899-12-31"])
    func aDateBeforeNineteenHundredReadsBackUnchanged(_ date: String) throws {
        let (cell, read) = try Self.writtenAndReadBack(date, field: "date")
        #expect(read == .success(date), "written as \(cell)")
    }

    /// Ordinary values stay typed cells (numbers a `SUM()` counts, date cells).
    @Test func ordinaryAmountsAndDatesStayTypedCells() throws {
        let amount = try Self.writtenAndReadBack("123456789012.50", field: "amount")
        #expect(amount.cell == .number("123456789012.50"))
        #expect(amount.read == .success("123456789012.50"))
        let date = try Self.writtenAndReadBack("1900-01-01", field: "date")
        #expect(date.cell == .dateSerial("2"))
        #expect(date.read == .success("1900-01-01"))
    }
}
