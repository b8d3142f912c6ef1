import Foundation
import Testing

@testable import Workbook

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A save that lands after sheetsync's last check and before its new version is in place.
@Suite struct AtomicFileLastInstantTests {
    private let old = Array("id,note\n1,old\n".utf8)
    private let ours = Array("id,note\n1,old\n2,from the store\n".utf8)
    private let theirs = Array("id,note\n1,saved by hand in the last instant\n".utf8)

    /// How an editor saves: in place (same inode, like `>`), or by renaming a new file over it.
    enum SaveStyle: String, CaseIterable, CustomStringConvertible {
        case inPlace
        case renameOver
        var description: String { rawValue }

        func save(_ bytes: [UInt8], to url: URL) throws {
            switch self {
            case .inPlace:
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: bytes)
            case .renameOver:
                let side = url.deletingLastPathComponent().appendingPathComponent("editor-save.tmp")
                try Data(bytes).write(to: side)
                guard rename(side.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
        }
    }

    /// Saves `bytes` the moment the check has passed (the new `checked` fault step).
    private func saveAfterCheck(_ bytes: [UInt8], to url: URL, style: SaveStyle, refusesExchange: Bool) -> FaultInjector {
        FaultInjector(refusesExchange: refusesExchange) { step in
            if step == .checked { try style.save(bytes, to: url) }
        }
    }

    /// Every save the exchange catches, and the in-place save that the fallback (a hard link taken
    /// before the check, for file systems without `RENAME_EXCHANGE`) catches as well.
    static let catchable: [(SaveStyle, Bool)] = [(.inPlace, false), (.renameOver, false), (.inPlace, true)]

    @Test(arguments: catchable)
    func aSaveAfterTheCheckStaysLiveIsKeptAsBackupAndTheRunSaysChanged(style: SaveStyle, refusesExchange: Bool) throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let before = try FileFingerprint.of(url)
            #expect(throws: AtomicFileError.changedSinceRead(path: url.resolvingSymlinksInPath().path)) {
                try AtomicFile.replace(
                    url, with: ours, expecting: before,
                    faults: saveAfterCheck(theirs, to: url, style: style, refusesExchange: refusesExchange))
            }
            #expect(try url.testBytes == theirs)
            #expect(try folder.testBackupContents(of: "Transactions.csv") == [theirs])
            #expect(folder.testTempFiles.isEmpty)
            // The next run reads the save, merges and writes: nothing was lost on the way.
            let now = try FileFingerprint.of(url)
            try AtomicFile.replace(url, with: theirs + Array("2,from the store\n".utf8), expecting: now)
            #expect(try folder.testBackupContents(of: "Transactions.csv").last == theirs)
        }
    }

    @Test(arguments: [false, true])
    func withoutASaveThePreviousVersionIsTheBackup(refusesExchange: Bool) throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let before = try FileFingerprint.of(url)
            let after = try AtomicFile.replace(
                url, with: ours, expecting: before, faults: FaultInjector(refusesExchange: refusesExchange) { _ in })
            #expect(try url.testBytes == ours)
            #expect(try FileFingerprint.of(url) == after)
            #expect(try folder.testBackupContents(of: "Transactions.csv") == [old])
            #expect(folder.testTempFiles.isEmpty)
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent(AtomicFile.backupFolderName).path
            ).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test(arguments: [false, true])
    func aFileCreatedInTheLastInstantIsNotReplaced(refusesExchange: Bool) throws {
        try withAtomicTestFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("Settings.csv")
            #expect(throws: AtomicFileError.changedSinceRead(path: url.resolvingSymlinksInPath().path)) {
                try AtomicFile.replace(
                    url, with: ours, expecting: nil,
                    faults: saveAfterCheck(theirs, to: url, style: .renameOver, refusesExchange: refusesExchange))
            }
            #expect(try url.testBytes == theirs)
            #expect(folder.testTempFiles.isEmpty)
        }
    }

    /// What a person (or another program) may put in the file's place after the check.
    enum NotAFile: String, CaseIterable, CustomStringConvertible {
        case folder
        case symlink
        var description: String { rawValue }

        func put(at url: URL) throws {
            try FileManager.default.removeItem(at: url)
            switch self {
            case .folder:
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
                try Data("kept inside\n".utf8).write(to: url.appendingPathComponent("inside.txt"))
            case .symlink:
                try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/nowhere/else.csv")
            }
        }

        var what: String { self == .folder ? "a folder" : "a symbolic link (to /nowhere/else.csv)" }
    }

    @Test(arguments: NotAFile.allCases)
    func somethingNotAFilePutInThePlaceInTheLastInstantIsPutBackAndNothingIsReplaced(thing: NotAFile) throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("Transactions.csv")
            try url.writeTestBytes(old)
            let before = try FileFingerprint.of(url)
            let path = url.resolvingSymlinksInPath().path
            let error = #expect(throws: AtomicFileError.self) {
                try AtomicFile.replace(
                    url, with: ours, expecting: before, faults: FaultInjector { step in if step == .checked { try thing.put(at: url) } })
            }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains("'\(path)' became \(thing.what)"), "\(message)")
            #expect(message.contains("put back as it was and nothing was replaced"), "\(message)")
            #expect(error?.isTemporary == false, "a folder or link in the file's place needs the user, not a retry")
            switch thing {
            case .folder:
                #expect(FileSafety.kind(of: path) == .folder)
                #expect(try url.appendingPathComponent("inside.txt").testBytes == Array("kept inside\n".utf8))
            case .symlink:
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/nowhere/else.csv")
            }
            // Nothing hidden under a swap name, nothing of ours left, no backup of something never read.
            #expect(folder.testTempFiles.isEmpty, "\(folder.testTempFiles)")
            #expect(try folder.testBackupContents(of: "Transactions.csv").isEmpty)
        }
    }

    @Test func aSwapFileACrashLeftAfterTheExchangeIsMovedIntoTheBackupsByASweepOfTheFolder() throws {
        try withAtomicTestFolder { folder in
            let url = folder.appendingPathComponent("book.xlsx")
            try url.writeTestBytes(old)
            let other = folder.appendingPathComponent("Categories.csv")
            try other.writeTestBytes(old)
            #expect(throws: SimulatedCrash(step: .renamed)) {
                try AtomicFile.replace(url, with: ours, expecting: try FileFingerprint.of(url), faults: .crash(at: .renamed))
            }
            #expect(throws: SimulatedCrash(step: .tempWritten)) {
                try AtomicFile.replace(other, with: ours, expecting: try FileFingerprint.of(other), faults: .crash(at: .tempWritten))
            }
            #expect(folder.testTempFiles.count == 2, "\(folder.testTempFiles)")
            #expect(folder.testTempFiles.contains { $0.hasPrefix(".book.xlsx.sheetsync-swap-\(getpid())-") })
            // A live run's leftovers are not touched.
            let live = folder.appendingPathComponent(".Settings.csv.sheetsync-swap-1-0")
            try live.writeTestBytes(theirs)

            try AtomicFile.sweepLeftovers(in: folder, backupsToKeep: 0)
            #expect(try url.testBytes == ours)
            #expect(try other.testBytes == old)
            #expect(try folder.testBackupContents(of: "book.xlsx") == [old], "kept even with no backups wanted")
            #expect(try folder.testBackupContents(of: "Categories.csv").isEmpty)
            #expect(folder.testTempFiles == [live.lastPathComponent])
            #expect(try live.testBytes == theirs)
        }
    }
}
