import Foundation

#if canImport(Glibc)
    // `struct stat`'s members come from whichever of CoreFoundation and Dispatch loaded its header first.
    import CoreFoundation
    import CDispatch
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// Previous versions of replaced files, kept in `.sheetsync-backup/` beside the workbook as
    /// `<stem>.<yyyy-MM-dd'T'HHmmss'Z'><.ext>` (`Transactions.2026-11-23T170959Z.csv`), so a
    /// backup opens in the same program as the file and `ls` lists them oldest first. A second
    /// backup in the same second gets `_1`, `_2`… after the `Z` (which still sorts after the first).
    ///
    /// Names of earlier versions (`Transactions.csv.20261123T170959.123Z`) are recognised too, so
    /// pruning removes them in turn.
    enum Backups {
        static let folderName = ".sheetsync-backup"

        /// The backup folder for a workbook file in `folder`, created (or narrowed) so that it is no
        /// more open than a folder holding files of `mode` needs to be: 0600 files give 0700, 0644 give 0755.
        /// One that is there must be a real folder of this user: a symlink (to a folder whose files a
        /// rotation would delete), a file or another user's folder is refused (`notAFolder`).
        static func prepareFolder(in folder: String, fileMode: mode_t) throws -> OpenFolder {
            let path = folder + "/" + folderName
            let wanted = folderMode(forFileMode: fileMode)
            let made = mkdir(path, wanted) == 0
            guard made || errno == EEXIST else { throw POSIXFile.failure("create the backup folder", path) }
            let directory = OpenFolder(fd: try FileSafety.ownFolder(path), path: path)
            // mkdir's mode is narrowed by the umask; the folder must match the file, not the umask. A folder
            // that an earlier version created 0755 must not keep a private file's backups open.
            let current = try POSIXFile.status(directory.fd, path: path).st_mode & 0o7777
            let mode = made ? wanted : current & wanted
            if mode != current, fchmod(directory.fd, mode) != 0 { throw POSIXFile.failure("set permissions of", path) }
            return directory
        }

        /// Throws `notAFolder` when something is at the backup folder's name in `folder` that
        /// `prepareFolder` would refuse; nothing is created.
        static func refuseForeignFolder(in folder: String) throws {
            let path = folder + "/" + folderName
            guard FileSafety.kind(of: path) != .missing else { return }
            close(try FileSafety.ownFolder(path))
        }

        /// A folder's mode for files of `mode`: owner rwx, and search permission wherever read is given.
        static func folderMode(forFileMode mode: mode_t) -> mode_t {
            (mode & 0o777) | ((mode & 0o444) >> 2) | 0o700
        }

        /// A new backup name for `name` at `now` in `directory`, sorting after every backup of that second
        /// there is: the counter goes on from the highest one, never back to a name pruning freed (which
        /// would sort oldest and be pruned at once, losing the newest version).
        static func freshName(for name: String, in directory: OpenFolder, now: Date) -> String {
            let (stem, ext) = split(name)
            let stamp = timestamp(now)
            let first = "\(stem).\(stamp)\(ext)", counted = "\(stem).\(stamp)_"
            let highest = directory.entries().compactMap { entry -> Int? in
                guard entry.hasPrefix(counted), entry.hasSuffix(ext) else { return nil }
                return Int(entry.dropFirst(counted.count).dropLast(ext.count))
            }.max()
            guard highest != nil || directory.contains(first) else { return first }
            var n = (highest ?? 0) + 1
            while directory.contains(counted + "\(n)" + ext) { n += 1 }
            return counted + "\(n)" + ext
        }

        /// Stores `bytes` as the newest backup of `name` (with `mode`) and prunes to `keep`.
        static func save(
            _ bytes: [UInt8], of name: String, in folder: String, mode: mode_t, keep: Int, now: Date
        ) throws {
            let directory = try prepareFolder(in: folder, fileMode: mode)
            let backupName = freshName(for: name, in: directory, now: now)
            // Written under a hidden name first, so a crash never leaves a truncated backup that
            // looks complete.
            let partial = "." + backupName + ".partial"
            try directory.remove(partial)
            try directory.create(partial, bytes: bytes, mode: mode)
            try directory.rename(partial, to: backupName)
            try directory.sync()
            try prune(name, in: directory, keep: keep)
        }

        /// Moves the file at `path` (a previous version, complete on disk) into the backups of
        /// `name`, copying when the backup folder is on another file system; then prunes to `keep`.
        static func adopt(_ path: String, of name: String, in folder: String, mode: mode_t, keep: Int, now: Date) throws {
            let directory = try prepareFolder(in: folder, fileMode: mode)
            let destination = freshName(for: name, in: directory, now: now)
            let moved = directory.moveIn(path, as: destination)
            if moved != 0 {
                guard moved == EXDEV else {
                    throw POSIXFile.failure("move a previous version into", directory.path + "/" + destination, moved)
                }
                guard let snapshot = try FileSnapshot.read(URL(fileURLWithPath: path)) else {
                    throw POSIXFile.failure("read", path, ENOENT)
                }
                let partial = "." + destination + ".partial"
                try directory.remove(partial)
                try directory.create(partial, bytes: snapshot.bytes, mode: mode)
                try directory.rename(partial, to: destination)
                try POSIXFile.removeFile(path)
            }
            try directory.sync()
            try prune(name, in: directory, keep: keep)
        }

        /// The backups of `name` in `folder`'s backup folder, oldest first (file names only).
        static func list(of name: String, in folder: URL) -> [String] {
            let directory = folder.appendingPathComponent(folderName).path
            // No backup folder (or none readable) means no backups to list; nothing is written here.
            guard case .folder = FileSafety.kind(of: directory) else { return [] }
            return backups(of: name, among: (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        }

        /// Those of `entries` that are backups of `name`, oldest first.
        static func backups(of name: String, among entries: [String]) -> [String] {
            entries.compactMap { entry in sortKey(entry, of: name).map { (entry, $0) } }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
                .map(\.0)
        }

        /// Deletes all but the newest `keep` backups of `name` (and leftovers of interrupted saves), each
        /// by its name in the open folder: never a file anywhere else.
        static func prune(_ name: String, in directory: OpenFolder, keep: Int) throws {
            // Pruning only deletes: a folder that cannot be listed keeps more backups, never fewer.
            let entries = directory.entries()
            let (stem, _) = split(name)
            for entry in entries where entry.hasSuffix(".partial") && (entry.hasPrefix(".\(name).") || entry.hasPrefix(".\(stem).")) {
                if sortKey(String(entry.dropFirst().dropLast(".partial".count)), of: name) != nil {
                    try directory.remove(entry)
                }
            }
            for old in backups(of: name, among: directory.entries()).dropLast(max(keep, 0)) {
                try directory.remove(old)
            }
        }

        /// `Transactions.csv` → (`Transactions`, `.csv`); a name without extension keeps all as stem.
        static func split(_ name: String) -> (stem: String, ext: String) {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
            return (String(name[..<dot]), String(name[dot...]))
        }

        /// Where `entry` sorts among the backups of `name`, or nil when it is not one (so that
        /// `Transactions.csv.bak.*` never counts as a backup of `Transactions.csv`).
        static func sortKey(_ entry: String, of name: String) -> SortKey? {
            let (stem, ext) = split(name)
            if entry.hasPrefix(stem + "."), entry.hasSuffix(ext) {
                let middle = entry.utf8.dropFirst(stem.utf8.count + 1).dropLast(ext.utf8.count)
                if let key = parse(Array(middle), pattern: "dddd-dd-dd'T'dddddd'Z'", separator: "_") { return key }
            }
            if entry.hasPrefix(name + ".") {
                // The names of sheetsync before 2026-11: `<name>.<yyyyMMdd'T'HHmmss.SSS'Z'>[-n]`.
                return parse(Array(entry.utf8.dropFirst(name.utf8.count + 1)), pattern: "dddddddd'T'dddddd.ddd'Z'", separator: "-")
            }
            return nil
        }

        /// Matches `text` against `pattern` (`d` a digit, anything else itself) plus an optional
        /// `<separator><n>` counter; the key is the digits of the stamp and the counter.
        private static func parse(_ text: [UInt8], pattern: String, separator: Character) -> SortKey? {
            let pattern = Array(pattern.utf8.filter { $0 != UInt8(ascii: "'") })
            guard text.count >= pattern.count else { return nil }
            var digits: [UInt8] = []
            for (byte, expected) in zip(text, pattern) {
                if expected == UInt8(ascii: "d") {
                    guard (0x30...0x39).contains(byte) else { return nil }
                    digits.append(byte)
                } else {
                    guard byte == expected else { return nil }
                }
            }
            // Old names carry milliseconds, new ones do not: both compare as yyyyMMddHHmmssSSS.
            while digits.count < 17 { digits.append(0x30) }
            let suffix = text.dropFirst(pattern.count)
            var n = 0
            if !suffix.isEmpty {
                guard let sep = separator.asciiValue, suffix.first == sep,
                    let parsed = Int(String(decoding: suffix.dropFirst(), as: UTF8.self)), parsed > 0
                else { return nil }
                n = parsed
            }
            return SortKey(stamp: String(decoding: digits, as: UTF8.self), n: n)
        }

        struct SortKey: Comparable {
            var stamp: String
            var n: Int
            static func < (a: SortKey, b: SortKey) -> Bool { (a.stamp, a.n) < (b.stamp, b.n) }
        }

        /// `2026-11-23T170959Z`: UTC, to the second, sortable as text.
        static func timestamp(_ date: Date) -> String {
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func pad(_ value: Int32, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2) + "T"
                + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "Z"
        }
    }
}

extension AtomicFile {
    /// The folder beside a workbook file that keeps its previous versions.
    public static let backupFolderName = Backups.folderName

    /// The backup file names of `fileName` in `folder`'s backup folder, oldest first.
    public static func backups(of fileName: String, in folder: URL) -> [String] {
        Backups.list(of: fileName, in: folder)
    }
}
