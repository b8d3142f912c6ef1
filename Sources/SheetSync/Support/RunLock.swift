import Foundation
import Workbook

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive `flock` on a lock file, held for a run: one run at a time per store (`<store>.lock`),
/// and one run at a time on a local workbook (`RunLock.workbook`), whichever stores the runs sync.
/// The kernel releases it when the process dies, so `kill -9` leaves no stale lock; the pid inside
/// is only for the message.
public final class RunLock: Sendable {
    private let fd: Int32
    public let path: String

    /// The store's lock, refused at once (75) when another run holds it.
    public convenience init(store: URL) throws {
        try self.init(path: store.path + ".lock", waiting: 0) { who in
            SheetSyncError.temporary("store \(store.path) is in use by \(who); try again later").coded(.inUse)
        }
    }

    /// The lock of a local workbook (`lockFile` from `Remote.lockFile`), so that two runs with different
    /// stores (two machines' configs on one folder, two cron lines) take turns on its files instead of
    /// writing over each other's rows. Waits up to `seconds` for the other run, then refuses (75).
    /// Nil where no lock file can be made or opened (a folder this user cannot write: no run of this
    /// user writes there either, and a pull from it still works); the file is readable by all (0644),
    /// as `flock` needs only an open file, so another user's runs on a shared folder take turns too.
    public static func onWorkbook(_ lockFile: URL, name: String, waiting seconds: Double) throws -> RunLock? {
        let path = lockFile.path
        let fd: Int32
        do {
            // A workbook folder not there yet (`init` makes it): nothing to take turns on.
            guard let opened = try FileSafety.open(path, flags: O_RDWR | O_CREAT, mode: 0o644, missingIsNil: true) else { return nil }
            fd = opened
        } catch {
            // No lock file can be made in a folder this user cannot write: no run of this user writes there.
            guard case .permissionDenied = error else { throw refusal(path, error) }
            guard FileSafety.kind(of: path) != .missing else { return nil }
            do { fd = try FileSafety.open(path, flags: O_RDONLY) ?? -1 } catch { throw refusal(path, error) }
        }
        return try RunLock(path: path, fd: fd, waiting: seconds) { who in
            SheetSyncError.temporary(
                "\(name) has been in use by \(who) for \(Int(seconds)) s (\(lockFile.path)); nothing was changed; try again later"
            ).coded(.inUse)
        }
    }

    /// Why a workbook's lock file cannot be used. A symlink, FIFO or device in its place is refused as
    /// such (never followed: a link would make this run create or lock a file elsewhere). One that is
    /// there but cannot be opened (another user's, made 0600 under umask 077) would let this run write
    /// beside a run holding it: refused, never skipped.
    private static func refusal(_ path: String, _ error: AtomicFileError) -> SheetSyncError {
        if case .notAFile = error { return .replacing(error) }
        return .configuration(
            "cannot open the workbook's lock file \(path): \(error.reason); runs on this workbook "
                + "take turns through it: make it readable (chmod a+r) or remove it when no run is going"
        ).coded(.notWritable)
    }

    private convenience init(path: String, waiting seconds: Double, busy: (String) -> SheetSyncError) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Private like the store it guards (it holds only a pid, but a ledger's folder shows nothing).
        let fd: Int32
        do { fd = try FileSafety.open(path, flags: O_RDWR | O_CREAT, mode: 0o600) ?? -1 } catch {
            if case .notAFile = error { throw SheetSyncError.replacing(error) }
            throw SheetSyncError.configuration("cannot open lock file \(path): \(error.reason)").coded(.notWritable)
        }
        try self.init(path: path, fd: fd, waiting: seconds, busy: busy)
    }

    /// Takes the lock on the open `fd` (closed when refused).
    private init(path: String, fd: Int32, waiting seconds: Double, busy: (String) -> SheetSyncError) throws {
        self.path = path
        self.fd = fd
        let deadline = Date().addingTimeInterval(seconds)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            // SIGINT/SIGTERM while waiting for another run: stop now (nothing was done yet).
            if Task.isCancelled {
                close(fd)
                throw CancellationError()
            }
            guard Date() < deadline else {
                // Only the pid for the message; the lock itself is what refuses the run.
                let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                close(fd)
                throw busy(holder.isEmpty ? "another sheetsync run" : "another sheetsync run (pid \(holder))")
            }
            usleep(50_000)
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
