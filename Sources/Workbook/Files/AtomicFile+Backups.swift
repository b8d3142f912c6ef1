import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension AtomicFile {
    /// Previous versions of replaced files, kept in `.sheetsync-backup/` beside them as
    /// `<name>.<yyyyMMdd'T'HHmmss.SSS'Z'>` (plus `-<n>` when two fall in one millisecond).
    enum Backups {
        static let folderName = ".sheetsync-backup"

        /// Stores `bytes` as the newest backup of `name` and deletes all but the newest `keep`.
        static func save(_ bytes: [UInt8], of name: String, in folder: String, keep: Int, now: Date) throws {
            let directory = folder + "/" + folderName
            if mkdir(directory, 0o755) != 0 && errno != EEXIST {
                throw POSIXFile.failure("create the backup folder", directory)
            }
            let stamp = timestamp(now)
            var backupName = "\(name).\(stamp)"
            var n = 0
            while FileManager.default.fileExists(atPath: directory + "/" + backupName) {
                n += 1
                backupName = "\(name).\(stamp)-\(n)"
            }
            // Written under a hidden name first, so a crash never leaves a truncated backup that
            // looks complete.
            let partial = directory + "/." + backupName + ".partial"
            try POSIXFile.removeFile(partial)
            try POSIXFile.createFile(partial, bytes: bytes)
            try POSIXFile.renameFile(partial, to: directory + "/" + backupName)
            try POSIXFile.syncDirectory(directory)
            try rotate(name, in: directory, keep: keep)
        }

        /// The backups of `name` in `folder`'s backup folder, oldest first (file names only).
        static func list(of name: String, in folder: URL) -> [String] {
            let directory = folder.appendingPathComponent(folderName).path
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return entries.compactMap { entry in sortKey(entry, of: name).map { (entry, $0) } }
                .sorted { $0.1 < $1.1 }
                .map(\.0)
        }

        private static func rotate(_ name: String, in directory: String, keep: Int) throws {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for entry in entries where entry.hasPrefix(".\(name).") && entry.hasSuffix(".partial") {
                try POSIXFile.removeFile(directory + "/" + entry)
            }
            let backups = list(of: name, in: URL(fileURLWithPath: directory).deletingLastPathComponent())
            for old in backups.dropLast(keep) {
                try POSIXFile.removeFile(directory + "/" + old)
            }
        }

        /// `(timestamp, n)` when `entry` is a backup of `name`, so that `Transactions.csv.bak.*`
        /// never counts as a backup of `Transactions.csv`.
        private static func sortKey(_ entry: String, of name: String) -> SortKey? {
            guard entry.hasPrefix(name + ".") else { return nil }
            let rest = Array(entry.utf8.dropFirst(name.utf8.count + 1))
            let pattern = Array("dddddddd'T'dddddd.ddd'Z'".utf8.filter { $0 != UInt8(ascii: "'") })
            guard rest.count >= pattern.count else { return nil }
            for (byte, expected) in zip(rest, pattern) {
                let ok = expected == UInt8(ascii: "d") ? (0x30...0x39).contains(byte) : byte == expected
                guard ok else { return nil }
            }
            let suffix = rest.dropFirst(pattern.count)
            var n = 0
            if !suffix.isEmpty {
                guard suffix.first == UInt8(ascii: "-"), let parsed = Int(String(decoding: suffix.dropFirst(), as: UTF8.self))
                else { return nil }
                n = parsed
            }
            return SortKey(stamp: String(decoding: rest.prefix(pattern.count), as: UTF8.self), n: n)
        }

        private struct SortKey: Comparable {
            var stamp: String
            var n: Int
            static func < (a: SortKey, b: SortKey) -> Bool { (a.stamp, a.n) < (b.stamp, b.n) }
        }

        static func timestamp(_ date: Date) -> String {
            let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
            var fraction = Int(milliseconds % 1000)
            if fraction < 0 {
                fraction += 1000
                seconds -= 1
            }
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func pad(_ value: Int32, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + "T"
                + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "."
                + pad(Int32(fraction), 3) + "Z"
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
