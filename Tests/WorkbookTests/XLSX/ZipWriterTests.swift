import Foundation
import Testing

@testable import Workbook

/// The hand-written ZIP writer: every entry reads back byte for byte (the reader checks each part's
/// CRC-32 and sizes), whatever its size against the writer's buffers.
@Suite struct ZipWriterTests {
    /// Text that deflates about as well as a worksheet does, without being a bomb to the reader's limits.
    static func text(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes += Array("<c r=\"A\(state >> 40)\"><v>\(state >> 33 % 100_000)</v></c>".utf8)
        }
        return Array(bytes.prefix(count))
    }

    static func write(_ parts: [(String, [UInt8])], to url: URL, chunk: Int = 1 << 20) throws {
        let writer = try ZipWriter(path: url.path)
        for (name, bytes) in parts {
            try writer.add(name) { sink in
                for start in stride(from: 0, to: bytes.count, by: chunk) {
                    sink.append(bytes: bytes[start..<min(start + chunk, bytes.count)])
                    try sink.flushIfFull()
                }
            }
        }
        try writer.finish()
    }

    @Test func everyEntryReadsBackByteForByte() throws {
        // Empty, one byte, around the 256 KiB output buffer and the sink's 1 MiB chunk, several MiB,
        // random bytes (deflate makes them bigger), and a UTF-8 name.
        var random = SystemRandomNumberGenerator()
        let parts: [(String, [UInt8])] = [
            ("[Content_Types].xml", []),
            ("a.xml", [0x41]),
            ("xl/worksheets/sheet1.xml", Self.text(256 * 1024, seed: 1)),
            ("xl/worksheets/sheet2.xml", Self.text((1 << 20) + 1, seed: 2)),
            ("xl/worksheets/sheet3.xml", Self.text(5 << 20, seed: 3)),
            ("xl/media/random.bin", (0..<700_000).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ("xl/media/Kassenbon-Café.xml", Self.text(3000, seed: 4)),
        ]
        let url = try XLSXTestFiles.scratch("zip.xlsx")
        try Self.write(parts, to: url, chunk: 100_003)

        let package = try XLSXPackage(url: url)
        #expect(package.entryNames == parts.map(\.0))
        for (name, bytes) in parts {
            #expect(try [UInt8](package.data(name)) == bytes, "\(name)")
        }
    }

    @Test func theSameEntriesGiveTheSameBytes() throws {
        let parts = [("xl/workbook.xml", Self.text(10_000, seed: 5)), ("xl/styles.xml", Self.text(500, seed: 6))]
        let first = try XLSXTestFiles.scratch("one.xlsx")
        let second = try XLSXTestFiles.scratch("two.xlsx")
        try Self.write(parts, to: first)
        try Self.write(parts, to: second, chunk: 7)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    @Test func aNameGivenTwiceIsRefused() throws {
        let url = try XLSXTestFiles.scratch("twice.xlsx")
        let writer = try ZipWriter(path: url.path)
        try writer.add("xl/workbook.xml") { $0.append(bytes: [0x41]) }
        #expect(throws: ZipWriter.Failure.self) { try writer.add("xl/workbook.xml") { $0.append(bytes: [0x42]) } }
    }

    @Test func aFolderThatIsNotThereIsNamedInTheError() throws {
        let url = try XLSXTestFiles.scratch("missing").appendingPathComponent("book.xlsx")
        let error = try #require(throws: ZipWriter.Failure.self) { _ = try ZipWriter(path: url.path) }
        #expect(error.description.contains(url.path))
        #expect(error.description.contains("No such file or directory"))
    }

    @Test func aProducerThatFailsLeavesItsErrorAndNoPackage() throws {
        struct Stop: Error {}
        let url = try XLSXTestFiles.scratch("stopped.xlsx")
        let writer = try PackageWriter(url: url)
        #expect(throws: Stop.self) { try writer.add("xl/worksheets/sheet1.xml") { _ in throw Stop() } }
        // Never finished: no central directory, so nothing reads it as a package.
        #expect(throws: XLSXError.self) { _ = try XLSXPackage(url: url) }
    }
}
