import Foundation
import FuzzEntries
import Testing

/// Feeds every input the fuzzers keep — the crashes they found (`Fuzz/regressions/<target>/`, each a
/// bug that was fixed) and the minimised seed corpus (`Fuzz/corpus/<target>/`) — to the same entry
/// point the libFuzzer executable runs, without a sanitizer. A crash fails the run; a violated
/// property (a round trip that changed data) fails the test naming the file.
@Suite struct FuzzRegressionTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ kind: String, _ target: FuzzTarget) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func feed(_ files: [URL], to target: FuzzTarget) throws {
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            do {
                try target.run(bytes)
            } catch {
                Issue.record("\(target.rawValue) \(file.lastPathComponent): \(error.description)")
            }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func crashInputsFoundByTheFuzzersStayFixed(_ target: FuzzTarget) throws {
        let files = Self.inputs("regressions", target)
        // Every target keeps at least one (a hand-written edge case where the fuzzer has found nothing yet),
        // so this test runs the target and cannot pass having fed it nothing.
        #expect(!files.isEmpty, "Fuzz/regressions/\(target.rawValue) is empty")
        try Self.feed(files, to: target)
    }

    @Test(arguments: FuzzTarget.allCases)
    func theSeedCorpusRunsCleanly(_ target: FuzzTarget) throws {
        let files = Self.inputs("corpus", target)
        // An empty corpus would make this test pass without running anything.
        #expect(!files.isEmpty, "Fuzz/corpus/\(target.rawValue) is empty")
        try Self.feed(files, to: target)
    }
}
