import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// The CSV workbooks in the repository's `samples/` folder, read and rewritten.
@Suite struct CSVSampleWorkbookTests {
    static let samplesFolder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    static var sampleFiles: [URL] {
        let enumerator = FileManager.default.enumerator(at: samplesFolder, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "csv" }
            .sorted { $0.path < $1.path }
    }

    @Test func samplesFolderHoldsBothWorkbooks() {
        let names = Set(Self.sampleFiles.map { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.lastPathComponent })
        #expect(names.isSuperset(of: ["clean/Transactions.csv", "hand-edited/Transactions.csv"]))
    }

    @Test(arguments: sampleFiles)
    func everySampleParsesWithAHeaderAndSurvivesARewrite(url: URL) throws {
        let file = try CSVReader.read(contentsOf: url)
        #expect(!file.table.header.isEmpty)
        #expect(try CSVReader.parse(CSVWriter.encode(file), source: url.lastPathComponent) == file)
    }

    /// The clean workbook is written in canonical form, so rewriting it must not change a byte.
    @Test(arguments: sampleFiles.filter { $0.deletingLastPathComponent().lastPathComponent == "clean" })
    func cleanSampleIsRewrittenByteForByte(url: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: url))
        #expect(CSVWriter.encode(try CSVReader.parse(bytes, source: url.lastPathComponent)) == bytes)
    }
}
