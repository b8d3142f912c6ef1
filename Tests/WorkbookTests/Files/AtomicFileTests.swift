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
            let live = [.renamed, .backedUp, .directorySynced].contains(step)
            #expect(try url.testBytes == (live ? new : old))
            // Like kill -9, a crash before the previous version is in the backups leaves a temporary
            // file behind (after the exchange, that file *is* the previous version).
            let settled = [.backedUp, .directorySynced].contains(step)
            #expect(folder.testTempFiles.count == (settled ? 0 : 1))

            // The next run starts from whatever is there, cleans up after the crash and has kept
            // the previous version.
            let current = try FileFingerprint.of(url)
            try AtomicFile.replace(url, with: Array("id\n".utf8), expecting: current)
            #expect(try url.testBytes == Array("id\n".utf8))
            #expect(folder.testTempFiles.isEmpty)
            if live { #expect(try folder.testBackupContents(of: "Transactions.csv").contains(old)) }
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
            #expect(throws: AtomicFileError.changedSinceRead(path: url.resolvingSymlinksInPath().path)) {
                try AtomicFile.replace(url, with: new, expecting: before)
            }
            #expect(try url.testBytes == Array("a,2\n".utf8))
            // Size and time as read: the file was exchanged unread, the content check on what came out
            // found the save and put it back; nothing of the attempt is left but a backup of that save.
            #expect(folder.testTempFiles.isEmpty)
            let backups = AtomicFile.backups(of: "T.csv", in: folder)
            #expect(
                try backups.allSatisfy {
                    try folder.appendingPathComponent(AtomicFile.backupFolderName).appendingPathComponent($0).testBytes
                        == Array("a,2\n".utf8)
                })
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
            let decoys = [
                "Transactions.csv.bak.20200101T000000.000Z", "Transactions.2020-01-01T000000Z.csv.bak",
                "Receipts.2020-01-01T000000Z.csv",
            ]
            for decoy in decoys { try backupFolder.appendingPathComponent(decoy).writeTestBytes([1]) }
            var fingerprint: FileFingerprint? = nil
            for version in 0..<7 {
                let now = Date(timeIntervalSince1970: 1_790_000_000 + Double(version))
                fingerprint = try AtomicFile.replace(
                    url, with: Array("v\(version)\n".utf8), expecting: fingerprint, backupsToKeep: 3, now: now)
            }
            #expect(try folder.testBackupContents(of: "Transactions.csv") == ["v3\n", "v4\n", "v5\n"].map { Array($0.utf8) })
            for decoy in decoys { #expect(FileManager.default.fileExists(atPath: backupFolder.appendingPathComponent(decoy).path)) }
        }
    }

    /// More replacements in one second than backups kept: the newest versions are the ones kept (with
    /// 9 in one second, v6–v8 were pruned at once, their names reused below the newest).
    @Test func manyReplacementsInOneSecondKeepTheNewestBackups() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            let now = Date(timeIntervalSince1970: 1_795_453_799)
            var fingerprint: FileFingerprint? = nil
            for version in 0..<10 {
                fingerprint = try AtomicFile.replace(
                    url, with: Array("v\(version)\n".utf8), expecting: fingerprint, backupsToKeep: 5, now: now)
            }
            #expect(try folder.testBackupContents(of: "Transactions.csv") == (4..<9).map { Array("v\($0)\n".utf8) })
        }
    }

    @Test func backupsKeepTheExtensionAndTheirNamesSortByTime() throws {
        try withAtomicTestFolder { folder in
            let csv = folder.appendingPathComponent("Transactions.csv")
            let xlsx = folder.appendingPathComponent("book.xlsx")
            let now = Date(timeIntervalSince1970: 1_795_453_799)  // 2026-11-23T17:09:59Z
            var csvPrint = try AtomicFile.replace(csv, with: [0x31], expecting: nil, now: now)
            csvPrint = try AtomicFile.replace(csv, with: [0x32], expecting: csvPrint, now: now)
            try AtomicFile.replace(csv, with: [0x33], expecting: csvPrint, now: now)
            let xlsxPrint = try AtomicFile.replace(xlsx, with: [0x41], expecting: nil, now: now)
            try AtomicFile.replace(xlsx, with: [0x42], expecting: xlsxPrint, now: now.addingTimeInterval(1))

            // Same second: a counter, never an overwrite; `ls` order is time order.
            let names = ["Transactions.2026-11-23T170959Z.csv", "Transactions.2026-11-23T170959Z_1.csv"]
            #expect(AtomicFile.backups(of: "Transactions.csv", in: folder) == names)
            #expect(names.sorted() == names)
            #expect(try folder.testBackupContents(of: "Transactions.csv") == [[0x31], [0x32]])
            #expect(AtomicFile.backups(of: "book.xlsx", in: folder) == ["book.2026-11-23T171000Z.xlsx"])
        }
    }

    @Test func pruningRecognisesTheNamesOfEarlierVersions() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            let backupFolder = folder.appendingPathComponent(AtomicFile.backupFolderName)
            try FileManager.default.createDirectory(at: backupFolder, withIntermediateDirectories: true)
            let oldStyle = ["Transactions.csv.20261101T080000.000Z", "Transactions.csv.20261101T080000.000Z-1"]
            for name in oldStyle { try backupFolder.appendingPathComponent(name).writeTestBytes(Array(name.utf8)) }
            #expect(AtomicFile.backups(of: "Transactions.csv", in: folder) == oldStyle)

            // One new backup: old and new names are listed together, oldest first.
            var fingerprint = try AtomicFile.replace(url, with: [0x30], expecting: nil, backupsToKeep: 5)
            let start = Date(timeIntervalSince1970: 1_795_453_799)
            fingerprint = try AtomicFile.replace(url, with: [0x31], expecting: fingerprint, backupsToKeep: 3, now: start)
            #expect(AtomicFile.backups(of: "Transactions.csv", in: folder) == oldStyle + ["Transactions.2026-11-23T170959Z.csv"])
            // Two more: the old-style names are the oldest, so they go first.
            for n in 1...2 {
                fingerprint = try AtomicFile.replace(
                    url, with: [0x31 + UInt8(n)], expecting: fingerprint, backupsToKeep: 3,
                    now: start.addingTimeInterval(Double(n)))
            }
            #expect(try folder.testBackupContents(of: "Transactions.csv") == [[0x30], [0x31], [0x32]])
            for name in oldStyle { #expect(!FileManager.default.fileExists(atPath: backupFolder.appendingPathComponent(name).path)) }
        }
    }

    @Test func whatACrashLeftRightAfterTheExchangeIsKeptEvenWithBackupsOff() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("T.csv")
            try url.writeTestBytes(old)
            #expect(throws: SimulatedCrash(step: .renamed)) {
                try AtomicFile.replace(
                    url, with: new, expecting: try FileFingerprint.of(url), backupsToKeep: 0, faults: .crash(at: .renamed))
            }
            // What came out of the exchange may have been someone's save: never deleted unseen.
            try AtomicFile.replace(url, with: Array("id\n".utf8), expecting: try FileFingerprint.of(url), backupsToKeep: 0)
            #expect(try folder.testBackupContents(of: "T.csv") == [old])
            #expect(folder.testTempFiles.isEmpty)
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
