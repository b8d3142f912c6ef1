import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// The temporary files of `AtomicFile` beside the target. The new version is written as
    /// `<name>` inside a private (0700) folder `.<name>.sheetsync-tmp-<pid>-<n>`, so that nobody else
    /// can read it even when the writer (the zip library does this) deletes and recreates the file
    /// it is given. Complete, it is renamed to `.<name>.sheetsync-swap-<pid>-<n>` beside the target.
    /// The exchange leaves the previous version under that swap name, so a crash right after it
    /// leaves a swap file that may be the only copy of someone's save: stale swap files are kept as
    /// backups, stale tmp folders (half-written new versions) are deleted.
    enum TempFiles {
        static func prefix(for name: String) -> String { ".\(name).sheetsync-tmp-" }
        static func swapPrefix(for name: String) -> String { ".\(name).sheetsync-swap-" }

        /// Creates an empty temporary file for `name` in its private folder in `folder` and returns
        /// its path. `O_EXCL`-like `mkdir` with a growing `n` keeps two writers from ever sharing one.
        static func create(for name: String, in folder: String, mode: mode_t) throws -> String {
            let base = folder + "/" + prefix(for: name) + "\(getpid())-"
            var n = 0
            while true {
                let directory = base + "\(n)"
                if mkdir(directory, 0o700) == 0 {
                    let path = directory + "/" + name
                    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
                    guard fd >= 0 else {
                        let failure = POSIXFile.failure("create a temporary file in", folder)
                        rmdir(directory)
                        throw failure
                    }
                    close(fd)
                    return path
                }
                guard errno == EEXIST || errno == EINTR, n < 10_000 else {
                    throw POSIXFile.failure("create a temporary file in", folder)
                }
                n += 1
            }
        }

        /// Moves a complete temporary file out of its private folder to its swap name.
        static func markComplete(_ tempPath: String, name: String, in folder: String) throws -> String {
            let directory = (tempPath as NSString).deletingLastPathComponent
            let swap = folder + "/" + swapPrefix(for: name) + directory.dropFirst((folder + "/" + prefix(for: name)).count)
            try POSIXFile.renameFile(tempPath, to: swap)
            try remove(directory)
            return swap
        }

        /// Removes a temporary file, and its private folder when it is still in one.
        static func discard(_ path: String, name: String, in folder: String) throws {
            let directory = (path as NSString).deletingLastPathComponent
            try POSIXFile.removeFile(path)
            if directory != folder { try remove(directory) }
        }

        /// Deals with temporary files of `name` (of every name when nil) that a crashed run left behind:
        /// half-written ones are removed, complete swap files handed to `keep` with the name of the file
        /// they belong to (a previous version may be in one). A file whose process is still alive
        /// (another sheetsync writing right now) is left alone.
        static func removeStale(of name: String?, in folder: String, keep: (_ name: String, _ path: String) throws -> Void) throws {
            let own = getpid()
            // A folder that cannot be listed leaves its stale files in place (kept, not lost); the
            // write itself then fails with its own error if the folder is unusable.
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for entry in entries {
                guard let left = Leftover(entry), name == nil || left.name == name else { continue }
                if left.pid != own && (kill(left.pid, 0) == 0 || errno == EPERM) { continue }
                // Only what a run of sheetsync can have left: a swap file is a regular file, a temporary
                // one a regular file (earlier versions) or a real folder of this user. Anything else under
                // such a name (a symlink put there) is neither moved nor deleted.
                let path = folder + "/" + entry
                let kind = FileSafety.kind(of: path)
                if left.isSwap {
                    guard kind == .file else { continue }
                    try keep(left.name, path)
                } else if kind == .file {
                    try POSIXFile.removeFile(path)
                } else if let fd = try? FileSafety.ownFolder(path) {
                    close(fd)
                    try remove(path)
                }
            }
        }

        /// A name under which a run leaves a temporary file: `.<name>.sheetsync-swap-<pid>-<n>` or
        /// `.<name>.sheetsync-tmp-<pid>-<n>`.
        struct Leftover {
            var name: String
            var pid: Int32
            var isSwap: Bool

            init?(_ entry: String) {
                for (marker, isSwap) in [(".sheetsync-swap-", true), (".sheetsync-tmp-", false)] {
                    guard entry.hasPrefix("."), let range = entry.range(of: marker, options: .backwards),
                        range.lowerBound > entry.index(after: entry.startIndex)
                    else { continue }
                    let parts = entry[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
                    guard parts.count == 2, let pid = Int32(parts[0]), Int(parts[1]) != nil else { continue }
                    self.name = String(entry[entry.index(after: entry.startIndex)..<range.lowerBound])
                    self.pid = pid
                    self.isSwap = isSwap
                    return
                }
                return nil
            }
        }

        /// Removes a file or a whole folder; one that is already gone is fine.
        private static func remove(_ path: String) throws {
            guard POSIXFile.exists(path) else { return }
            do { try FileManager.default.removeItem(atPath: path) } catch {
                throw AtomicFileError.io(operation: "remove", path: path, reason: "\(error)")
            }
        }

        /// Gives the written temporary file the target's permissions, flushes it to disk and
        /// returns the fingerprint it will have once renamed (a rename keeps the mtime). `contentHash`,
        /// when the writer kept it as it wrote, spares reading the file back.
        static func finish(_ path: String, mode: mode_t?, contentHash: UInt64? = nil) throws -> FileFingerprint {
            guard let fd = try POSIXFile.openFile(path, flags: O_RDONLY) else {
                throw POSIXFile.failure("open", path, ENOENT)
            }
            defer { close(fd) }
            if let mode, fchmod(fd, mode) != 0 {
                throw POSIXFile.failure("set permissions of", path)
            }
            let written =
                try contentHash.map { try FileFingerprint.of(fd, path: path, contentHash: $0) } ?? FileFingerprint.of(fd, path: path)
            try POSIXFile.sync(fd, path: path)
            return written
        }
    }
}
