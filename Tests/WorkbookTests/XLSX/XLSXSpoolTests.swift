import Foundation
import Testing

@testable import Workbook

#if canImport(Glibc)
    import Glibc
#endif

/// A patched worksheet is spooled beside the package being written (which sheetsync always writes in
/// its private temporary folder beside the workbook), hidden and owner-only, never in the system's
/// temporary folder; what a killed run leaves is swept with that folder by the next write.
@Suite struct XLSXSpoolTests {
    @Test func aPatchedSheetIsSpooledBesideThePackageHiddenAndOwnerOnlyAndRemovedAfter() throws {
        try withAtomicTestFolder { folder in
            var spool: URL?
            do {
                let writer = try PackageWriter(url: folder.appendingPathComponent("book.xlsx"))
                spool = try writer.scratchFile(for: "xl/worksheets/sheet1.xml") { $0.append(bytes: Array("<worksheet/>".utf8)) }
                let file = try #require(spool)
                let spoolFolder = file.deletingLastPathComponent()
                #expect(spoolFolder.deletingLastPathComponent().path == folder.path)
                #expect(spoolFolder.lastPathComponent.hasPrefix(".book.xlsx.sheetsync-spool-\(getpid())-"))
                #expect(try spoolFolder.testMode == 0o700)
                #expect(try file.testMode == 0o600)
                #expect(try file.testBytes == Array("<worksheet/>".utf8))
            }
            #expect(!FileManager.default.fileExists(atPath: try #require(spool).deletingLastPathComponent().path))
        }
    }

    @Test func aSpoolADeadRunLeftInItsTemporaryFolderIsSweptByTheNextWrite() throws {
        try withAtomicTestFolder { folder in
            var dead: Int32 = 4_000_000
            while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
            let temporary = folder.appendingPathComponent(".book.xlsx.sheetsync-tmp-\(dead)-0")
            let spool = temporary.appendingPathComponent(".book.xlsx.sheetsync-spool-\(dead)-0")
            try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
            try spool.appendingPathComponent("sheet1.xml").writeTestBytes(Array("the whole sheet".utf8))
            let url = folder.appendingPathComponent("book.xlsx")
            try AtomicFile.replace(url, with: Array("new".utf8), expecting: nil)
            #expect(!FileManager.default.fileExists(atPath: temporary.path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["book.xlsx"])
        }
    }
}
