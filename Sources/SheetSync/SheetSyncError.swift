import SheetSyncCore
import SheetValues

/// The process exit codes (sysexits).
public enum ProcessExitCode: Int32, Sendable {
    case ok = 0
    case internalError = 1
    case usage = 64
    case dataError = 65
    case temporaryFailure = 75
    case configuration = 78
    /// Stopped by SIGINT at a safe point (128 + the signal's number, as shells report it).
    case interrupted = 130
    /// Stopped by SIGTERM at a safe point.
    case terminated = 143
}

/// An error that ends a run, with the exit code it maps to and a message the user can act on.
public struct SheetSyncError: Error, CustomStringConvertible, Sendable {
    public var exitCode: ProcessExitCode
    public var message: String
    /// What to do about it, when the message alone does not say (`--json` reports it as `hint`).
    public var hint: String?
    /// A stable name for the kind of failure, when it has one (`xlsx-password-protected`): what
    /// `--json` reports as `code`, for callers that branch on it rather than on the message.
    public var code: String?
    /// The error this one was made from (a SQLite, file-system or Google error), when it was made
    /// from one: the message says what it means, this keeps what it was for callers that branch on it.
    public var underlying: (any Error)?

    public init(_ exitCode: ProcessExitCode, _ message: String) {
        self.exitCode = exitCode
        self.message = message
    }

    public var description: String { message }

    /// `code` as a `FailureCode`, nil when the failure has none or an issue's or the XLSX reader's code.
    public var failureCode: FailureCode? { code.flatMap(FailureCode.init(rawValue:)) }

    /// This error as a failure of a kind that has an issue code (docs/issues.md), which `--json`
    /// reports as its `code`: a tab file that cannot be read, a workbook of another dataset, no ledger.
    public func coded(_ code: IssueCode) -> SheetSyncError {
        var copy = self
        copy.code = code.rawValue
        return copy
    }

    /// This error as a failure of a kind named by a `FailureCode` (a full disk, a store in use, a
    /// config that is no JSON), which `--json` reports as its `code`.
    public func coded(_ code: FailureCode) -> SheetSyncError {
        var copy = self
        copy.code = code.rawValue
        return copy
    }

    /// This error with `cause` kept underneath it.
    public func causedBy(_ cause: any Error) -> SheetSyncError {
        var copy = self
        copy.underlying = cause
        return copy
    }

    public static func configuration(_ message: String) -> SheetSyncError { .init(.configuration, message) }
    public static func temporary(_ message: String) -> SheetSyncError { .init(.temporaryFailure, message) }
    public static func data(_ message: String) -> SheetSyncError { .init(.dataError, message) }
}
