import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension AtomicFile {
    /// The temporary files of `AtomicFile`: `.<name>.sheetsync-tmp-<pid>-<n>` beside the target.
    enum TempFiles {
        static func prefix(for name: String) -> String { ".\(name).sheetsync-tmp-" }

        /// Creates an empty temporary file for `name` in `folder` and returns its path. `O_EXCL`
        /// with a growing `n` keeps two writers from ever sharing one.
        static func create(for name: String, in folder: String) throws -> String {
            let base = folder + "/" + prefix(for: name) + "\(getpid())-"
            var n = 0
            while true {
                let path = base + "\(n)"
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                if fd >= 0 {
                    close(fd)
                    return path
                }
                guard errno == EEXIST || errno == EINTR, n < 10_000 else {
                    throw POSIXFile.failure("create a temporary file in", folder)
                }
                n += 1
            }
        }

        /// Removes temporary files of `name` that a crashed run left behind. A file whose process
        /// is still alive (another sheetsync writing right now) is left alone.
        static func removeStale(of name: String, in folder: String) {
            let prefix = prefix(for: name)
            let own = getpid()
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for entry in entries where entry.hasPrefix(prefix) {
                let parts = entry.dropFirst(prefix.count).split(separator: "-")
                guard parts.count == 2, let pid = Int32(parts[0]), Int(parts[1]) != nil else { continue }
                if pid != own && (kill(pid, 0) == 0 || errno == EPERM) { continue }
                try? POSIXFile.removeFile(folder + "/" + entry)
            }
        }

        /// Gives the written temporary file the target's permissions, flushes it to disk and
        /// returns the fingerprint it will have once renamed (a rename keeps the mtime).
        static func finish(_ path: String, mode: mode_t?) throws -> FileFingerprint {
            guard let fd = try POSIXFile.openFile(path, flags: O_RDONLY) else {
                throw POSIXFile.failure("open", path, ENOENT)
            }
            defer { close(fd) }
            if let mode, fchmod(fd, mode) != 0 {
                throw POSIXFile.failure("set permissions of", path)
            }
            let written = try FileSnapshot.read(fd, path: path)
            try POSIXFile.sync(fd, path: path)
            return written.fingerprint
        }
    }
}
