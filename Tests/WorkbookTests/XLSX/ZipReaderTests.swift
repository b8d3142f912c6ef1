import Foundation
import Testing

@testable import Workbook

/// The hand-written ZIP reader never reads past an entry's own bytes: a directory that points at no
/// local header, an entry that runs into the directory, or a deflate stream cut short is refused,
/// naming the part, at once (ZIPFoundation's inflater read on to the end of the file and spun there
/// forever: FUZZING.md finding 14).
@Suite struct ZipReaderTests {
    /// A package of three text parts written by `ZipWriter`, as bytes, with the offset of the central
    /// directory record of `xl/workbook.xml`.
    static let parts = [
        ("[Content_Types].xml", ZipWriterTests.text(2000, seed: 1)),
        ("xl/workbook.xml", ZipWriterTests.text(50_000, seed: 2)),
        ("xl/styles.xml", ZipWriterTests.text(3000, seed: 3)),
    ]

    static func package() throws -> (bytes: [UInt8], record: Int) {
        let url = try XLSXTestFiles.scratch("book.xlsx")
        try ZipWriterTests.write(parts, to: url)
        let bytes = [UInt8](try Data(contentsOf: url))
        let name = Array("xl/workbook.xml".utf8)
        let record = try #require(
            bytes.indices.first { i in
                i + 46 + name.count <= bytes.count && bytes[i..<i + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02])
                    && bytes[i + 46..<i + 46 + name.count].elementsEqual(name)
            })
        return (bytes, record)
    }

    static func put32(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    static func get32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    /// Reads `xl/workbook.xml` of `bytes`: the error, or nil when it reads.
    static func readError(_ bytes: [UInt8]) throws -> XLSXError? {
        let url = try XLSXTestFiles.scratch("damaged.xlsx")
        try Data(bytes).write(to: url)
        do {
            _ = try XLSXPackage(url: url).data("xl/workbook.xml")
            return nil
        } catch let error as XLSXError {
            return error
        }
    }

    @Test func anIntactPackageReadsEveryPartAsWritten() throws {
        let (bytes, _) = try Self.package()
        let url = try XLSXTestFiles.scratch("intact.xlsx")
        try Data(bytes).write(to: url)
        let package = try XLSXPackage(url: url)
        for (name, written) in Self.parts {
            #expect(package.declaredSize(name) == written.count, "\(name)")
            #expect([UInt8](try package.data(name)) == written, "\(name)")
        }
        #expect(!package.contains("xl/worksheets/sheet1.xml"))
    }

    @Test func aDirectoryPointingAtNoLocalHeaderIsRefused() throws {
        var (bytes, record) = try Self.package()
        Self.put32(Self.get32(bytes, at: record + 42) + 7, in: &bytes, at: record + 42)
        let error = try #require(try Self.readError(bytes))
        #expect(error.part == "xl/workbook.xml")
        #expect(error.description.contains("no local header"), "\(error)")
    }

    @Test func anEntryRunningIntoTheDirectoryIsRefused() throws {
        var (bytes, record) = try Self.package()
        Self.put32(UInt32(bytes.count), in: &bytes, at: record + 20)  // compressed size: the whole file
        let error = try #require(try Self.readError(bytes))
        #expect(error.part == "xl/workbook.xml")
        #expect(error.description.contains("runs past the end"), "\(error)")
    }

    @Test func aDeflateStreamCutShortIsRefused() throws {
        var (bytes, record) = try Self.package()
        Self.put32(Self.get32(bytes, at: record + 20) / 2, in: &bytes, at: record + 20)  // half its bytes
        let error = try #require(try Self.readError(bytes))
        #expect(error.part == "xl/workbook.xml")
        #expect(error.description.contains("ends before its compressed data does"), "\(error)")
    }

    /// The release run's input (`Fuzz/regressions/xlsx-package/hang-163b35b8…`): `xl/styles.xml`'s
    /// directory record points into another part's bytes, and the directory runs past the end record.
    /// The package is refused when it opens, saying why.
    @Test func theFuzzersHangingPackageIsRefused() throws {
        let input = CLIRoot.url.appendingPathComponent(
            "Fuzz/regressions/xlsx-package/hang-163b35b8060fbfb231b694f78d4bf8fd38b66e4f")
        let url = try XLSXTestFiles.scratch("hang.xlsx")
        try FileManager.default.copyItem(at: input, to: url)
        let error = try #require(throws: XLSXError.self) { _ = try XLSXPackage(url: url) }
        #expect(
            error.description
                == "hang.xlsx: cannot be read: its ZIP archive has a central directory outside the file (a damaged copy? restore it from a backup)"
        )
    }
}

/// The repository's root folder.
enum CLIRoot {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
