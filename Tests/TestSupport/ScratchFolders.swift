import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Scratch folders for tests, all inside one folder per test process (on tmpfs when there is one,
/// so fsyncs are cheap) that is removed when the process exits. A run leaves about 170 MB there,
/// which on tmpfs is memory: the folders of runs that died (killed, crashed) are swept when the
/// next run starts.
public enum ScratchFolders {
    private static let prefix = "sheetsync-tests-"

    private static let root =
        FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory

    /// This process's folder of scratch folders.
    private static let run: URL = {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
        atexit { try? FileManager.default.removeItem(at: ScratchFolders.run) }
        return root.appendingPathComponent("\(prefix)\(getpid())")
    }()

    /// A new, empty folder named after `name`.
    public static func make(_ name: String) throws -> URL {
        let url = run.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
