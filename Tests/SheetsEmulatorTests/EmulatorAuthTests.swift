import Crypto
import Foundation
import Interchange
import SheetsEmulator
import Testing

@Suite struct EmulatorAuthTests {
    private func tokenRequest(_ h: EmulatorHarness, _ form: String) async throws -> RawResponse {
        try await h.client.send("POST", "/token", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8))
    }

    private func jwtForm(_ assertion: String) -> String {
        "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
    }

    @Test func signedServiceAccountAssertionGetsAWorkingToken() async throws {
        let h = try await EmulatorHarness.start()
        let account = try h.emulator.makeServiceAccount()
        let response = try await tokenRequest(h, jwtForm(try account.assertion(audience: h.emulator.tokenURL, issuedAt: h.emulator.now)))
        let token = try #require(try response.json()["access_token"]?.stringValue)
        #expect(try response.json()["token_type"] == "Bearer")
        #expect(h.emulator.isAccessTokenValid(token))
        await h.stop()
    }

    @Test func anAccountMadeWithAnotherEmulatorsKeyCarriesThatKeyAndGetsAWorkingToken() async throws {
        let first = try await EmulatorHarness.start()
        let original = try first.emulator.makeServiceAccount()
        await first.stop()
        let h = try await EmulatorHarness.start()
        let account = try h.emulator.makeServiceAccount(privateKeyPEM: original.privateKeyPEM)
        #expect(account.privateKeyPEM == original.privateKeyPEM)
        let response = try await tokenRequest(h, jwtForm(try account.assertion(audience: h.emulator.tokenURL, issuedAt: h.emulator.now)))
        let token = try #require(try response.json()["access_token"]?.stringValue)
        #expect(h.emulator.isAccessTokenValid(token))
        await h.stop()
    }

    @Test func jwtWithAWrongSignatureIsRefused() async throws {
        let h = try await EmulatorHarness.start()
        let account = try h.emulator.makeServiceAccount(email: "real@p.iam.gserviceaccount.com")
        let impostor = try h.emulator.makeServiceAccount(email: "other@p.iam.gserviceaccount.com")
        let forged = try impostor.assertion(audience: h.emulator.tokenURL, issuedAt: h.emulator.now, issuer: account.email)
        let response = try await tokenRequest(h, jwtForm(forged))
        #expect(response.status == 400)
        #expect(try response.json() == ["error": "invalid_grant", "error_description": "Invalid JWT Signature."])
        await h.stop()
    }

    @Test func jwtWithWrongAudienceOrLongLifetimeIsRefused() async throws {
        let h = try await EmulatorHarness.start()
        let account = try h.emulator.makeServiceAccount()
        let audience = try await tokenRequest(
            h, jwtForm(try account.assertion(audience: "https://example.com/token", issuedAt: h.emulator.now)))
        let lifetime = try await tokenRequest(
            h, jwtForm(try account.assertion(audience: h.emulator.tokenURL, issuedAt: h.emulator.now, lifetime: 7200)))
        #expect(audience.status == 400)
        #expect(lifetime.status == 400)
        #expect(try lifetime.json()["error_description"]?.stringValue?.contains("short-lived") == true)
        await h.stop()
    }

    @Test func refreshTokenGrantChecksClientAndToken() async throws {
        let h = try await EmulatorHarness.start()
        h.emulator.registerAuthorizedUser(clientId: "c", clientSecret: "s", refreshToken: "r")
        let good = try await tokenRequest(h, "grant_type=refresh_token&client_id=c&client_secret=s&refresh_token=r")
        let revokedBefore = try await tokenRequest(h, "grant_type=refresh_token&client_id=c&client_secret=s&refresh_token=nope")
        let badClient = try await tokenRequest(h, "grant_type=refresh_token&client_id=c&client_secret=x&refresh_token=r")
        #expect(good.status == 200)
        #expect(try revokedBefore.json()["error"] == "invalid_grant")
        #expect(badClient.status == 401)
        await h.stop()
    }

    @Test func authorizationCodeNeedsTheMatchingPKCEVerifierAndWorksOnce() async throws {
        let h = try await EmulatorHarness.start()
        let verifier = "a-long-random-verifier-string-0123456789"
        let digest = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        h.emulator.registerAuthorizationCode(
            "code1", clientId: "c", clientSecret: "s", redirectURI: "http://127.0.0.1:9/cb", codeChallenge: digest)
        let base = "grant_type=authorization_code&code=code1&client_id=c&client_secret=s&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb"
        let wrong = try await tokenRequest(h, base + "&code_verifier=wrong")
        let right = try await tokenRequest(h, base + "&code_verifier=\(verifier)")
        let again = try await tokenRequest(h, base + "&code_verifier=\(verifier)")
        #expect(wrong.status == 400)
        #expect(try right.json()["refresh_token"]?.stringValue != nil)
        #expect(again.status == 400)
        await h.stop()
    }

    @Test func tokensExpireOnTheEmulatorClockAndCanBeRevoked() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": []])
        let other = h.emulator.issueAccessToken()
        #expect(try await h.get("/v4/spreadsheets/\(id)").status == 200)
        h.emulator.revokeAccessToken(other)
        #expect(try await h.client.send("GET", "/v4/spreadsheets/\(id)", headers: [("Authorization", "Bearer \(other)")]).status == 401)
        h.emulator.advanceClock(by: 3601)
        #expect(try await h.get("/v4/spreadsheets/\(id)").status == 401)
        await h.stop()
    }
}
