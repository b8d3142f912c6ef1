import Foundation
import SheetSync
import SheetSyncCore
import SheetsEmulator
import Testing

/// Tokens never reach a log: `--verbose` output of runs that refresh tokens and retry.
@Suite struct GoogleSecretsTests {
    /// Every "Bearer" in the text is followed by the redaction placeholder, not a token.
    static func bearerValues(in text: String) -> [String] {
        var values: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "bearer", options: .caseInsensitive) {
            let after = rest[range.upperBound...].drop { $0 == " " || $0 == ":" || $0 == "=" || $0 == "\"" }
            values.append(String(after.prefix { !$0.isWhitespace && $0 != "\"" && $0 != "," }))
            rest = rest[range.upperBound...]
        }
        return values.filter { !$0.isEmpty && $0 != "REDACTED" }
    }

    @Test func verboseRunsOfAnAuthorizedUserLogNoTokenSecretOrBearerValue() async throws {
        let bed = try await GoogleTestBed.start("g-secrets", retryBudget: 5)
        let (client, secret, refresh) = ("secrets-test.apps.googleusercontent.com", "client-secret-f00d", "1//refresh-token-c0ffee")
        bed.emulator.registerAuthorizedUser(clientId: client, clientSecret: secret, refreshToken: refresh)
        try FileManager.default.removeItem(at: bed.credentialsURL)
        #expect(
            FileManager.default.createFile(
                atPath: bed.credentialsURL.path,
                contents: Data(
                    bed.emulator.authorizedUserCredentialsJSON(clientId: client, clientSecret: secret, refreshToken: refresh).utf8),
                attributes: [.posixPermissions: 0o600]))
        try GoogleSeed.ledger(in: bed, transactions: 3, ids: SeededIDs(seed: 11))
        var output = ""
        let first = try await bed.cli("sync", "--verbose")
        #expect(first.status == 0, "\(first.stderr)")
        output += first.stdout + first.stderr
        #expect(try await bed.cli("add", "expense", "--amount", "2.00", "--category", "Rent", "--note", "x", "--verbose").status == 0)
        // A refused token (401) makes the client refresh; a 503 makes it retry; a 400 is refused for good.
        bed.emulator.resetCounters()
        bed.emulator.injectFault(.status(401), atRequest: 2)
        bed.emulator.injectFault(.status(503, retryAfter: 0), at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1))
        let second = try await bed.cli("sync", "--verbose")
        #expect(second.status == 0, "\(second.stderr)")
        output += second.stdout + second.stderr
        #expect(bed.emulator.counters.requests("oauth2.token") == 2)
        #expect(output.contains("retrying"), "the verbose log shows the retry: \(output)")
        bed.emulator.resetCounters()
        bed.emulator.injectFault(.status(400), atRequest: 2)
        let refused = try await bed.cli("sync", "--verbose")
        output += refused.stdout + refused.stderr
        #expect(refused.status != 0)

        for secretText in [secret, refresh, "ya29.", "eyJ"] { #expect(!output.contains(secretText), "'\(secretText)' in the log") }
        #expect(Self.bearerValues(in: output).isEmpty, "\(Self.bearerValues(in: output))")
        await bed.finish()
    }

    @Test func verboseRunsOfAServiceAccountLogNoKeyOrAssertion() async throws {
        let bed = try await GoogleTestBed.start("g-secrets-sa")
        let run = try await bed.cli("init", "--verbose")
        #expect(run.status == 0, "\(run.stderr)")
        let output = run.stdout + run.stderr
        let assertion = try #require(bed.emulator.requestLog.first { $0.endpoint == "oauth2.token" }?.bodyText)
        #expect(assertion.contains("assertion="))
        for secretText in ["PRIVATE KEY", "ya29.", "eyJ", String(bed.account.privateKeyPEM.split(separator: "\n")[1].prefix(20))] {
            #expect(!output.contains(secretText), "'\(secretText)' in the log")
        }
        #expect(Self.bearerValues(in: output).isEmpty)
        await bed.finish()
    }
}
