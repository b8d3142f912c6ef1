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
/// Steps: refuse a read-only file or folder; deal with temporary files a crash left; create
/// `.<name>.sheetsync-tmp-<pid>-<n>` in the target's folder (so the rename stays on one file
/// system) with the target's permissions; let the caller write it; fsync it; check the target
/// still has the expected fingerprint; exchange the two files atomically (`renameat2`
/// `RENAME_EXCHANGE`) and look at what came out: exactly what was read goes into
/// `.sheetsync-backup/`, anything else is a save that landed after the check and is exchanged
/// back (kept as a backup too) before `changedSinceRead` is thrown; fsync the folder so the
/// change survives a power loss. See `AtomicFile+Exchange.swift` for file systems that cannot
/// exchange.
///
/// Nothing but a regular file is replaced: a symlink, a folder, a FIFO or a device at the path is
/// refused (`notAFile`) and left as it is (`FileSafety`; the folder the path names is followed as
/// given). Backups go beside the path given, named after it.
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
    /// - Throws: `AtomicFileError.changedSinceRead` when the file is no longer as expected,
    ///   `.readOnly` for a file or folder without write permission, `.noSpace` on a full disk;
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
        try replace(url, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, now: now, write: write, writtenHash: nil)
    }

    /// `replace(_:expecting:backupsToKeep:faults:now:write:)`, where `writtenHash` (when given) is the
    /// content hash of what `write` wrote, kept as it went: the new file is then not read back for it.
    private static func replace(
        _ url: URL,
        expecting: FileFingerprint?,
        backupsToKeep: Int,
        faults: FaultInjector?,
        now: Date,
        write: (URL) throws -> Void,
        writtenHash: (() -> UInt64)?
    ) throws -> FileFingerprint {
        let target = resolvedFolder(url)
        let path = target.path
        let folder = target.deletingLastPathComponent().path
        let name = target.lastPathComponent
        let mode = try requireWritable(path, in: folder, reportedAs: url)
        let keep = try backups(of: url, mode: mode, count: backupsToKeep, now: now)
        // A stale swap file may hold a save nobody else has: it is kept even when backups are off.
        try TempFiles.removeStale(of: name, in: folder) { try keep.adoptForeign($1) }
        let newVersion = try NewVersion(of: name, in: folder, mode: mode, reportedAs: url, faults: faults)
        // Best-effort cleanup of our own temporary file; a leftover is swept by the next write.
        defer { newVersion.discardUnlessHandedOver() }
        try newVersion.reach(.tempCreated)
        let written = try newVersion.write(write, writtenHash: writtenHash)
        try newVersion.markComplete()
        try newVersion.reach(.tempSynced)
        let swap = Swap(
            newVersion: newVersion.path, target: path, folder: folder, expecting: expecting, written: written, keep: keep,
            canExchange: !(faults?.refusesExchange ?? false))
        // From here on the temporary path may hold the previous version: `Swap` decides its fate.
        newVersion.handOver()
        try swap.run(newVersion.reach)
        try POSIXFile.syncDirectory(folder)
        try newVersion.reach(.directorySynced)
        return written
    }

    /// Refuses anything but a regular file (or nothing) at `path`, and a file, folder or file system
    /// without write permission; returns the file's permissions (nil: there is no file yet).
    private static func requireWritable(_ path: String, in folder: String, reportedAs url: URL) throws -> mode_t? {
        try FileSafety.requireFileOrNothing(path)
        let mode = POSIXFile.permissions(path)
        if POSIXFile.isOnReadOnlyFileSystem(folder) {
            throw AtomicFileError.readOnlyFileSystem(operation: "replace", path: url.path)
        }
        if mode != nil, POSIXFile.isReadOnly(path) {
            throw AtomicFileError.readOnly(path: url.path, isFolder: false)
        }
        if POSIXFile.isReadOnly(folder) {
            throw AtomicFileError.readOnly(path: folder, isFolder: true)
        }
        return mode
    }

    /// The previous versions of `url` kept in `.sheetsync-backup/` beside it.
    private static func backups(of url: URL, mode: mode_t?, count: Int, now: Date) throws -> KeptVersions {
        let keep = KeptVersions(
            folder: url.deletingLastPathComponent().path, name: url.lastPathComponent, mode: mode ?? 0o644, count: count, now: now)
        // A backup folder that is no folder of this user (a symlink to where a rotation would delete) is
        // refused before anything is written, not after the new version is in place.
        try Backups.refuseForeignFolder(in: keep.folder)
        return keep
    }

    /// The temporary file one `replace` writes the new version into, until `Swap` takes it over.
    private final class NewVersion {
        private(set) var path: String
        private let name: String
        private let folder: String
        private let mode: mode_t?
        /// The path errors name: the workbook file, not the temporary one.
        private let reported: URL
        private let faults: FaultInjector?
        private var removeOnExit = true

        init(of name: String, in folder: String, mode: mode_t?, reportedAs reported: URL, faults: FaultInjector?) throws {
            // A new file gets the usual 0666-minus-umask; an existing one keeps its own mode throughout.
            path = try TempFiles.create(for: name, in: folder, mode: mode.map { ($0 & 0o700) | 0o600 } ?? 0o666)
            (self.name, self.folder, self.mode, self.reported, self.faults) = (name, folder, mode, reported, faults)
        }

        /// A simulated crash stops everything, even the cleanup; an injected system-call failure
        /// (`FaultInjector.fail`) is handled as the real one would be.
        func reach(_ step: AtomicWriteStep) throws {
            do {
                try faults?.reach(step)
            } catch let error as SimulatedCrash {
                removeOnExit = false
                throw error
            } catch let failure as InjectedFailure {
                throw POSIXFile.failure(failure.operation, reported.path, failure.code)
            }
        }

        /// Lets `write` fill the file, then fsyncs it with its final mode; returns its fingerprint.
        func write(_ write: (URL) throws -> Void, writtenHash: (() -> UInt64)?) throws -> FileFingerprint {
            do {
                try write(URL(fileURLWithPath: path))
                try reach(.tempWritten)
                return try TempFiles.finish(path, mode: mode, contentHash: writtenHash?())
            } catch let error where error is SimulatedCrash {
                throw error
            } catch let error where (error as? AtomicFileError).map(\.isNoSpace) ?? POSIXFile.isFull(folder) {
                // Writers such as the zip library report a full disk in their own words, and the temporary
                // file's name means little to the user: name the workbook file, say "no space left".
                throw AtomicFileError.noSpace(operation: "write the new version of", path: reported.path)
            }
        }

        /// Moves the complete file to its swap name beside the target.
        func markComplete() throws {
            path = try TempFiles.markComplete(path, name: name, in: folder)
        }

        /// The file is `Swap`'s from now on: it is no longer removed on the way out.
        func handOver() { removeOnExit = false }

        func discardUnlessHandedOver() {
            if removeOnExit { try? TempFiles.discard(path, name: name, in: folder) }
        }
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
        try replaceInChunks(url, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, now: now) { sink in
            try sink(bytes[...])
        }
    }

    /// Replaces `url` with the chunks `produce` hands to the sink it is given, each written as it
    /// comes (with write(2)), so a big file is never held whole; see
    /// `replace(_:expecting:backupsToKeep:faults:now:write:)`.
    @discardableResult
    public static func replaceInChunks(
        _ url: URL,
        expecting: FileFingerprint?,
        backupsToKeep: Int = 5,
        faults: FaultInjector? = nil,
        now: Date = Date(),
        chunks produce: (_ sink: (ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws -> FileFingerprint {
        // Hashed as it is written: the new file's fingerprint without reading it back.
        var hash = ContentHash.Stream()
        return try replace(
            url, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, now: now,
            write: { (temp: URL) in
                let tempPath = temp.path
                guard let fd = try POSIXFile.openFile(tempPath, flags: O_WRONLY | O_TRUNC) else { return }
                defer { close(fd) }
                try produce { chunk in
                    try chunk.withUnsafeBytes { bytes in
                        try POSIXFile.writeAll(fd, bytes, path: tempPath)
                        hash.add(bytes)
                    }
                }
            },
            writtenHash: { hash.finish() })
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
        let target = resolvedFolder(url)
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

    /// Sweeps what runs that died (kill -9, a power loss) left in `folder` under sheetsync's temporary
    /// names, for every file there: a complete swap file (the previous version the exchange brought
    /// out, possibly someone's save) is moved into the backups of the file it belongs to, a half-written
    /// temporary file or folder (the XLSX spool with it) is removed. Files of a run still alive, and
    /// anything but a regular file or this user's own folder under such a name, are left alone. For a
    /// run that holds the workbook's lock; the next write of a file sweeps its own leftovers anyway.
    public static func sweepLeftovers(in folder: URL, backupsToKeep: Int, now: Date = Date()) throws {
        let resolved = folder.resolvingSymlinksInPath().path
        try TempFiles.removeStale(of: nil, in: resolved) { name, path in
            let keep = KeptVersions(
                folder: folder.path, name: name, mode: POSIXFile.permissions(path) ?? 0o600, count: backupsToKeep, now: now)
            try keep.adoptForeign(path)
        }
    }

    /// `url` with its folder's symlinks resolved (the folder is the user's, as configured) and its last
    /// component as given: that one is never followed.
    static func resolvedFolder(_ url: URL) -> URL {
        url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent)
    }
}
