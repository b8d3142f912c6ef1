import Workbook

extension SheetSyncError {
    /// The exit code and message for a workbook file that could not be replaced: a save to merge
    /// or a full disk is temporary (75, nothing lost); a read-only file, a refused permission or
    /// something other than a regular file in the file's place (a symlink, a FIFO, a device) needs the
    /// user (78), and the message names the path and what to do.
    static func replacing(_ error: AtomicFileError) -> SheetSyncError {
        outcome(replacing: error).causedBy(error)
    }

    private static func outcome(replacing error: AtomicFileError) -> SheetSyncError {
        switch error {
        case .changedSinceRead:
            return .temporary("\(error)").coded(.changedMeanwhile)
        case .noSpace:  // its message already says to free space and run again
            return .temporary("\(error); nothing was replaced").coded(.noSpace)
        case .io:
            return .temporary("\(error); nothing was replaced, run again once it is fixed").coded(.diskError)
        case .readOnly, .permissionDenied, .readOnlyFileSystem:
            return .configuration("\(error)").coded(.notWritable)
        case .notAFile, .notAFolder, .replacedMeanwhile:
            return .configuration("\(error)").coded(.notARegularFile)
        }
    }
}
