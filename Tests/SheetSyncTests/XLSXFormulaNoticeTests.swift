import Foundation
import Testing
import ZIPFoundation

/// What an `.xlsx` write has to say comes back with the write (`RemoteWrite.notices`), not from state
/// the remote kept: a formula in a ledger cell that takes sheetsync's value is reported by the push.
@Suite struct XLSXFormulaNoticeTests {
    static let sheet = "xl/worksheets/sheet1.xml"

    /// Replaces one part of the workbook, as a spreadsheet program saving it would.
    static func replace(_ part: String, in book: URL, _ change: (String) -> String) throws {
        let archive = try Archive(url: book, accessMode: .update)
        let entry = try #require(archive[part])
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        try archive.remove(entry)
        let new = Data(change(String(decoding: data, as: UTF8.self)).utf8)
        try archive.addEntry(with: part, type: .file, uncompressedSize: Int64(new.count), compressionMethod: .deflate) { position, size in
            new.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    @Test func aFormulaInALedgerCellThatTakesAPushedValueIsReported() async throws {
        let fixture = try XLSXFixture("dressed-openpyxl.xlsx")
        let plain = #"<c r="I2" t="inlineStr"><is><t>Market</t></is></c>"#
        let formula = #"<c r="I2" t="str"><f>"Mar"&amp;"ket"</f><v>Market</v></c>"#
        try Self.replace(Self.sheet, in: fixture.book) { xml in
            #expect(xml.contains(plain))
            return xml.replacingOccurrences(of: plain, with: formula)
        }
        let pulled = try await fixture.run(["pull"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let id = "c09ca393-0084-5db0-a1be-912f4bec2b3d"
        #expect(try fixture.store("SELECT note FROM transactions WHERE transactionId = '\(id)'").first?["note"] == "Market")
        try fixture.execute("UPDATE transactions SET note = 'Corner shop' WHERE transactionId = '\(id)'")
        let pushed = try await fixture.run(["push", "--verbose"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(
            pushed.stdout.contains(#"note: book.xlsx: Transactions cell I2: formula '="Mar"&"ket"' replaced by the value 'Corner shop'"#),
            "\(pushed.stdout)")
        let cell = try #require(XLSXFixture.cellElement("I2", in: try fixture.part(Self.sheet)))
        #expect(cell.contains("Corner shop") && !cell.contains("<f>"), "\(cell)")
    }
}
