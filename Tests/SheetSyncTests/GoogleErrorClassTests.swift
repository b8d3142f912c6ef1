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

    static let cases: [(GoogleAPIError, ExitCode, String)] = [
        (api(400, "INVALID_ARGUMENT", "Invalid requests[3].updateCells: bad"), .dataError, "retrying cannot help"),
        (api(401, "UNAUTHENTICATED"), .configuration, "auth login"),
        (
            api(403, "PERMISSION_DENIED", reasons: ["forbidden"], "The caller does not have permission"), .configuration,
            "share the spreadsheet"
        ),
        (api(403, "PERMISSION_DENIED", reasons: ["ACCESS_TOKEN_SCOPE_INSUFFICIENT"]), .configuration, "allow every permission"),
        (api(404, "NOT_FOUND", "Requested entity was not found."), .configuration, "remote.spreadsheetId"),
        (api(409, "ABORTED"), .dataError, "retrying cannot help"),
        (api(500, "INTERNAL"), .temporaryFailure, "next run retries"),
        (.reauthorizationRequired("google no longer accepts the saved login (invalid_grant)"), .configuration, "invalid_grant"),
        (.temporarilyUnavailable("google still failing after 5 attempts"), .temporaryFailure, "nothing was lost"),
        (.transport(TransportError(kind: .tls, target: "GET https://x", detail: "certificate")), .configuration, "certificates"),
        (.transport(TransportError(kind: .connectionReset, target: "GET https://x", detail: "reset")), .temporaryFailure, "retries"),
    ]

    @Test(arguments: cases.indices)
    func eachRefusalHasOneExitCodeAndAHint(index: Int) {
        let (error, code, hint) = Self.cases[index]
        let mapped = GoogleRemoteErrors.map(error)
        #expect(mapped.exitCode == code, "\(error) → \(mapped.exitCode)")
        #expect(mapped.message.contains(hint), "\(mapped.message)")
        if case .api(let details) = error { #expect(mapped.message.contains(details.message), "google's message is quoted") }
    }

    @Test func aRefusalToCreateTellsAServiceAccountWhatWorks() {
        let mapped = GoogleRemoteErrors.mapCreating(Self.api(403, "PERMISSION_DENIED", "The caller does not have permission"))
        #expect(mapped.exitCode == .configuration)
        for words in ["spreadsheetId", "shared drive", "auth login"] { #expect(mapped.message.contains(words), "\(mapped.message)") }
    }
}
