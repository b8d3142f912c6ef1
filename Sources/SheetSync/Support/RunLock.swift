import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One run at a time per store: an exclusive `flock` on `<store>.lock`. The kernel releases it when
/// the process dies, so `kill -9` leaves no stale lock; the pid inside is only for the message.
public final class RunLock: Sendable {
    private let fd: Int32
    public let path: String

    public init(store: URL) throws {
        path = store.path + ".lock"
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Private like the store it guards (it holds only a pid, but a ledger's folder shows nothing).
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SheetSyncError.configuration("cannot open lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            // Only the pid for the message; the lock itself is what refuses the run.
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(fd)
            let who = holder.isEmpty ? "another sheetsync run" : "another sheetsync run (pid \(holder))"
            throw SheetSyncError.temporary("store \(store.path) is in use by \(who); try again later")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        _ = ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }
}
