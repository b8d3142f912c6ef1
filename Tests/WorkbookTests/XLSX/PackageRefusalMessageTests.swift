import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// Each refusal names the real problem (2,795 real workbooks showed messages that misled). The
/// files are built here: a ZIP archive by hand where the damage must be exact.
@Suite struct PackageRefusalMessageTests {
    static func refusal(_ url: URL) throws -> XLSXError {
        try #require(throws: XLSXError.self) { try XLSXReader.readRows(contentsOf: url) }
    }

    static func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = try XLSXTestFiles.scratch(name)
        try Data(bytes).write(to: url)
        return url
    }

    // MARK: no `_rels/.rels`

    @Test func anEmptyZipArchiveIsSaidToHoldNoParts() throws {
        let error = try Self.refusal(PartSet().write(named: "empty.xlsx"))
        #expect(error.kind == .notAPackage)
        #expect(error.kind.code == "xlsx-not-a-package")
        #expect(error.description == "empty.xlsx: is an empty ZIP archive (it holds no parts), not an XLSX workbook")
    }

    @Test func anOpenDocumentSpreadsheetRenamedIsNamedForWhatItIs() throws {
        var set = PartSet()
        set.add("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        set.add("META-INF/manifest.xml", "<manifest:manifest/>")
        set.add("content.xml", "<office:document-content/>")
        let error = try Self.refusal(set.write(named: "budget.xlsm"))
        #expect(error.kind == .otherFormat)
        #expect(error.kind.code == "xlsx-other-format")
        #expect(error.message.contains("is an OpenDocument spreadsheet (.ods)"), "\(error)")
        #expect(error.message.contains("save it as an Excel workbook (.xlsx)"), "\(error)")
        #expect(!error.message.contains("names no workbook part"))
    }

    @Test func aPackageMissingItsRelationshipsPartSaysThePartIsMissing() throws {
        var set = PartSet.workbook(sheetData: "")
        set.parts.removeAll { $0.0 == "_rels/.rels" }
        let error = try Self.refusal(set.write())
        #expect(error.kind == .missingPart)
        #expect(error.part == "_rels/.rels")
        #expect(error.message.hasPrefix("is missing from the package"), "\(error)")
    }

    @Test func aZipArchiveOfSomethingElseIsNotAPackage() throws {
        var set = PartSet()
        set.add("word/document.xml", "<w:document/>")
        let error = try Self.refusal(set.write(named: "letter.xlsx"))
        #expect(error.kind == .notAPackage)
        #expect(error.message == "is a ZIP archive but not an XLSX package: it has no '_rels/.rels' part (it holds 'word/document.xml')")
    }

    @Test func aBinaryWorkbookIsNamedForWhatItIs() throws {
        var set = PartSet()
        set.add("[Content_Types].xml", PartSet.contentTypes)
        set.add("_rels/.rels", PartSet.relationships([("rId1", "officeDocument", "xl/workbook.bin")]))
        set.add("xl/workbook.bin", data: Data([0x83, 0x01, 0x00]))
        let error = try Self.refusal(set.write())
        #expect(error.kind == .otherFormat)
        #expect(error.message.contains("Excel binary workbook (.xlsb)"), "\(error)")
    }

    // MARK: not a ZIP archive

    @Test func aLegacyExcelWorkbookIsNamedForWhatItIs() throws {
        var bytes = EncryptedWorkbook.oleSignature + [UInt8](repeating: 0, count: 504)
        bytes += Array("Workbook\0".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [UInt8](repeating: 0, count: 64)
        let error = try Self.refusal(Self.file("old.xlsx", bytes))
        #expect(error.kind == .otherFormat)
        #expect(error.message.contains("legacy Excel 97–2003 workbook (.xls)"), "\(error)")
        #expect(error.message.contains("save it as an Excel workbook (.xlsx)"), "\(error)")
    }

    @Test func anotherOLEFileIsALegacyOfficeDocument() throws {
        let bytes = EncryptedWorkbook.oleSignature + [UInt8](repeating: 0, count: 600)
        let error = try Self.refusal(Self.file("old.xlsx", bytes))
        #expect(error.kind == .otherFormat)
        #expect(error.message.contains("legacy Office document"), "\(error)")
    }

    @Test func aCSVFileRenamedSaysWhatItBeginsWith() throws {
        let error = try Self.refusal(Self.file("notes.xlsx", Array("date,amount,note\n2026-01-02,12.50,lunch\n".utf8)))
        #expect(error.kind == .notAPackage)
        #expect(
            error.description
                == #"notes.xlsx: is not an XLSX workbook (not a ZIP archive): it begins with "date,amount,note\n2026-01-02,12.5"…"#)
    }

    @Test func anEmptyFileIsSaidToBeEmpty() throws {
        let error = try Self.refusal(Self.file("zero.xlsx", []))
        #expect(error.kind == .notAPackage)
        #expect(error.message == "is empty (0 bytes), not an XLSX workbook")
    }

    @Test func anXMLSpreadsheet2003IsNamedForWhatItIs() throws {
        let xml = #"<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>"#
        let error = try Self.refusal(Self.file("xml.xlsx", Array(xml.utf8)))
        #expect(error.kind == .otherFormat)
        #expect(error.message.contains("XML Spreadsheet 2003"), "\(error)")
    }

    @Test func aPasswordProtectedWorkbookKeepsItsOwnKind() throws {
        let bytes = EncryptedWorkbook.oleSignature + [UInt8](repeating: 0, count: 200) + EncryptedWorkbook.streamName
        let error = try Self.refusal(Self.file("secret.xlsx", bytes))
        #expect(error.kind == .passwordProtected)
        #expect(error.kind.code == "xlsx-password-protected")
        #expect(error.message.contains("password-protected"))
    }

    // MARK: inside the package

    @Test func aMissingWorkbookRelationshipsPartIsNamedNotAnUndefinedId() throws {
        var set = PartSet.workbook(sheetData: "")
        set.parts.removeAll { $0.0 == "xl/_rels/workbook.xml.rels" }
        let error = try Self.refusal(set.write())
        #expect(error.kind == .missingPart)
        #expect(error.part == "xl/_rels/workbook.xml.rels")
        #expect(error.message.hasPrefix("is missing from the package"), "\(error)")
        #expect(!error.message.contains("not defined"), "\(error)")
    }

    @Test func anUndefinedIdNamesThePartThatShouldDefineIt() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace("xl/_rels/workbook.xml.rels", PartSet.relationships([("rId9", "worksheet", "worksheets/sheet1.xml")]))
        let error = try Self.refusal(set.write())
        #expect(error.kind == .missingPart)
        #expect(
            error.description
                == "book.xlsx: part 'xl/workbook.xml' lists sheet 'Sheet1' with relationship 'rId1', which 'xl/_rels/workbook.xml.rels' does not define"
        )
    }

    @Test func junkBeforeTheRootElementIsShownNotCalledAnEmptyDocument() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace("xl/worksheets/sheet1.xml", "garbage before <worksheet/>")
        let error = try Self.refusal(set.write())
        #expect(error.kind == .malformedPart)
        #expect(error.message == #"does not start as XML: it begins with "garbage before <worksheet/>""#)
        #expect(!error.message.contains("Document is empty"))
    }

    @Test(arguments: [
        ("   \n\t ", "holds no XML: it is only whitespace"),
        ("\u{FEFF}", "holds no XML: only a UTF-8 byte-order mark"),
        ("", "is empty (0 bytes) where an XML document was expected"),
        ("PK\u{3}\u{4}\u{14}\0\0\0", "does not start as XML: it begins with the bytes 50 4B 03 04 14 00 00 00 (a ZIP archive)"),
    ])
    func aPartWithoutXMLSaysWhatItHolds(content: String, message: String) throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace("xl/worksheets/sheet1.xml", content)
        let error = try Self.refusal(set.write())
        #expect(error.kind == .malformedPart)
        #expect(error.message == message)
    }

    @Test func badXMLAfterAnElementIsStillLibxml2sWords() throws {
        var set = PartSet.workbook(sheetData: "")
        set.replace("xl/worksheets/sheet1.xml", "<worksheet><sheetData></worksheet>")
        let error = try Self.refusal(set.write())
        #expect(error.kind == .malformedPart)
        #expect(error.message.hasPrefix("is not well-formed XML at line 1: "), "\(error)")
    }

    /// A stored part whose bytes changed (one `<` of the sheet made `!`) breaks the XML long before the
    /// part's last byte, where its CRC-32 is checked: the damage is reported, not the XML.
    @Test func aDamagedPartIsReportedAsDamagedEvenWhenItsXMLBreaksFirst() throws {
        let set = PartSet.workbook(sheetData: #"<row r="1"><c r="A1"><v>1</v></c></row>"#)
        var bytes = StoredZip.bytes(set.parts)
        let sheetData = Array("<sheetData>".utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: sheetData) })
        bytes[at] = UInt8(ascii: "!")
        let error = try Self.refusal(Self.file("damaged.xlsx", bytes))
        #expect(error.kind == .corruptPart)
        #expect(error.kind.code == "xlsx-corrupt-part")
        #expect(error.part == "xl/worksheets/sheet1.xml")
        #expect(error.message.contains("checksum mismatch"), "\(error)")
        #expect(!error.message.contains("well-formed"), "\(error)")
        // Undamaged, the same stored package reads.
        #expect(try XLSXReader.readRows(contentsOf: Self.file("intact.xlsx", StoredZip.bytes(set.parts))).first?.rows == [[.number("1")]])
    }

    @Test func everyKindHasItsOwnCode() {
        let codes = XLSXError.Kind.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.hasPrefix("xlsx-") })
    }
}

