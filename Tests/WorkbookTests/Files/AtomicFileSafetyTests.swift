import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct AtomicFileSafetyTests {
    private let content = Array("id,note\n1,x\n".utf8)

    @Test func unchangedContentIsNotWrittenAndKeepsItsModificationTime() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(content)
            try url.setTestModificationDate(Date(timeIntervalSince1970: 1_600_000_000))
            let before = try FileFingerprint.of(url)
            let outcome = try AtomicFile.replaceIfChanged(url, with: content, expecting: before)
            #expect(!outcome.written)
            #expect(outcome.fingerprint == before)
            #expect(try FileFingerprint.of(url)?.modificationTimeNanoseconds == 1_600_000_000_000_000_000)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".sheetsync-backup").path))
        }
    }

    @Test func changedContentIsWrittenByReplaceIfChanged() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(content)
            let changed = content + Array("2,y\n".utf8)
            let outcome = try AtomicFile.replaceIfChanged(url, with: changed, expecting: try FileFingerprint.of(url))
            #expect(outcome.written)
            #expect(try url.testBytes == changed)
            #expect(try FileFingerprint.of(url) == outcome.fingerprint)
        }
    }

    @Test func replaceIfChangedStillRefusesAFileSavedSinceTheRead() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(content)
            let before = try FileFingerprint.of(url)
            try url.writeTestBytes(Array("other\n".utf8))
            #expect(throws: AtomicFileError.self) {
                try AtomicFile.replaceIfChanged(url, with: content, expecting: before)
            }
        }
    }

    @Test func staleTemporaryFilesAreRemovedButALiveWritersAreKept() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            var dead: Int32 = 4_000_000
            while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
            let stale = folder.appendingPathComponent(".T.csv.sheetsync-tmp-\(dead)-0")
            let live = folder.appendingPathComponent(".T.csv.sheetsync-tmp-1-0")
            let otherFile = folder.appendingPathComponent(".R.csv.sheetsync-tmp-\(dead)-0")
            for temp in [stale, live, otherFile] { try temp.writeTestBytes([0]) }
            try AtomicFile.replace(url, with: content, expecting: nil)
            #expect(!FileManager.default.fileExists(atPath: stale.path))
            #expect(FileManager.default.fileExists(atPath: live.path))
            #expect(FileManager.default.fileExists(atPath: otherFile.path))
        }
    }

    @Test func theReplacedFileKeepsItsPermissions() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(content)
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
            try AtomicFile.replace(url, with: Array("x\n".utf8), expecting: try FileFingerprint.of(url))
            let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            #expect(mode == 0o640)
        }
    }

    @Test func aSymlinkIsNeverReplacedNorIsTheFileItNames() throws {
        try withAtomicTestFolder { folder in
            let real = folder.appendingPathComponent("real.csv")
            let link = folder.appendingPathComponent("link.csv")
            try real.writeTestBytes(content)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            #expect(throws: AtomicFileError.notAFile(path: link.path, what: "a symbolic link (to \(real.path))")) {
                try AtomicFile.replace(link, with: Array("x\n".utf8), expecting: nil)
            }
            #expect(throws: AtomicFileError.notAFile(path: link.path, what: "a symbolic link (to \(real.path))")) {
                _ = try FileFingerprint.of(link)
            }
            #expect(try real.testBytes == content)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
            #expect(folder.testTempFiles.isEmpty)
        }
    }

    @Test func aLargeCSVStreamedIntoTheTemporaryFileReadsBackEqual() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            let rows = (0..<20_000).map { [Cell.text("\($0)"), .text("note, \"\($0)\"\r\nline two")] }
            let file = CSVFile(table: Table(header: ["id", "note"], rows: rows), hasBOM: true, lineEnding: .crlf)
            let fingerprint = try AtomicFile.replace(url, expecting: nil) { temp in
                let handle = try FileHandle(forWritingTo: temp)
                defer { try? handle.close() }
                try CSVWriter.write(file, to: handle)
            }
            #expect(try CSVReader.read(contentsOf: url) == file)
            #expect(fingerprint.contentHash == ContentHash.xxh64(CSVWriter.encode(file)))
        }
    }
}
