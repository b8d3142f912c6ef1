import Foundation
import Testing
import ZIPFoundation

/// A workbook the reader refuses (password-protected, a damaged ZIP, a zip bomb) ends the run
/// with 78 when it is the configured remote, which the user must fix before anything syncs, and
/// with 65 when it is a file named to `check PATH` or `import PATH`; never 1. The message names
/// the file and, where there is one, the part.
@Suite struct XLSXRefusalExitCodeTests {
    enum Damage: String, CaseIterable, Sendable {
        case password, truncated, bomb, checksum
    }

    /// A workbook damaged as `damage` says, at `url`.
    static func make(_ damage: Damage, at url: URL) throws {
        switch damage {
        case .password:
            try FileManager.default.copyItem(at: XLSXFixture.url("password.xlsx"), to: url)
        case .truncated:
            let whole = try Data(contentsOf: XLSXFixture.url("ledger-xlsxwriter.xlsx"))
            try whole.prefix(whole.count / 2).write(to: url)
        case .bomb:
            // 20 MB of blanks inside the sheet: well-formed XML that deflates past 1000:1.
            try FileManager.default.copyItem(at: XLSXFixture.url("ledger-xlsxwriter.xlsx"), to: url)
            let archive = try Archive(url: url, accessMode: .update)
            let name = "xl/worksheets/sheet1.xml"
            let old = try #require(archive[name])
            try archive.remove(old)
            var body = Data(#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#.utf8)
            body.append(Data(repeating: UInt8(ascii: " "), count: 20_000_000))
            body.append(Data("</sheetData></worksheet>".utf8))
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(body.count), compressionMethod: .deflate) {
                position, size in body.subdata(in: Int(position)..<Int(position) + size)
            }
        case .checksum:
            // The sheet stored uncompressed, then one digit of a value changed in the file: only the
            // part's CRC-32 can tell (inflating cannot fail), and a changed value must not be read.
            try FileManager.default.copyItem(at: XLSXFixture.url("ledger-xlsxwriter.xlsx"), to: url)
            let name = "xl/worksheets/sheet1.xml"
            do {
                let archive = try Archive(url: url, accessMode: .update)
                let old = try #require(archive[name])
                var body = Data()
                _ = try archive.extract(old) { body.append($0) }
                try archive.remove(old)
                try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(body.count), compressionMethod: .none) {
                    position, size in body.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            var bytes = [UInt8](try Data(contentsOf: url))
            let value = try #require(
                (0..<bytes.count - 4).last { bytes[$0..<$0 + 3].elementsEqual("<v>".utf8) && (48...57).contains(bytes[$0 + 3]) })
            bytes[value + 3] = bytes[value + 3] == UInt8(ascii: "9") ? UInt8(ascii: "8") : bytes[value + 3] + 1
            try Data(bytes).write(to: url)
        }
    }

    /// What the message must name besides the file.
    static func detail(_ damage: Damage) -> String {
        switch damage {
        case .password: "password-protected; save a copy without a password"
        case .truncated: "book.xlsx"
        case .bomb: "part 'xl/worksheets/sheet1.xml'"
        case .checksum: "checksum mismatch"
        }
    }

    @Test(arguments: Damage.allCases)
    func theConfiguredRemoteIsRefusedWith78(_ damage: Damage) async throws {
        let book = try XLSXFixture("ledger-xlsxwriter.xlsx")
        try FileManager.default.removeItem(at: book.book)
        try Self.make(damage, at: book.book)
        let bytes = try Data(contentsOf: book.book)
        for command in [["sync"], ["pull"], ["check"]] {
            let run = try await book.run(command)
            #expect(run.status == 78, "\(command) on a \(damage) workbook: \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("book.xlsx"), "\(run.stderr)")
            #expect(run.stderr.contains(Self.detail(damage)), "\(run.stderr)")
        }
        #expect(try Data(contentsOf: book.book) == bytes, "the refused workbook was written")
    }

    @Test(arguments: Damage.allCases)
    func aFileNamedOnTheCommandLineIsRefusedWith65(_ damage: Damage) async throws {
        let book = try XLSXFixture("ledger-xlsxwriter.xlsx")
        #expect(try await book.run(["sync"]).status == 0)
        let other = book.folder.appendingPathComponent("other.xlsx")
        try Self.make(damage, at: other)
        let check = try await book.run(["check", other.path])
        #expect(check.status == 65, "check PATH on a \(damage) workbook: \(check.status) \(check.stderr)")
        #expect(check.stderr.contains("other.xlsx"), "\(check.stderr)")
        let imported = try await book.run(["import", other.path])
        #expect(imported.status == 65, "import PATH on a \(damage) workbook: \(imported.status) \(imported.stderr)")
        #expect(imported.stderr.contains("other.xlsx"), "\(imported.stderr)")
        #expect(try book.store("SELECT count(*) AS n FROM transactions").first?["n"] == "10")
    }
}
