import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// The temporary files of `AtomicFile` beside the target: `.<name>.sheetsync-tmp-<pid>-<n>` while
    /// the new version is written, renamed to `.<name>.sheetsync-swap-<pid>-<n>` once complete. The
    /// exchange leaves the previous version under the swap name, so a crash right after it leaves a
    /// swap file that may be the only copy of someone's save: stale swap files are kept as backups,
    /// stale tmp files (half-written new versions) are deleted.
    enum TempFiles {
        static func prefix(for name: String) -> String { ".\(name).sheetsync-tmp-" }
        static func swapPrefix(for name: String) -> String { ".\(name).sheetsync-swap-" }

        /// Creates an empty temporary file for `name` in `folder` and returns its path. `O_EXCL`
        /// with a growing `n` keeps two writers from ever sharing one. `mode` applies from the
        /// first byte, so a private workbook's content is never readable by others, even briefly.
        static func create(for name: String, in folder: String, mode: mode_t) throws -> String {
            let base = folder + "/" + prefix(for: name) + "\(getpid())-"
            var n = 0
            while true {
                let path = base + "\(n)"
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
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

        /// Renames a complete temporary file to its swap name (see the type's comment).
        static func markComplete(_ tempPath: String, name: String, in folder: String) throws -> String {
            let swap = folder + "/" + swapPrefix(for: name) + tempPath.dropFirst((folder + "/" + prefix(for: name)).count)
            try POSIXFile.renameFile(tempPath, to: swap)
            return swap
        }

        /// Deals with temporary files of `name` that a crashed run left behind: half-written ones are
        /// removed, complete swap files handed to `keep` (a previous version may be in one). A file
        /// whose process is still alive (another sheetsync writing right now) is left alone.
        static func removeStale(of name: String, in folder: String, keep: (String) throws -> Void) throws {
            let own = getpid()
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for (prefix, isSwap) in [(prefix(for: name), false), (swapPrefix(for: name), true)] {
                for entry in entries where entry.hasPrefix(prefix) {
                    let parts = entry.dropFirst(prefix.count).split(separator: "-")
                    guard parts.count == 2, let pid = Int32(parts[0]), Int(parts[1]) != nil else { continue }
                    if pid != own && (kill(pid, 0) == 0 || errno == EPERM) { continue }
                    if isSwap {
                        try keep(folder + "/" + entry)
                    } else {
                        try POSIXFile.removeFile(folder + "/" + entry)
                    }
                }
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
