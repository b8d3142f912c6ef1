extension SheetSyncError {
    /// A configuration error (exit 78) with what to do about it.
    public static func configuration(_ message: String, hint: String) -> SheetSyncError {
        var error = SheetSyncError(.configuration, message)
        error.hint = hint
        return error
    }

    /// The hint `--json` reports: the error's own, else what its kind of failure asks of the user.
    public var hintOrDefault: String {
        if let hint { return hint }
        switch exitCode {
        case .ok: return ""
        case .usage: return "see `sheetsync help` or `sheetsync COMMAND --help`"
        case .dataError: return "fix the rows or tabs named in the message and run again; nothing was lost"
        case .temporaryFailure: return "run again later; nothing was lost"
        case .configuration: return "correct the configuration or the path named in the message, then run again"
        case .internalError: return "this is a bug in sheetsync; please report it with the message"
        case .interrupted, .terminated: return "the run stopped at a safe point; run again to finish it"
        }
    }
}
