import Foundation
import SheetSyncCore
import Testing

@testable import Workbook

@Suite struct AtomicFileTests {
    private let old = Array("id,note\n1,old\n".utf8)
    private let new = Array("id,note\n1,new and longer\n".utf8)

    @Test func createsAMissingFileWhenExpectingNone() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Categories.csv")
            let fingerprint = try AtomicFile.replace(url, with: new, expecting: nil)
            #expect(try url.testBytes == new)
            #expect(try FileFingerprint.of(url) == fingerprint)
            #expect(folder.testTempFiles.isEmpty)
            #expect(AtomicFile.backups(of: "Categories.csv", in: folder).isEmpty)
        }
    }

    @Test func replacesTheFileKeepsTheOldVersionAsBackupAndReturnsTheNewFingerprint() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let before = try FileFingerprint.of(url)
            let after = try AtomicFile.replace(url, with: new, expecting: before)
            #expect(try url.testBytes == new)
            #expect(try FileFingerprint.of(url) == after)
            let backups = AtomicFile.backups(of: "Transactions.csv", in: folder)
            #expect(backups.count == 1)
            let backup = folder.appendingPathComponent(AtomicFile.backupFolderName).appendingPathComponent(backups[0])
            #expect(try backup.testBytes == old)
            #expect(folder.testTempFiles.isEmpty)
        }
    }

    @Test(arguments: AtomicWriteStep.allCases)
    func crashAtAnyStepLeavesTheFileFullyOldOrFullyNew(step: AtomicWriteStep) throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let before = try FileFingerprint.of(url)
            #expect(throws: SimulatedCrash(step: step)) {
                try AtomicFile.replace(url, with: new, expecting: before, faults: .crash(at: step))
            }
            let renamed = [.renamed, .directorySynced].contains(step)
            #expect(try url.testBytes == (renamed ? new : old))
            // Like kill -9, a crash before the rename leaves the temporary file behind.
            #expect(folder.testTempFiles.count == (renamed ? 0 : 1))

            // The next run starts from whatever is there and cleans up after the crash.
            let current = try FileFingerprint.of(url)
            try AtomicFile.replace(url, with: Array("id\n".utf8), expecting: current)
            #expect(try url.testBytes == Array("id\n".utf8))
            #expect(folder.testTempFiles.isEmpty)
        }
    }

    @Test func aSaveSinceTheReadIsDetectedAndNothingIsWritten() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let before = try FileFingerprint.of(url)
            let theirs = Array("id,note\n1,saved by hand\n".utf8)
            try url.writeTestBytes(theirs)
            #expect(throws: AtomicFileError.changedSinceRead(path: url.resolvingSymlinksInPath().path)) {
                try AtomicFile.replace(url, with: new, expecting: before)
            }
            #expect(try url.testBytes == theirs)
            #expect(folder.testTempFiles.isEmpty)
            #expect(AtomicFile.backups(of: "Transactions.csv", in: folder).isEmpty)
        }
    }

    @Test func aSameSizeEditWithTheOldModificationTimeIsCaughtByTheHash() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            let stamp = Date(timeIntervalSince1970: 1_700_000_000)
            try url.writeTestBytes(Array("a,1\n".utf8))
            try url.setTestModificationDate(stamp)
            let before = try FileFingerprint.of(url)
            try url.writeTestBytes(Array("a,2\n".utf8))
            try url.setTestModificationDate(stamp)
            #expect(throws: AtomicFileError.self) { try AtomicFile.replace(url, with: new, expecting: before) }
            #expect(try url.testBytes == Array("a,2\n".utf8))
        }
    }

    @Test func aFileThatAppearedOrVanishedSinceTheReadCountsAsChanged() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(old)
            #expect(throws: AtomicFileError.self) { try AtomicFile.replace(url, with: new, expecting: nil) }
            let before = try FileFingerprint.of(url)
            try FileManager.default.removeItem(at: url)
            #expect(throws: AtomicFileError.self) { try AtomicFile.replace(url, with: new, expecting: before) }
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func aFailingWriterRemovesTheTemporaryFileAndKeepsTheOldContent() throws {
        struct WriterFailed: Error {}
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(old)
            let before = try FileFingerprint.of(url)
            #expect(throws: WriterFailed.self) {
                try AtomicFile.replace(url, expecting: before) { temp in
                    try temp.writeTestBytes(Array("half".utf8))
                    throw WriterFailed()
                }
            }
            #expect(try url.testBytes == old)
            #expect(folder.testTempFiles.isEmpty)
        }
    }

    @Test func backupsAreRotatedKeepingTheNewestOnes() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            let backupFolder = folder.appendingPathComponent(AtomicFile.backupFolderName)
            try FileManager.default.createDirectory(at: backupFolder, withIntermediateDirectories: true)
            let decoy = backupFolder.appendingPathComponent("Transactions.csv.bak.20200101T000000.000Z")
            try decoy.writeTestBytes([1])
            var fingerprint: FileFingerprint? = nil
            for version in 0..<7 {
                let now = Date(timeIntervalSince1970: 1_790_000_000 + Double(version))
                fingerprint = try AtomicFile.replace(
                    url, with: Array("v\(version)\n".utf8), expecting: fingerprint, backupsToKeep: 3, now: now)
            }
            let backups = AtomicFile.backups(of: "Transactions.csv", in: folder)
            #expect(backups.count == 3)
            let contents = try backups.map { try backupFolder.appendingPathComponent($0).testBytes }
            #expect(contents == ["v3\n", "v4\n", "v5\n"].map { Array($0.utf8) })
            #expect(FileManager.default.fileExists(atPath: decoy.path))
        }
    }

    @Test func backupsInTheSameMillisecondGetDistinctNames() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            let now = Date(timeIntervalSince1970: 1_790_000_000)
            var fingerprint = try AtomicFile.replace(url, with: [0x31], expecting: nil, now: now)
            fingerprint = try AtomicFile.replace(url, with: [0x32], expecting: fingerprint, now: now)
            try AtomicFile.replace(url, with: [0x33], expecting: fingerprint, now: now)
            let backups = AtomicFile.backups(of: "T.csv", in: folder)
            #expect(backups == ["T.csv.20260921T141320.000Z", "T.csv.20260921T141320.000Z-1"])
        }
    }

    @Test func zeroBackupsToKeepWritesNoBackup() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(old)
            try AtomicFile.replace(url, with: new, expecting: try FileFingerprint.of(url), backupsToKeep: 0)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".sheetsync-backup").path))
        }
    }
}
