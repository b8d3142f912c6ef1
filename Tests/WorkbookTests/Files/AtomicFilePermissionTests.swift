import Foundation
import Testing

@testable import Workbook

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Backups and temporary files are as private as the workbook file; read-only files stay as they are.
@Suite struct AtomicFilePermissionTests {
    private let old = Array("id,note\n1,private\n".utf8)
    private let new = Array("id,note\n1,private\n2,more\n".utf8)

    @Test(arguments: [(0o600, 0o700), (0o644, 0o755), (0o640, 0o750)])
    func backupsTheirFolderAndTheTemporaryFileTakeTheFilesPermissions(fileMode: Int, folderMode: Int) throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            try url.setTestMode(fileMode)
            let tempModes = TempModes()
            try AtomicFile.replace(url, expecting: try FileFingerprint.of(url)) { temp in
                tempModes.record(try temp.testMode)
                try temp.writeTestBytes(new)
            }
            #expect(try url.testBytes == new)
            #expect(try url.testMode == fileMode)
            // While the new content is written, nobody but the owner can read it.
            #expect(tempModes.all.allSatisfy { $0 & 0o077 == 0 })
            let backupFolder = folder.appendingPathComponent(AtomicFile.backupFolderName)
            #expect(try backupFolder.testMode == folderMode)
            let backups = AtomicFile.backups(of: "Transactions.csv", in: folder)
            #expect(backups.count == 1)
            #expect(try backupFolder.appendingPathComponent(backups[0]).testMode == fileMode)
            #expect(try folder.testBackupContents(of: "Transactions.csv") == [old])
        }
    }

    @Test func aWriterThatRecreatesTheTemporaryFileStillWritesWhereOnlyTheOwnerCanReach() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("book.xlsx")
            try url.writeTestBytes(old)
            try url.setTestMode(0o600)
            let tempModes = TempModes()
            try AtomicFile.replace(url, expecting: try FileFingerprint.of(url)) { temp in
                // As the zip library does: delete the file it is given and create a new one (0644 here).
                try FileManager.default.removeItem(at: temp)
                try Data(new).write(to: temp)
                tempModes.record(try temp.deletingLastPathComponent().testMode)
            }
            #expect(tempModes.all == [0o700])
            #expect(try url.testMode == 0o600)
            #expect(try url.testBytes == new)
            #expect(folder.testTempFiles.isEmpty)
        }
    }

    @Test func aBackupFolderLeftOpenByAnEarlierVersionIsNarrowedForAPrivateFile() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            let backupFolder = folder.appendingPathComponent(AtomicFile.backupFolderName)
            try FileManager.default.createDirectory(at: backupFolder, withIntermediateDirectories: true)
            try backupFolder.setTestMode(0o755)
            try url.writeTestBytes(old)
            try url.setTestMode(0o600)
            try AtomicFile.replace(url, with: new, expecting: try FileFingerprint.of(url))
            #expect(try backupFolder.testMode == 0o700)
        }
    }

    @Test func aReadOnlyFileIsNotReplaced() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            try url.setTestMode(0o444)
            #expect(throws: AtomicFileError.readOnly(path: url.path, isFolder: false)) {
                try AtomicFile.replace(url, with: new, expecting: try FileFingerprint.of(url))
            }
            #expect(try url.testBytes == old)
            #expect(try url.testMode == 0o444)
            #expect(folder.testTempFiles.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(AtomicFile.backupFolderName).path))
            #expect(AtomicFileError.readOnly(path: url.path, isFolder: false).description.contains("chmod u+w"))
        }
    }

    @Test func aFileInAReadOnlyFolderIsNotReplaced() throws {
        try withAtomicTestFolder { folder in
            let books = folder.appendingPathComponent("books")
            try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
            let url = books.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            try books.setTestMode(0o555)
            defer { try? books.setTestMode(0o755) }
            #expect(throws: AtomicFileError.readOnly(path: books.path, isFolder: true)) {
                try AtomicFile.replace(url, with: new, expecting: try FileFingerprint.of(url))
            }
            #expect(try url.testBytes == old)
            #expect(books.testTempFiles.isEmpty)
        }
    }

    @Test func aBackupFolderThatIsASymlinkIsRefusedAndNothingWhereItPointsIsDeleted() throws {
        try withAtomicTestFolder { folder in
            let workbook = folder.appendingPathComponent("workbook")
            let elsewhere = folder.appendingPathComponent("elsewhere")
            for dir in [workbook, elsewhere] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
            let names = (1...6).map { "Transactions.2026-01-0\($0)T000000Z.csv" }
            for name in names { try elsewhere.appendingPathComponent(name).writeTestBytes(old) }
            let url = workbook.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let backups = workbook.appendingPathComponent(AtomicFile.backupFolderName)
            try FileManager.default.createSymbolicLink(at: backups, withDestinationURL: elsewhere)
            #expect(throws: AtomicFileError.notAFolder(path: backups.path, what: "a symbolic link (to \(elsewhere.path))")) {
                try AtomicFile.replace(url, with: new, expecting: try FileFingerprint.of(url), backupsToKeep: 1)
            }
            #expect(try url.testBytes == old)
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).sorted() == names)
            #expect(workbook.testTempFiles.isEmpty)
        }
    }

    @Test func aBackupFolderOfAnotherKindIsRefusedWhenTheExchangeFindsIt() throws {
        // The folder is checked again, by its open descriptor, where a version is moved in: a link put
        // there after the first check is refused just the same and the previous version stays beside
        // the workbook (swept into the backups by the next run).
        try withAtomicTestFolder { folder in
            let elsewhere = folder.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let backups = folder.appendingPathComponent(AtomicFile.backupFolderName)
            let swapIn = FaultInjector { step in
                if step == .checked { try? FileManager.default.createSymbolicLink(at: backups, withDestinationURL: elsewhere) }
            }
            #expect(throws: AtomicFileError.notAFolder(path: backups.path, what: "a symbolic link (to \(elsewhere.path))")) {
                try AtomicFile.replace(url, with: new, expecting: try FileFingerprint.of(url), faults: swapIn)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
            let kept = folder.testTempFiles.map { try? folder.appendingPathComponent($0).testBytes }
            #expect(try url.testBytes == new && kept == [old], "the previous version is kept beside the workbook")
        }
    }

    @Test func aFullDiskIsReportedAsNoSpaceNamingThePath() throws {
        // /dev/full answers every write with ENOSPC, as a full file system does; every Linux has it, and a
        // machine without it fails here rather than passing with nothing checked.
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0, "/dev/full cannot be opened for writing: \(String(cString: strerror(errno)))")
        defer { close(fd) }
        #expect(throws: AtomicFileError.noSpace(operation: "write", path: "/dev/full")) {
            try [UInt8](repeating: 0x41, count: 10).withUnsafeBytes { try POSIXFile.writeAll(fd, $0, path: "/dev/full") }
        }
        // A writer that hits ENOSPC: the error names the workbook file, the old content stays, no temp is left.
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            #expect(throws: AtomicFileError.noSpace(operation: "write the new version of", path: url.path)) {
                try AtomicFile.replace(url, expecting: try FileFingerprint.of(url)) { _ in
                    try [UInt8](repeating: 0x41, count: 10).withUnsafeBytes { try POSIXFile.writeAll(fd, $0, path: "/dev/full") }
                }
            }
            #expect(try url.testBytes == old)
            #expect(folder.testTempFiles.isEmpty)
        }
        #expect(AtomicFileError.noSpace(operation: "write", path: "/x/T.csv").description.contains("no space left on device"))
        #expect(AtomicFileError.noSpace(operation: "write", path: "/x/T.csv").isTemporary)
        #expect(
            POSIXFile.failure("create a temporary file in", "/x", EACCES)
                == .permissionDenied(
                    operation: "create a temporary file in", path: "/x", reason: String(cString: strerror(EACCES))))
        #expect(!POSIXFile.failure("open", "/x", EPERM).isTemporary)
    }
}

/// Modes seen inside a writer closure (which is not `Sendable`-checked, but tests stay tidy).
final class TempModes {
    private(set) var all: [Int] = []
    func record(_ mode: Int) { all.append(mode) }
}
