/// The stable name of each kind of failure that ends a run and is no issue of a row or tab
/// (`IssueCode` names those): `--json` reports it as the failure's `code`, and scripts and tests match
/// on it, never on the wording. A code is never renamed or reused; docs/issues.md lists each one.
public enum FailureCode: String, CaseIterable, Hashable, Sendable {
    // The configuration.
    /// The config file named (by `--config` or `$SHEETSYNC_CONFIG`) does not exist or cannot be read.
    case configMissing = "config-missing"
    /// The config file is not valid JSON, has an unknown key, or a value of the wrong kind or form.
    case configInvalid = "config-invalid"
    /// The configured workbook (folder, file or spreadsheet) is not there yet: `sheetsync init` makes it.
    case workbookMissing = "workbook-missing"

    // The store and the files of the ledger.
    /// Another sheetsync run holds the store's or the workbook's lock (exit 75).
    case inUse = "in-use"
    /// Another program holds a write lock on the store (exit 75).
    case storeBusy = "store-busy"
    /// The disk is full (exit 75): nothing was lost.
    case noSpace = "no-space"
    /// The disk answered with an I/O error (exit 75): nothing was lost.
    case diskError = "disk-error"
    /// The store file is damaged (exit 78): move it aside, the next sync rebuilds it.
    case storeDamaged = "store-damaged"
    /// The store was written by a newer sheetsync, or cannot be opened as a store (exit 78).
    case storeUnusable = "store-unusable"
    /// A file or folder the run must write is read-only, on a read-only file system, or refused (exit 78).
    case notWritable = "not-writable"
    /// A symbolic link, FIFO, device or folder stands where the ledger has a file, or the reverse: never followed (exit 78).
    case notARegularFile = "not-a-regular-file"
    /// The workbook (a file, or rows of the spreadsheet) changed between this run's read and its write: nothing was written or recorded (exit 75).
    case changedMeanwhile = "changed-meanwhile"

    // Google.
    /// Google or the network did not answer as it should this time (exit 75): the next run retries.
    case googleUnavailable = "google-unavailable"
    /// The credentials are missing, refused or lack a permission: `sheetsync auth login` again (exit 78).
    case googleCredentials = "google-credentials"
    /// The account may not open or change the spreadsheet or file (exit 78).
    case googleAccessDenied = "google-access-denied"
    /// No such spreadsheet or file for this account (exit 78).
    case googleNotFound = "google-not-found"
    /// Google refuses a read or a write as it stands, or answers with a redirect: retrying cannot help.
    case googleRefused = "google-refused"
    /// The spreadsheet would pass Google's limit of cells: nothing was written (exit 65).
    case spreadsheetFull = "spreadsheet-full"
    /// The Drive account has no storage left (exit 78).
    case googleStorageFull = "google-storage-full"
    /// A TLS failure, or a library sheetsync needs (libcurl) is not installed (exit 78).
    case connectionSetup = "connection-setup"

    // The run.
    /// Stopped by SIGINT or SIGTERM at a safe point (exit 130 or 143): the next run carries on.
    case interrupted
}
