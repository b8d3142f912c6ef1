/// What Google said when it refused a request: the HTTP status, its canonical status name, the
/// first machine-readable reason and the human message.
public struct GoogleErrorDetails: Hashable, Sendable, CustomStringConvertible {
    public var httpStatus: Int
    /// The canonical status such as `PERMISSION_DENIED`, when the body named one.
    public var status: String?
    /// The first reason, such as `rateLimitExceeded` or `storageQuotaExceeded`.
    public var reason: String?
    /// Every reason the body listed (`errors[].reason` and `details[].reason`).
    public var reasons: [String]
    public var message: String
    /// The request's method and URL without its query.
    public var target: String

    public init(httpStatus: Int, status: String? = nil, reasons: [String] = [], message: String, target: String) {
        self.httpStatus = httpStatus
        self.status = status
        self.reason = reasons.first
        self.reasons = reasons
        self.message = message
        self.target = target
    }

    public var description: String {
        var text = "\(httpStatus)"
        if let status { text += " \(status)" }
        if let reason, reason != status { text += " (\(reason))" }
        if !message.isEmpty { text += " '\(message)'" }
        return text + " on \(target)"
    }
}

/// Errors of the Google API layer; messages are lowercase and never contain a credential.
public enum GoogleAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Network trouble, rate limits or server errors outlasted the retry budget: try again later (exit 75).
    case temporarilyUnavailable(String)
    /// The refresh token was revoked or expired; the user must run `sheetsync auth login` again.
    case reauthorizationRequired(String)
    /// Google refused the request and retrying will not help.
    case api(GoogleErrorDetails)
    /// Drive refused an upload for lack of storage (service accounts have none of their own).
    case storageQuotaExceeded(GoogleErrorDetails)
    /// No response at all, for a reason retrying will not fix (TLS, bad URL).
    case transport(TransportError)
    /// The credentials file can be read by group or others.
    case insecureCredentialsFile(path: String, mode: String)
    /// The credentials file is missing, unreadable or not a credentials document.
    case invalidCredentials(path: String, detail: String)
    /// The token endpoint refused the grant for a reason other than a revoked refresh token.
    case tokenRequestFailed(String)
    /// A response did not have the shape the discovery document promises.
    case invalidResponse(String)
    /// The interactive OAuth login did not complete.
    case loginFailed(String)
    /// A resumable upload session is gone (expired after a week, or cancelled): start a new one.
    case uploadSessionExpired(String)

    /// The message, with anything that looks like a credential redacted: server text (a proxy's, a custom
    /// endpoint's) may quote the request it refused.
    public var description: String { Redaction.redact(unredactedDescription) }

    private var unredactedDescription: String {
        switch self {
        case .temporarilyUnavailable(let text): return text
        case .reauthorizationRequired(let text): return text
        case .api(let details): return "google api error \(details)"
        case .storageQuotaExceeded(let details):
            return "google drive storage quota exceeded: \(details); \(Self.serviceAccountHint)"
        case .transport(let error): return error.description
        case .insecureCredentialsFile(let path, let mode):
            return "credentials file '\(path)' has mode \(mode) and can be read by group or others; "
                + "run 'chmod 600 \(path)'"
        case .invalidCredentials(let path, let detail): return "credentials file '\(path)': \(detail)"
        case .tokenRequestFailed(let text): return text
        case .invalidResponse(let text): return "unexpected response from google: \(text)"
        case .loginFailed(let text): return "login failed: \(text)"
        case .uploadSessionExpired(let text): return text
        }
    }

    /// What works for a service account, which has no Drive storage of its own.
    public static let serviceAccountHint =
        "a service account has no drive storage of its own: share a spreadsheet (and folder) you own with the service "
        + "account's e-mail as editor and set remote.spreadsheetId, keep the folder on a shared drive, or use "
        + "'sheetsync auth login' with your own account"

    /// Whether a later run may succeed unchanged (the CLI exits 75).
    public var isTemporary: Bool {
        if case .temporarilyUnavailable = self { return true }
        return false
    }

    /// Whether the user must fix credentials or configuration (the CLI exits 78).
    public var isConfigurationProblem: Bool {
        switch self {
        case .reauthorizationRequired, .insecureCredentialsFile, .invalidCredentials, .tokenRequestFailed: return true
        case .storageQuotaExceeded: return true
        default: return false
        }
    }
}
