import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces workbook files so that a reader (or a crash) only ever sees the old or the new
/// version, never a mix, and never overwrites a save made by someone else since the read.
///
/// Steps: remove stale temporary files of this target; create `.<name>.sheetsync-tmp-<pid>-<n>`
/// in the same folder (so the rename stays on one file system); let the caller write it;
/// fsync it; check the target still has the expected fingerprint; copy the old version into
/// `.sheetsync-backup/`; rename over the target; fsync the folder so the rename survives a
/// power loss.
public enum AtomicFile {
    /// The result of `replaceIfChanged`.
    public struct Outcome: Hashable, Sendable {
        /// Whether the file was replaced (false when it already held exactly these bytes).
        public var written: Bool
        /// The fingerprint of the file as it is now.
        public var fingerprint: FileFingerprint
    }

    /// Replaces `url` with what `write` puts into the temporary file it is given.
    ///
    /// - Parameters:
    ///   - expecting: the fingerprint of the file as it was read; nil means it must not exist.
    ///   - backupsToKeep: how many previous versions `.sheetsync-backup/` keeps (0: none).
    ///   - faults: test hook consulted after each `AtomicWriteStep`.
    ///   - now: the time that names the backup.
    /// - Returns: the fingerprint of the new file.
    /// - Throws: `AtomicFileError.changedSinceRead` when the file is no longer as expected;
    ///   on any error but an injected fault the temporary file is removed.
    @discardableResult
    public static func replace(
        _ url: URL,
        expecting: FileFingerprint?,
        backupsToKeep: Int = 5,
        faults: FaultInjector? = nil,
        now: Date = Date(),
        write: (URL) throws -> Void
    ) throws -> FileFingerprint {
        let target = url.resolvingSymlinksInPath()
        let path = target.path
        let folder = target.deletingLastPathComponent().path
        let name = target.lastPathComponent
        TempFiles.removeStale(of: name, in: folder)
        let mode = POSIXFile.permissions(path)
        let tempPath = try TempFiles.create(for: name, in: folder)
        var removeTemp = true
        defer { if removeTemp { try? POSIXFile.removeFile(tempPath) } }
        // A fault stands for a crash: nothing runs after it, not even the cleanup above.
        func reach(_ step: AtomicWriteStep) throws {
            do {
                try faults?.reach(step)
            } catch {
                removeTemp = false
                throw error
            }
        }

        try reach(.tempCreated)
        try write(URL(fileURLWithPath: tempPath))
        try reach(.tempWritten)
        let written = try TempFiles.finish(tempPath, mode: mode)
        try reach(.tempSynced)
        let current = try FileSnapshot.read(target)
        guard current?.fingerprint == expecting else {
            throw AtomicFileError.changedSinceRead(path: path)
        }
        if let current, backupsToKeep > 0 {
            try Backups.save(current.bytes, of: name, in: folder, keep: backupsToKeep, now: now)
        }
        try reach(.backedUp)
        try POSIXFile.renameFile(tempPath, to: path)
        removeTemp = false
        try reach(.renamed)
        try POSIXFile.syncDirectory(folder)
        try reach(.directorySynced)
        return written
    }

    /// Replaces `url` with `bytes`; see `replace(_:expecting:backupsToKeep:faults:now:write:)`.
    @discardableResult
    public static func replace(
        _ url: URL,
        with bytes: [UInt8],
        expecting: FileFingerprint?,
        backupsToKeep: Int = 5,
        faults: FaultInjector? = nil,
        now: Date = Date()
    ) throws -> FileFingerprint {
        try replace(url, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, now: now) { temp in
            let tempPath = temp.path
            guard let fd = try POSIXFile.openFile(tempPath, flags: O_WRONLY | O_TRUNC) else { return }
            defer { close(fd) }
            try bytes.withUnsafeBytes { try POSIXFile.writeAll(fd, $0, path: tempPath) }
        }
    }

    /// Replaces `url` with `bytes` only when its content differs, so an unchanged workbook
    /// keeps its modification time and gets no backup.
    ///
    /// The file must still match `expecting` even when nothing is written: a save made since
    /// the read means the caller's view is stale.
    public static func replaceIfChanged(
        _ url: URL,
        with bytes: [UInt8],
        expecting: FileFingerprint?,
        backupsToKeep: Int = 5,
        faults: FaultInjector? = nil,
        now: Date = Date()
    ) throws -> Outcome {
        let target = url.resolvingSymlinksInPath()
        let current = try FileSnapshot.read(target)
        guard current?.fingerprint == expecting else {
            throw AtomicFileError.changedSinceRead(path: target.path)
        }
        if let current, current.bytes == bytes {
            return Outcome(written: false, fingerprint: current.fingerprint)
        }
        let fingerprint = try replace(
            url, with: bytes, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, now: now)
        return Outcome(written: true, fingerprint: fingerprint)
    }
}