/// A ZIP archive of stored (uncompressed) entries, written byte by byte, so a test can change a part's
/// bytes in place and leave its recorded CRC-32 as it was.
enum StoredZip {
    static func bytes(_ parts: [(String, Data)]) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for (name, data) in parts {
            let nameBytes = Array(name.utf8)
            let crc = crc32(Array(data))
            let offset = UInt32(out.count)
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(nameBytes.count)) + le16(0)
            out += nameBytes + Array(data)
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            directory += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(nameBytes.count))
            directory += le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + nameBytes
        }
        let start = UInt32(out.count)
        out += directory
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(parts.count)) + le16(UInt16(parts.count))
        out += le32(UInt32(directory.count)) + le32(start) + le16(0)
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}

extension PackageRefusalMessageTests {
    @Test func aZipArchiveCutShortIsDamagedNotAnotherKindOfFile() throws {
        let whole = [UInt8](try Data(contentsOf: PartSet.workbook(sheetData: "").write()))
        let error = try Self.refusal(Self.file("cut.xlsx", Array(whole.prefix(whole.count / 2))))
        #expect(error.kind == .unreadablePackage)
        #expect(error.kind.code == "xlsx-damaged-package")
        #expect(error.message.contains("no end record"), "\(error)")
        #expect(!error.message.contains("not a ZIP"), "\(error)")
    }
}
