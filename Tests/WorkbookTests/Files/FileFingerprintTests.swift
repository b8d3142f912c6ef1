import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct FileFingerprintTests {
    private static let vectors: [(String, UInt64)] = [
        ("", 0xEF46_DB37_51D8_E999),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("sheetsync", 0x4E90_625C_A1B3_9B72),
        (String(repeating: "x", count: 31), 0x60DD_0D01_083B_99F0),
        (String(repeating: "y", count: 32), 0x64DA_1F1D_3495_CE66),
        ("0123456789abcdef0123456789abcdef0123456789", 0xA761_90C3_ACF0_8A1C),
    ]

    @Test(arguments: vectors)
    func contentHashMatchesTheXXH64ReferenceVectors(input: String, expected: UInt64) {
        #expect(ContentHash.xxh64(Array(input.utf8)) == expected)
    }

    @Test func contentHashMatchesTheReferenceOnLongInputAndHonoursTheSeed() {
        let long = Array((0..<3).flatMap { _ in (0...255).map(UInt8.init) }) + Array("xyz".utf8)
        #expect(ContentHash.xxh64(long) == 0xE921_A1B4_5BD7_79F8)
        #expect(Array("abc".utf8).withUnsafeBytes { ContentHash.xxh64($0, seed: 7) } == 0x9E75_5206_1566_76D7)
    }

    /// The hash of pieces (a file read a chunk at a time) is the hash of the whole.
    @Test func aHashInPiecesIsTheHashOfTheWhole() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 3) }
        for split in [0, 32, 64, 960] {
            for end in [split, split + 1, split + 31, split + 32, split + 33, 1000] where end <= 1000 {
                let pieces = bytes.withUnsafeBytes { whole -> UInt64 in
                    var stream = ContentHash.Stream(seed: 5)
                    stream.add(stripes: UnsafeRawBufferPointer(rebasing: whole[0..<split]))
                    return stream.finish(last: UnsafeRawBufferPointer(rebasing: whole[split..<end]))
                }
                #expect(pieces == Array(bytes[0..<end]).withUnsafeBytes { ContentHash.xxh64($0, seed: 5) }, "\(split) + \(end - split)")
            }
        }
    }

    /// Pieces of any length (a writer's chunks) hash as the whole.
    @Test func aHashOfPiecesOfAnyLengthIsTheHashOfTheWhole() {
        let bytes = (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 4) }
        for sizes in [[700], [1, 699], [31, 1, 32, 636], [5, 5, 5, 100, 33, 552], [0, 64, 0, 636], [699, 1]] {
            var stream = ContentHash.Stream()
            var at = 0
            bytes.withUnsafeBytes { whole in
                for size in sizes {
                    stream.add(UnsafeRawBufferPointer(rebasing: whole[at..<at + size]))
                    at += size
                }
            }
            #expect(stream.finish() == ContentHash.xxh64(bytes), "\(sizes)")
        }
    }

    /// A file written in chunks is fingerprinted from the chunks as they went: the same fingerprint as
    /// reading the new file back.
    @Test func aChunkedReplaceFingerprintsWhatItWrote() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            let pieces = [Array("id,note\n".utf8), Array(repeating: 0x61, count: 70_001), Array("\n1,x\n".utf8)]
            let fingerprint = try AtomicFile.replaceInChunks(url, expecting: nil) { sink in for piece in pieces { try sink(piece[...]) } }
            #expect(try FileFingerprint.of(url) == fingerprint)
            #expect(fingerprint.size == Int64(pieces.map(\.count).reduce(0, +)))
        }
    }

    /// `FileFingerprint.of` reads a chunk (1 MiB) at a time: files across that size fingerprint as
    /// their read bytes do.
    @Test func theChunkedFingerprintIsTheWholeReadsOne() throws {
        try withAtomicTestFolder { folder in
            for size in [(1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 77] {
                let url = folder.appendingPathComponent("T\(size).csv")
                try url.writeTestBytes((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) })
                let snapshot = try #require(try FileSnapshot.read(url))
                #expect(try FileFingerprint.of(url) == snapshot.fingerprint, "\(size) bytes")
            }
        }
    }

    @Test func missingFileHasNoFingerprint() throws {
        try withAtomicTestFolder { folder in
            let fingerprint = try FileFingerprint.of(folder.appendingPathComponent("absent.csv"))
            #expect(fingerprint == nil)
        }
    }

    @Test func aFolderIsRefusedWithAnError() throws {
        try withAtomicTestFolder { folder in
            #expect(throws: AtomicFileError.self) { try FileFingerprint.of(folder) }
        }
    }

    @Test func fingerprintRecordsSizeModificationTimeAndHashOfTheContent() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(Array("a,b\n".utf8))
            try url.setTestModificationDate(Date(timeIntervalSince1970: 1_700_000_000.25))
            let fingerprint = try #require(try FileFingerprint.of(url))
            #expect(fingerprint.size == 4)
            #expect(fingerprint.modificationTimeNanoseconds == 1_700_000_000_250_000_000)
            #expect(fingerprint.contentHash == ContentHash.xxh64(Array("a,b\n".utf8)))
            #expect(try FileFingerprint.of(url) == fingerprint)
        }
    }

    @Test func snapshotBytesAndFingerprintDescribeTheSameContent() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(Array(repeating: 0x41, count: 200_000))
            let snapshot = try #require(try FileSnapshot.read(url))
            #expect(snapshot.bytes.count == 200_000)
            #expect(snapshot.fingerprint.contentHash == ContentHash.xxh64(snapshot.bytes))
            let fingerprint = try #require(try FileFingerprint.of(url))
            #expect(snapshot.fingerprint.hasSameContent(as: fingerprint))
        }
    }

    @Test func backupTimestampsAreUTCToTheSecond() {
        #expect(AtomicFile.Backups.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T000000Z")
        #expect(AtomicFile.Backups.timestamp(Date(timeIntervalSince1970: 1_795_303_880.923_4)) == "2026-11-21T233120Z")
        #expect(AtomicFile.Backups.timestamp(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T235959Z")
    }

    /// A file read in parts side by side (cut every few bytes here, every MiB in use) is the file:
    /// the same bytes and fingerprint as a read in one pass.
    @Test func aFileReadInPartsIsTheFile() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            let bytes = (0..<10_007).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try url.writeTestBytes(bytes)
            for cores in [2, 3, 8] {
                let read = try RowParts.$bytesPerPart.withValue(100) {
                    try RowParts.$cores.withValue(cores) { try FileSnapshot.read(url) }
                }
                #expect(read?.bytes == bytes, "\(cores) parts")
                #expect(read?.fingerprint == (try FileFingerprint.of(url)))
            }
        }
    }
}
