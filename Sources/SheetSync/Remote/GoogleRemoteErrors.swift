import GoogleAPI

/// Google errors as run outcomes, decided here and nowhere else, on the error's kind and status (never
/// its text): what may succeed later exits 75; a refused write of a row or tab (400 and other permanent
/// refusals) 65; credentials, permissions, a missing spreadsheet, a refused read and a redirect 78. Every message quotes what Google said
/// (scrubbed of secrets by `GoogleAPIError.description`) and says what to do.
enum GoogleRemoteErrors {
    static func map(_ error: GoogleAPIError) -> SheetSyncError {
        outcome(error).causedBy(error)
    }

    private static func outcome(_ error: GoogleAPIError) -> SheetSyncError {
        let retries = "\(error); nothing was lost, the next run retries"
        switch error {
        case .temporarilyUnavailable, .invalidResponse, .uploadSessionExpired:
            return SheetSyncError.temporary(retries).coded(.googleUnavailable)
        case .transport(let failure) where failure.kind == .missingLibrary:
            return SheetSyncError.configuration("\(error)").coded(.connectionSetup)
        case .transport(let failure) where failure.kind != .tls:
            return SheetSyncError.temporary(retries).coded(.googleUnavailable)
        case .transport:
            return SheetSyncError.configuration("\(error); check remote.endpoint and the system's CA certificates").coded(.connectionSetup)
        case .reauthorizationRequired, .insecureCredentialsFile, .invalidCredentials, .tokenRequestFailed, .loginFailed:
            return SheetSyncError.configuration("\(error)").coded(.googleCredentials)
        case .storageQuotaExceeded:
            return SheetSyncError.configuration("\(error)").coded(.googleStorageFull)
        case .api(let details):
            return map(details, error)
        }
    }

    /// A failed `init`: a refusal to create (403) is what a service account meets in its own Drive.
    static func mapCreating(_ error: GoogleAPIError) -> SheetSyncError {
        if case .api(let details) = error, details.httpStatus == 403 {
            return SheetSyncError.configuration("google refused to create the spreadsheet: \(error); \(GoogleAPIError.serviceAccountHint)")
                .coded(.googleAccessDenied).causedBy(error)
        }
        return map(error)
    }

    static let scopeReasons: Set<String> = ["insufficientPermissions", "ACCESS_TOKEN_SCOPE_INSUFFICIENT"]

    private static func map(_ details: GoogleErrorDetails, _ error: GoogleAPIError) -> SheetSyncError {
        switch details.httpStatus {
        case 401:
            return .configuration(
                "\(error): google refused the credentials even after a fresh token; run `sheetsync auth login` again, "
                    + "or check that the service account key of remote.credentials still exists"
            ).coded(.googleCredentials)
        case 403 where details.reasons.contains(where: scopeReasons.contains):
            return .configuration(
                "\(error): the login lacks a permission sheetsync needs (Sheets and Drive files it created); run "
                    + "`sheetsync auth login` again and allow every permission the consent page asks for"
            ).coded(.googleCredentials)
        case 403:
            return .configuration(
                "\(error): the account of remote.credentials may not open or change this; share the spreadsheet with that "
                    + "account as an editor, or check remote.spreadsheetId"
            ).coded(.googleAccessDenied)
        case 404:
            return .configuration(
                "\(error): no such spreadsheet or file for this account; check remote.spreadsheetId in the config, or run "
                    + "`sheetsync init` to create a spreadsheet"
            ).coded(.googleNotFound)
        case 300..<400:
            // sheetsync follows no redirect, and the same request gets the same answer on every run.
            return .configuration(
                "\(error): the server answered with a redirect instead of google's answer, and does so on every run; check "
                    + "remote.endpoint in the config and any proxy or captive portal between this machine and google"
            ).coded(.googleRefused)
        case 400..<500 where details.target.hasPrefix("GET "):
            return .configuration(
                "\(error): google refuses this read as it stands, so retrying cannot help; nothing was written — check "
                    + "remote.spreadsheetId in the config, or report the message"
            ).coded(.googleRefused)
        case 400..<500:
            return .data(
                "\(error): google refuses this write as it stands, so retrying cannot help; nothing of this request was "
                    + "written and the store keeps every change — fix the row or tab named above, or report the message"
            ).coded(.googleRefused)
        default:
            return .temporary("\(error); nothing was lost, the next run retries").coded(.googleUnavailable)
        }
    }
}
