import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook
import ZIPFoundation

/// What 2,795 real workbooks showed: a ledger re-saved by LibreOffice with a customXml part
/// syncs, and each package-level refusal names the real problem, with a `--json` code and a hint of
/// its own.
@Suite struct XLSXRealFileTests {
    // MARK: a LibreOffice save

    /// `ledger-libreoffice-customxml.xlsx` is the ledger re-saved by LibreOffice 7.4 with a customXml part:
    /// `_rels/.rels` links it as `../customXml/item1.xml`, outside the package. `check` said 65 and `sync`
    /// 78 ("relationship target '../customXml/item1.xml' outside the package (refused)"), for good.
    @Test func aLedgerReSavedByLibreOfficeWithACustomXmlPartChecksAndSyncs() async throws {
        let book = try XLSXFixture("ledger-libreoffice-customxml.xlsx")
        let before = try book.parts()
        #expect(String(decoding: try #require(before["_rels/.rels"]), as: UTF8.self).contains(#"Target="../customXml/item1.xml""#))

        let check = try await book.run(["check"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("Transactions: 10 valid rows"), "\(check.stdout)")
        let first = try await book.run(["sync"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try book.store("SELECT count(*) AS n FROM transactions").first?["n"] == "10")

        let added = try await book.run(["add", "expense", "--amount", "3.50", "--category", "Dining", "--note", "after LibreOffice"])
        #expect(added.status == 0, "\(added.stderr)")
        let push = try await book.run(["sync"])
        #expect(push.status == 0, "\(push.stderr)")

        // The push changed the Transactions sheet and the workbook part (recalculate on load), nothing else.
        let after = try book.parts()
        #expect(Set(after.keys) == Set(before.keys))
        let changed = Set(before.keys.filter { before[$0] != after[$0] })
        #expect(changed == ["xl/worksheets/sheet1.xml", "xl/workbook.xml"], "\(changed.sorted())")
        for part in ["_rels/.rels", "customXml/item1.xml", "customXml/itemProps1.xml", "customXml/_rels/item1.xml.rels"] {
            #expect(after[part] == before[part], "\(part) changed")
        }
        #expect(String(decoding: after["xl/worksheets/sheet1.xml"] ?? Data(), as: UTF8.self).contains("after LibreOffice"))

        let again = try await book.run(["check"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Transactions: 11 valid rows"), "\(again.stdout)")
    }

    // MARK: refusals, each with its own code and hint

    enum Refusal: String, CaseIterable, Sendable {
        case password, csvText, openDocument, emptyZip, legacyXLS, damagedZip, checksum, missingWorkbookRelationships, junkPart

        /// The `--json` code, words the message must hold, and words the hint must hold.
        var expected: (code: String, message: [String], hint: String) {
            switch self {
            case .password: ("xlsx-password-protected", ["password-protected"], "remove the password")
            case .csvText: ("xlsx-not-a-package", ["not a ZIP archive", #"it begins with "date,amount"#], "reads Excel workbooks")
            case .openDocument: ("xlsx-other-format", ["OpenDocument spreadsheet", "save it as"], "save it as an Excel workbook")
            case .emptyZip: ("xlsx-not-a-package", ["empty ZIP archive"], "reads Excel workbooks")
            case .legacyXLS: ("xlsx-other-format", ["legacy Excel 97–2003 workbook (.xls)"], "save it as an Excel workbook")
            case .damagedZip: ("xlsx-damaged-package", ["cannot be read"], "restore it from a backup")
            case .checksum: ("xlsx-corrupt-part", ["checksum mismatch", "part 'xl/worksheets/sheet1.xml'"], "the file is damaged")
            case .missingWorkbookRelationships:
                ("xlsx-missing-part", ["part 'xl/_rels/workbook.xml.rels' is missing"], "lacks a part it needs")
            case .junkPart: ("xlsx-malformed-part", ["does not start as XML", #"it begins with "junk"#], "not valid spreadsheet XML")
            }
        }

        /// Writes the refused file at `url`.
        func make(at url: URL) throws {
            let ledger = XLSXFixture.url("ledger-xlsxwriter.xlsx")
            switch self {
            case .password, .damagedZip, .checksum:
                let damage: XLSXRefusalExitCodeTests.Damage = self == .password ? .password : self == .damagedZip ? .truncated : .checksum
                try XLSXRefusalExitCodeTests.make(damage, at: url)
            case .csvText:
                try Data("date,amount,note\n2026-01-02,12.50,lunch\n".utf8).write(to: url)
            case .openDocument:
                try Self.zip(
                    [("mimetype", "application/vnd.oasis.opendocument.spreadsheet"), ("META-INF/manifest.xml", "<manifest/>")], at: url)
            case .emptyZip:
                try Self.zip([(String, Data)](), at: url)
            case .legacyXLS:
                var bytes: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 504)
                bytes += Array("Workbook\0".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [UInt8](repeating: 0, count: 64)
                try Data(bytes).write(to: url)
            case .missingWorkbookRelationships:
                try Self.zip(
                    XLSXFixture.parts(of: ledger).filter { $0.key != "xl/_rels/workbook.xml.rels" }.map { ($0.key, $0.value) }, at: url)
            case .junkPart:
                var parts = try XLSXFixture.parts(of: ledger)
                parts["xl/worksheets/sheet2.xml"] = Data("junk before the XML ".utf8) + (parts["xl/worksheets/sheet2.xml"] ?? Data())
                try Self.zip(parts.map { ($0.key, $0.value) }, at: url)
            }
        }

        static func zip(_ parts: [(String, Data)], at url: URL) throws {
            let archive = try Archive(url: url, accessMode: .create)
            for (name, data) in parts.sorted(by: { $0.0 < $1.0 }) {
                try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
                    position, size in data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        }

        static func zip(_ parts: [(String, String)], at url: URL) throws {
            try zip(parts.map { ($0.0, Data($0.1.utf8)) } as [(String, Data)], at: url)
        }
    }

    static let dataHint = "fix the rows or tabs named in the message"

    @Test(arguments: Refusal.allCases)
    func aFileNamedOnTheCommandLineIsRefusedWithItsOwnCodeAndHint(_ refusal: Refusal) async throws {
        let folder = try TestWorkbook.scratch("refusal")
        let file = folder.appendingPathComponent("other.xlsx")
        try refusal.make(at: file)
        let check = try await CLI.run(["check", "--json", file.path], in: folder)
        #expect(check.status == 65, "\(refusal): \(check.status) \(check.stderr)")
        let error = try #require(check.json?["error"] as? [String: Any], "\(check.stdout)")
        let expected = refusal.expected
        #expect(error["code"] as? String == expected.code, "\(refusal): \(error)")
        #expect(error["kind"] as? String == "data")
        let message = try #require(error["message"] as? String)
        #expect(message.hasPrefix("other.xlsx: "), "\(message)")
        for words in expected.message { #expect(message.contains(words), "\(refusal): \(message)") }
        let hint = try #require(error["hint"] as? String)
        #expect(hint.contains(expected.hint), "\(refusal): \(hint)")
        #expect(!hint.contains(Self.dataHint), "\(refusal): \(hint)")
        // Without --json the hint goes to stderr after the message.
        let plain = try await CLI.run(["check", file.path], in: folder)
        #expect(plain.stderr.contains("hint: \(hint)"), "\(plain.stderr)")
    }

    @Test(arguments: [Refusal.openDocument, .checksum, .password])
    func theConfiguredWorkbookIsRefusedWith78AndTheSameCode(_ refusal: Refusal) async throws {
        let book = try XLSXFixture("ledger-xlsxwriter.xlsx")
        try FileManager.default.removeItem(at: book.book)
        try refusal.make(at: book.book)
        let sync = try await book.run(["sync", "--json"])
        #expect(sync.status == 78, "\(sync.stderr)")
        let error = try #require(sync.json?["error"] as? [String: Any], "\(sync.stdout)")
        #expect(error["code"] as? String == refusal.expected.code, "\(error)")
        #expect((error["hint"] as? String)?.contains(refusal.expected.hint) == true, "\(error)")
    }

    @Test func aFailureWithoutACodeOfItsOwnLeavesItOut() async throws {
        let folder = try TestWorkbook.scratch("refusal")
        let run = try await CLI.run(["check", "--json", folder.appendingPathComponent("nowhere.xlsx").path], in: folder)
        #expect(run.status == 64)
        let error = try #require(run.json?["error"] as? [String: Any], "\(run.stdout)")
        #expect(error["code"] == nil)
    }

    // MARK: a workbook that never was a ledger

    static func notALedger(at url: URL) throws {
        let budget = XLSXSheet(name: "Budget", table: Table(header: ["month", "planned"], rows: [[.text("January"), .number("900")]]))
        try XLSXWriter.write([budget], to: url)
    }

    @Test func aWorkbookWithNoneOfTheTabsIsSaidOnceNotToBeALedger() async throws {
        let folder = try TestWorkbook.scratch("not-a-ledger")
        let file = folder.appendingPathComponent("budget.xlsx")
        try Self.notALedger(at: file)
        let check = try await CLI.run(["check", file.path], in: folder)
        #expect(check.status == 65, "\(check.stderr)")
        let lines = check.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.contains("has none of the ledger's tabs (Transactions, Receipts, Categories, RecurringRules, Settings)"), "\(line)")
        #expect(line.contains("not a sheetsync ledger"), "\(line)")
        #expect(line.contains("`sheetsync init`") && line.contains("`sheetsync import PATH`"), "\(line)")
        #expect(!check.stderr.contains("restore it from a backup"), "\(check.stderr)")
    }

    /// As the configured workbook, the line says to run `init`, and `init` does what it says.
    @Test func theConfiguredWorkbookWithNoneOfTheTabsIsToldToInitAndInitWorks() async throws {
        let folder = try TestWorkbook.scratch("not-a-ledger")
        try Self.notALedger(at: folder.appendingPathComponent("book.xlsx"))
        try Data(#"{"store": "x.sqlite", "remote": {"type": "xlsx", "path": "book.xlsx"}}"#.utf8)
            .write(to: folder.appendingPathComponent("sheetsync.json"))
        let check = try await CLI.run(["check"], in: folder)
        #expect(check.status == 65, "\(check.stderr)")
        #expect(check.stderr.split(separator: "\n").count == 1, "\(check.stderr)")
        #expect(check.stderr.contains("To keep the ledger in this workbook, run `sheetsync init`"), "\(check.stderr)")
        #expect(try await CLI.run(["init"], in: folder).status == 0)
        let after = try await CLI.run(["check"], in: folder)
        #expect(after.status == 0, "\(after.stderr)")
        let sheets = try XLSXReader.sheetNames(contentsOf: folder.appendingPathComponent("book.xlsx"))
        #expect(sheets.first == "Budget" && sheets.count == 6, "\(sheets)")
    }

    /// A workbook that lost some of its tabs is still told, tab by tab, to put them back.
    @Test func aLedgerMissingSomeTabsStillGetsALineForEach() async throws {
        let book = try XLSXFixture("ledger-xlsxwriter.xlsx")
        let other = book.folder.appendingPathComponent("partial.xlsx")
        let sheets = try XLSXReader.read(contentsOf: book.book).filter { $0.name == "Transactions" || $0.name == "Settings" }
        try XLSXWriter.write(sheets, to: other)
        let check = try await CLI.run(["check", other.path, "--json"], in: book.folder)
        #expect(check.status == 65)
        #expect(check.report?.errors.map(\.code) == [.unreadableTab, .unreadableTab, .unreadableTab], "\(check.stdout)")
        #expect(Set(check.issues.compactMap(\.place.tab)) == [.receipts, .categories, .recurringRules], "\(check.stdout)")

        #expect(check.stderr.components(separatedBy: "restore it from a backup").count - 1 == 3, "\(check.stderr)")
    }
}
