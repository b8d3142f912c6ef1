import CFileSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// Where and how previous versions of one workbook file are kept.
    struct KeptVersions {
        /// The folder the workbook file is in, as configured (a symlink's folder, not its target's).
        var folder: String
        /// The workbook file's name as configured, which names its backups.
        var name: String
        /// The workbook file's permissions, which its backups and their folder take.
        var mode: mode_t
        var count: Int
        var now: Date

        /// Keeps a copy of `bytes`, even when no backups are wanted: only foreign saves come here.
        func save(_ bytes: [UInt8]) throws {
            try Backups.save(bytes, of: name, in: folder, mode: mode, keep: max(count, 1), now: now)
        }

        /// Moves the file at `path` into the backups; removes it when no backups are wanted.
        func adopt(_ path: String) throws {
            guard count > 0 else { return try POSIXFile.removeFile(path) }
            try Backups.adopt(path, of: name, in: folder, mode: mode, keep: count, now: now)
        }

        /// Moves a foreign save at `path` into the backups, whatever `count` says.
        func adoptForeign(_ path: String) throws {
            try Backups.adopt(path, of: name, in: folder, mode: mode, keep: max(count, 1), now: now)
        }
    }

    /// Puts a complete new version in place of the target without a gap in which a save made by
    /// someone else could be overwritten without a copy.
    ///
    /// With `RENAME_EXCHANGE` the target is never unlinked: whatever is there at the instant of the
    /// exchange comes out under the temporary name and is inspected. File systems that cannot
    /// exchange (EINVAL, ENOSYS, ENOTSUP, EXDEV) get a hard link of the target in the backup folder
    /// before the check; a save written into the file in place after the check then survives in
    /// that link and is put back, but a save that *replaces* the file (a new inode) in the instant
    /// between check and rename is still overwritten there.
    struct Swap {
        var newVersion: String
        var target: String
        var folder: String
        var expecting: FileFingerprint?
        var written: FileFingerprint
        var keep: KeptVersions
        var canExchange: Bool

        func run(_ reachStep: (AtomicWriteStep) throws -> Void) throws {
            var placed = false
            // An injected fault stands for a crash: it leaves the file where it is, as kill -9 would.
            var crashed = false
            // Best-effort cleanup of our own unplaced copy (the target is untouched); one left behind
            // is a stale temporary file that the next write sweeps away.
            defer { if !placed && !crashed { try? POSIXFile.removeFile(newVersion) } }
            func reach(_ step: AtomicWriteStep) throws {
                do { try reachStep(step) } catch let error as SimulatedCrash {
                    crashed = true
                    throw error
                }
            }
            guard let expecting else {
                try createNew(reach)
                placed = true
                return
            }
            // With the size and modification time it was read with, the file is exchanged unread: what
            // the exchange brings out is read and checked whole (`settleExchange`), and a save found
            // there goes back in place. Anything else is checked whole here first.
            let looksAsRead = canExchange && FileFingerprint.hasSizeAndTime(of: expecting, path: target)
            if !looksAsRead { try checkAsRead(expecting) }
            if canExchange {
                try reach(.checked)
                if sheetsync_exchange(newVersion, target) == 0 {
                    placed = true
                    try reach(.renamed)
                    return try settleExchange(expecting: expecting, reach)
                }
                guard Self.cannotDo(errno) else { throw POSIXFile.failure("exchange the new version with", target) }
                if looksAsRead { try checkAsRead(expecting) }
            }
            try linkThenRename(expecting: expecting, reach, placed: &placed)
        }

        /// The target's whole content still what was read.
        private func checkAsRead(_ expecting: FileFingerprint) throws {
            guard try FileFingerprint.of(URL(fileURLWithPath: target)) == expecting else {
                throw AtomicFileError.changedSinceRead(path: target)
            }
        }

        /// What was exchanged out is at `newVersion`: the previous version (kept), or a save that
        /// landed after the check, which goes back in place.
        private func settleExchange(expecting: FileFingerprint, _ reach: (AtomicWriteStep) throws -> Void) throws {
            try putBackWhatIsNoFile()
            let outURL = URL(fileURLWithPath: newVersion)
            guard let out = try FileFingerprint.of(outURL) else {
                throw POSIXFile.failure("read the previous version", newVersion, ENOENT)
            }
            if out == expecting {
                try keep.adopt(newVersion)
                try reach(.backedUp)
                return
            }
            // Someone saved in the instant after the check. Their version goes back live, and a
            // copy stays in the backups whatever happens next.
            guard let saved = try FileSnapshot.read(outURL) else {
                throw POSIXFile.failure("read the previous version", newVersion, ENOENT)
            }
            try keep.save(saved.bytes)
            if sheetsync_exchange(newVersion, target) != 0 {
                try POSIXFile.renameFile(newVersion, to: target)
            } else if let back = try FileFingerprint.of(outURL), back != written {
                // Another save landed on our version while it was live: keep that one as well.
                try keep.adoptForeign(newVersion)
            } else {
                try POSIXFile.removeFile(newVersion)
            }
            try POSIXFile.syncDirectory(folder)
            throw AtomicFileError.changedSinceRead(path: target)
        }

        /// Something other than a regular file came out of the exchange (a folder or a link put in the
        /// file's place after the check): it goes back where it was, and the new version is removed, so
        /// nothing stays hidden under the swap name and nothing was replaced. A regular file goes on.
        private func putBackWhatIsNoFile() throws {
            let what: String
            switch FileSafety.kind(of: newVersion) {
            case .file, .missing: return
            case .folder: what = "a folder"
            case .other(let description): what = description
            }
            guard sheetsync_exchange(newVersion, target) == 0 else {
                throw AtomicFileError.io(
                    operation: "put back \(what) found at", path: target,
                    reason: "\(String(cString: strerror(errno))); it is at '\(newVersion)', and sheetsync's new version in its place")
            }
            // Ours again under the swap name (a regular file, as written): removed, never followed.
            if FileSafety.kind(of: newVersion) == .file { try POSIXFile.removeFile(newVersion) }
            try POSIXFile.syncDirectory(folder)
            throw AtomicFileError.replacedMeanwhile(path: target, what: what)
        }

        /// The fallback: hard-link the current target into the backup folder, check it, rename.
        private func linkThenRename(
            expecting: FileFingerprint, _ reach: (AtomicWriteStep) throws -> Void, placed: inout Bool
        ) throws {
            let held = try holdCurrent()
            // Best-effort: the link is a second name for a version that is kept elsewhere by now, and is
            // named as a partial backup, which pruning clears when it stays behind.
            defer { if let held { try? POSIXFile.removeFile(held) } }
            if let held {
                // The check again, on the very inode that the rename will unlink from the target.
                guard try FileFingerprint.of(URL(fileURLWithPath: held)) == expecting else {
                    throw AtomicFileError.changedSinceRead(path: target)
                }
            } else if keep.count > 0 {
                // No second name for the current version: a copy of it, checked again.
                guard let current = try FileSnapshot.read(URL(fileURLWithPath: target)), current.fingerprint == expecting else {
                    throw AtomicFileError.changedSinceRead(path: target)
                }
                try keep.save(current.bytes)
            }
            try reach(.checked)
            try POSIXFile.renameFile(newVersion, to: target)
            placed = true
            try reach(.renamed)
            guard let held else { return try reach(.backedUp) }
            if let replaced = try FileFingerprint.of(URL(fileURLWithPath: held)), replaced != expecting,
                let replaced = try FileSnapshot.read(URL(fileURLWithPath: held))
            {
                // A save written in place after the check: it is in the held inode, put it back
                // (before any backup is saved: pruning clears partial names such as the held link's).
                let restore = held + ".restore"
                try POSIXFile.removeFile(restore)
                guard link(held, restore) == 0 else { throw POSIXFile.failure("restore the saved version of", target) }
                try POSIXFile.renameFile(restore, to: target)
                try POSIXFile.syncDirectory(folder)
                try keep.save(replaced.bytes)
                throw AtomicFileError.changedSinceRead(path: target)
            }
            try keep.adopt(held)
            try reach(.backedUp)
        }

        /// A hard link to the target in the backup folder, or nil when backups are off or the file
        /// system cannot link there (the backup is then a copy, taken after the check).
        private func holdCurrent() throws -> String? {
            guard keep.count > 0 else { return nil }
            let directory = try Backups.prepareFolder(in: keep.folder, fileMode: keep.mode)
            // Named as a partial backup, so that pruning clears it away if a crash leaves it.
            let held = "." + Backups.freshName(for: keep.name, in: directory, now: keep.now) + ".partial"
            try directory.remove(held)
            let linked = directory.linkIn(target, as: held)
            guard linked == 0 else {
                guard Self.cannotDo(linked) || linked == EPERM || linked == EMLINK else {
                    throw POSIXFile.failure("link the previous version into", directory.path, linked)
                }
                return nil
            }
            return directory.path + "/" + held
        }

        /// A new file, which must not exist: never replaces a file created meanwhile.
        private func createNew(_ reach: (AtomicWriteStep) throws -> Void) throws {
            try reach(.checked)
            var placed = canExchange && sheetsync_rename_noreplace(newVersion, target) == 0
            if !placed {
                if errno == EEXIST { throw AtomicFileError.changedSinceRead(path: target) }
                guard !canExchange || Self.cannotDo(errno) else { throw POSIXFile.failure("rename into", target) }
                // link(2) fails with EEXIST rather than replace, on every POSIX file system that has links.
                if link(newVersion, target) == 0 {
                    try POSIXFile.removeFile(newVersion)
                    placed = true
                } else if errno == EEXIST {
                    throw AtomicFileError.changedSinceRead(path: target)
                } else if !(Self.cannotDo(errno) || errno == EPERM) {
                    throw POSIXFile.failure("create", target)
                }
            }
            if !placed {
                guard !POSIXFile.exists(target) else { throw AtomicFileError.changedSinceRead(path: target) }
                try POSIXFile.renameFile(newVersion, to: target)
            }
            try reach(.renamed)
            try reach(.backedUp)
        }

        /// Errors that mean "this file system cannot do that", not "this failed".
        static func cannotDo(_ code: Int32) -> Bool {
            [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP, EXDEV].contains(code)
        }
    }
}
