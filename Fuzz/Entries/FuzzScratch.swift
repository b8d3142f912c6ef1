import Foundation

/// Files the readers that take a path (XLSX, config) are given, one directory per process.
///
/// `/dev/shm` when present keeps the fuzzer's thousands of writes a second off the disk. Every call
/// gets a file of its own (the test suite runs targets in parallel in one process); callers remove it.
enum FuzzScratch {
    static let directory: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let url = base.appendingPathComponent("sheetsync-fuzz-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Writes `bytes` to `name` in the scratch directory and returns its URL.
    static func write(_ bytes: UnsafeRawBufferPointer, named name: String) -> URL? {
        let url = Self.url(name)
        do {
            try Data(bytes).write(to: url)
        } catch {
            return nil
        }
        return url
    }

    static func url(_ name: String) -> URL { directory.appendingPathComponent("\(UUID().uuidString)-\(name)") }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }
}
