import Workbook

extension SheetSyncError {
    /// A workbook file the XLSX reader or writer refused, ending the run with `exitCode` (78 for the
    /// configured workbook, 65 for a file named on the command line): the message names the file and
    /// the part, `code` the kind of refusal, and the hint says what to do about that kind.
    static func refusing(_ error: XLSXError, exitCode: ProcessExitCode) -> SheetSyncError {
        var failure = SheetSyncError(exitCode, "\(error)").causedBy(error)
        failure.code = error.kind.code
        failure.hint = error.kind.hint
        return failure
    }
}

extension XLSXError.Kind {
    /// What the user can do about a refusal of this kind.
    public var hint: String {
        let backup = "restore it from a backup (sheetsync keeps the last versions of a workbook it wrote in .sheetsync-backup/ beside it)"
        switch self {
        case .notAPackage:
            return "sheetsync reads Excel workbooks (.xlsx, .xlsm): point the config's remote.path, or the command, at one"
        case .otherFormat:
            return "open the file in LibreOffice or Excel, save it as an Excel workbook (.xlsx), and use that file"
        case .passwordProtected:
            return "remove the password (Excel: File > Info > Protect Workbook > Encrypt with Password, empty; LibreOffice: "
                + "File > Save As without \"Save with password\") or point sheetsync at a copy saved without one"
        case .unreadablePackage:
            return "the file cannot be read as a ZIP archive: if it is damaged (cut short by a copy or a sync tool), " + backup
        case .corruptPart:
            return "the file is damaged (bytes changed after it was saved, or a copy cut short): " + backup
                + ", or let Excel repair it and save a copy"
        case .missingPart:
            return "the workbook lacks a part it needs: re-save it in LibreOffice or Excel, or " + backup
        case .malformedPart:
            return "the part named is not valid spreadsheet XML: re-save the workbook in LibreOffice or Excel, or " + backup
        case .doctypeRefused:
            return "sheetsync refuses XML with a DOCTYPE (no spreadsheet program writes one): re-save the workbook in LibreOffice or Excel"
        case .unsafePath:
            return "the package points outside itself where sheetsync would follow it, which it refuses for safety: "
                + "re-save the workbook in LibreOffice or Excel"
        case .compressionRatioExceeded:
            return "refused as a possible zip bomb: if you trust the file, re-save it in LibreOffice or Excel (which compress normally)"
        case .partTooLarge, .tooManyParts:
            return "the workbook is past what sheetsync reads: keep the ledger in a workbook of its own"
        case .invalidSheetName:
            return "rename the sheet named in the message (at most 31 characters, none of : \\ / ? * [ ], unique ignoring case)"
        case .invalidCell:
            return "a value could not be written as an XLSX cell; the workbook was not changed: please report it with the message"
        case .cannotWrite:
            return "check that the workbook's folder can be written and has space, then run again; the workbook was not changed"
        }
    }
}
