import GoogleAPI
import Testing

@testable import SheetSync

/// Google's refusals as exit codes, decided in one place on kind and status: only what
/// may succeed later is temporary (75); a refused row or tab is 65; credentials, permissions and a
/// missing spreadsheet are 78. Each message quotes Google and says what to do.
@Suite struct GoogleErrorClassTests {
    static func api(_ status: Int, _ state: String, reasons: [String] = [], _ message: String = "said google") -> GoogleAPIError {
        .api(GoogleErrorDetails(httpStatus: status, status: state, reasons: reasons, message: message, target: "POST https://x/y"))
    }

    static let cases: [(GoogleAPIError, ProcessExitCode, FailureCode, String)] = [
        (api(400, "INVALID_ARGUMENT", "Invalid requests[3].updateCells: bad"), .dataError, .googleRefused, "retrying cannot help"),
        (api(401, "UNAUTHENTICATED"), .configuration, .googleCredentials, "auth login"),
        (
            api(403, "PERMISSION_DENIED", reasons: ["forbidden"], "The caller does not have permission"), .configuration,
            .googleAccessDenied, "share the spreadsheet"
        ),
        (
            api(403, "PERMISSION_DENIED", reasons: ["ACCESS_TOKEN_SCOPE_INSUFFICIENT"]), .configuration, .googleCredentials,
            "allow every permission"
        ),
        (api(404, "NOT_FOUND", "Requested entity was not found."), .configuration, .googleNotFound, "remote.spreadsheetId"),
        (api(409, "ABORTED"), .dataError, .googleRefused, "retrying cannot help"),
        (api(500, "INTERNAL"), .temporaryFailure, .googleUnavailable, "next run retries"),
        (
            .reauthorizationRequired("google no longer accepts the saved login (invalid_grant)"), .configuration, .googleCredentials,
            "invalid_grant"
        ),
        (.temporarilyUnavailable("google still failing after 5 attempts"), .temporaryFailure, .googleUnavailable, "nothing was lost"),
        (
            .transport(TransportError(kind: .tls, target: "GET https://x", detail: "certificate")), .configuration, .connectionSetup,
            "certificates"
        ),
        (
            .transport(TransportError(kind: .connectionReset, target: "GET https://x", detail: "reset")), .temporaryFailure,
            .googleUnavailable, "retries"
        ),
        // A machine without libcurl: installing it is the fix, no later run can succeed without that.
        (
            .transport(CurlTransport.missingLibrary(target: "GET https://x", why: "libcurl.so.4: cannot open shared object file")),
            .configuration, .connectionSetup, "install libcurl4"
        ),
    ]

    @Test(arguments: cases.indices)
    func eachRefusalHasOneExitCodeAndAHint(index: Int) {
        let (error, code, failure, hint) = Self.cases[index]
        let mapped = GoogleRemoteErrors.map(error)
        #expect(mapped.exitCode == code, "\(error) → \(mapped.exitCode)")
        #expect(mapped.failureCode == failure, "\(error) → \(String(describing: mapped.code))")
        #expect(mapped.message.contains(hint), "\(mapped.message)")
        if case .api(let details) = error { #expect(mapped.message.contains(details.message), "google's message is quoted") }
    }

    @Test func aRefusalToCreateTellsAServiceAccountWhatWorks() {
        let mapped = GoogleRemoteErrors.mapCreating(Self.api(403, "PERMISSION_DENIED", "The caller does not have permission"))
        #expect(mapped.exitCode == .configuration)
        #expect(mapped.failureCode == .googleAccessDenied)
        for words in ["spreadsheetId", "shared drive", "auth login"] { #expect(mapped.message.contains(words), "\(mapped.message)") }
    }

    static func answer(_ status: Int, to target: String, _ message: String = "") -> GoogleAPIError {
        .api(GoogleErrorDetails(httpStatus: status, message: message, target: target))
    }

    /// A redirect is answered the same way on every run (a proxy, a captive portal, a wrong endpoint):
    /// no retry fixes it, so it is configuration, and the message says what was answered.
    @Test(arguments: [301, 302, 307])
    func aRedirectIsConfigurationNotATemporaryFailure(status: Int) {
        let mapped = GoogleRemoteErrors.map(Self.answer(status, to: "GET https://sheets.googleapis.com/v4/spreadsheets/abc"))
        #expect(mapped.exitCode == .configuration, "\(mapped.message)")
        #expect(mapped.failureCode == .googleRefused, "\(mapped.message)")
        #expect(mapped.message.contains("\(status)"))
        #expect(mapped.message.contains("remote.endpoint"), "\(mapped.message)")
    }

    /// A refused read has no row or tab of the user's to fix: the hint says what to check instead.
    @Test func aBadRequestOnADriveReadGetsNoFixTheRowHint() {
        let mapped = GoogleRemoteErrors.map(
            Self.answer(400, to: "GET https://www.googleapis.com/drive/v3/files/1abc", "Invalid field selection name"))
        #expect(!mapped.message.contains("fix the row or tab"), "\(mapped.message)")
        #expect(mapped.message.contains("Invalid field selection name"))
        #expect(mapped.message.contains("remote.spreadsheetId"), "\(mapped.message)")
        #expect(mapped.exitCode == .configuration)
        #expect(mapped.failureCode == .googleRefused)
        // A refused write keeps its hint.
        let write = GoogleRemoteErrors.map(Self.answer(400, to: "POST https://sheets.googleapis.com/v4/spreadsheets/1abc:batchUpdate"))
        #expect(write.message.contains("fix the row or tab"))
        #expect(write.exitCode == .dataError)
    }
}
