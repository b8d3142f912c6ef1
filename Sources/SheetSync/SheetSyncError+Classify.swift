import Foundation
import SheetSyncStore
import Workbook

extension SheetSyncError {
    /// The error a run ends with, for an error that is not one already: SQLite and file-system
    /// failures are told apart by their codes (never their text), so a busy store or a full disk is
    /// temporary (75), a damaged store or a path that cannot be written is configuration (78), and
    /// only what nobody expected is an internal error (nil: exit 1).
    public static func classify(_ error: any Error, store: String) -> SheetSyncError? {
        if let error = error as? SheetSyncError { return error }
        if let error = error as? AtomicFileError { return .replacing(error) }
        return outcome(of: error, store: store)?.causedBy(error)
    }

    private static func outcome(of error: any Error, store: String) -> SheetSyncError? {
        if let trouble = StoreTrouble(error) {
            // The store's own error names the file it failed on (an in-memory copy's source, say).
            var store = store
            if case .failed(let path, _, _, _)? = error as? StoreError { store = path }
            switch trouble {
            case .busy:
                return .temporary(
                    "the store \(store) is busy (another program holds a write lock on it); nothing was lost, try again later"
                ).coded(.storeBusy)
            case .full:
                return .temporary(
                    "no space left on device while writing the store \(store); nothing was lost, free some space and run again"
                ).coded(.noSpace)
            case .io:
                return .temporary("disk I/O error on the store \(store); nothing was lost, run again").coded(.diskError)
            case .corrupt:
                return .configuration("the store \(store) is damaged; move it aside (the next sync rebuilds it from the workbook)").coded(
                    .storeDamaged)
            case .notWritable:
                return .configuration("the store \(store) cannot be written (permissions or a read-only file system)").coded(.notWritable)
            }
        }
        switch error as? StoreError {
        case .cannotOpen?, .newerStore?: return .configuration("\(error)").coded(.storeUnusable)
        default: break
        }
        let ns = error as NSError
        let posix =
            (ns.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
            ?? (ns.domain == NSPOSIXErrorDomain ? Int32(ns.code) : nil)
        let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path ?? "a file"
        if posix == ENOSPC || (ns.domain == NSCocoaErrorDomain && ns.code == CocoaError.fileWriteOutOfSpace.rawValue) {
            return .temporary("no space left on device while writing \(path); nothing was lost, free some space and run again").coded(
                .noSpace)
        }
        if posix == EACCES || posix == EPERM || posix == EROFS
            || (ns.domain == NSCocoaErrorDomain
                && [
                    CocoaError.fileWriteNoPermission.rawValue, CocoaError.fileReadNoPermission.rawValue,
                    CocoaError.fileWriteVolumeReadOnly.rawValue,
                ].contains(ns.code))
        {
            return .configuration("permission denied: \(path) cannot be written; make it writable or point the config elsewhere").coded(
                .notWritable)
        }
        return nil
    }
}
