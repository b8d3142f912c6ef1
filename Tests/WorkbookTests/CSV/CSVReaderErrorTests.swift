import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

@Suite struct CSVReaderErrorTests {
    private func parseError(_ bytes: [UInt8], source: String = "Transactions.csv") -> CSVError? {
        do {
            _ = try CSVReader.parse(bytes, source: source)
            return nil
        } catch {
            return error as? CSVError
        }
    }

    @Test func latin1InputIsRefusedNamingFileRowAndByteOffset() throws {
        // "Café" saved as Latin-1: 0xE9 is not UTF-8.
        let bytes = Array("id,note\n1,ok\n2,Caf".utf8) + [0xE9] + Array("\n".utf8)
        let error = try #require(parseError(bytes))
        #expect(error.problem == .notUTF8)
        #expect(error.row == 3)
        #expect(error.byteOffset == 18)
        #expect(error.description.hasPrefix("Transactions.csv row 3: file is not UTF-8 (byte offset 18)"))
    }

    @Test func invalidByteInsideAQuotedFieldIsReportedAtItsOwnOffset() throws {
        let bytes = Array("h\n\"a\"\"b".utf8) + [0xFF] + Array("\"\n".utf8)
        let error = try #require(parseError(bytes))
        #expect(error.problem == .notUTF8)
        #expect(error.byteOffset == 7)
    }

    @Test func rowAndLineDifferAfterAMultiLineField() throws {
        let bytes = Array("h\n\"one\ntwo\nthree\"\nbad".utf8) + [0xC3, 0x28]
        let error = try #require(parseError(bytes))
        #expect(error.row == 3)
        #expect(error.line == 5)
        #expect(error.description.contains("row 3 (line 5)"))
    }

    @Test(arguments: [
        [0xC0, 0xAF] as [UInt8],  // overlong "/"
        [0xED, 0xA0, 0x80],  // UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0xE2, 0x82],  // truncated at end of input
        [0x80],  // lone continuation byte
    ])
    func malformedSequencesAreRefused(sequence: [UInt8]) throws {
        let error = try #require(parseError(Array("h\nx".utf8) + sequence))
        #expect(error.problem == .notUTF8)
        #expect(error.byteOffset == 3)
    }

    @Test func boundaryCodePointsAreAccepted() throws {
        let text = "h\n\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\n"
        let file = try CSVReader.parse(Array(text.utf8), source: "T.csv")
        #expect(file.table.rows == [[.text("\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}")]])
    }

    @Test func unterminatedQuoteNamesTheFileAndTheRowWhereTheFieldStarted() throws {
        let error = try #require(parseError(Array("a,b\n1,2\n3,\"never closed\n4,5\n6,7\n".utf8), source: "Receipts.csv"))
        #expect(error.problem == .unterminatedQuote)
        #expect(error.row == 3)
        #expect(error.description.hasPrefix("Receipts.csv row 3: quoted field is never closed"))
    }

    @Test func readingAMissingFileIsAnUnreadableError() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/Categories.csv")
        do {
            _ = try CSVReader.read(contentsOf: url)
            Issue.record("expected an error")
        } catch let error as CSVError {
            #expect(error.description == "Categories.csv: cannot read file: no such file")
        }
    }

    @Test func readFromDiskMatchesParsingTheSameBytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-read-\(UUID().uuidString).csv")
        let bytes = [0xEF, 0xBB, 0xBF] + Array("a,b\r\n\"x\r\ny\",2\r\n".utf8)
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try CSVReader.read(contentsOf: url) == CSVReader.parse(bytes, source: "x"))
    }

    @Test func readIfPresentPairsTheFileWithTheFingerprintOfTheBytesParsed() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-pair-\(UUID().uuidString).csv")
        #expect(try CSVReader.readIfPresent(url) == nil)
        let bytes = Array("a\n1\n".utf8)
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let read = try #require(try CSVReader.readIfPresent(url))
        #expect(read.file.table.rows == [[.text("1")]])
        #expect(read.fingerprint == (try FileFingerprint.of(url)))
        #expect(read.fingerprint.contentHash == ContentHash.xxh64(bytes))
    }

    @Test func readingAFolderIsAnUnreadableErrorNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Settings.csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CSVError(file: folder.path, problem: .unreadable(reason: "read: it is a folder, not a file"))) {
            try CSVReader.read(contentsOf: folder)
        }
    }
}
