import Crypto
import Foundation
import Interchange
import TestSupport
import Testing

@testable import GoogleAPI

@Suite struct LoopbackOAuthTests {
    let client = InstalledAppClient(clientID: "cid.apps.googleusercontent.com", clientSecret: Fixtures.clientSecret)

    static func tokenEndpoint(refreshToken: String? = Fixtures.refreshToken) -> ScriptedTransport {
        var body: JSONObject = ["access_token": .string(Fixtures.accessToken), "expires_in": 3599, "token_type": "Bearer"]
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        return ScriptedTransport([.json(200, .object(body))])
    }

    /// Plays the browser: sends the redirect GET to the loopback listener and waits for its answer,
    /// however long the listener takes to get to it (no deadline).
    static func browse(_ url: String) async throws -> LoopbackBrowser.Answer {
        guard let url = URL(string: url) else { throw GoogleAPIError.loginFailed("bad test url \(url)") }
        return try await LoopbackBrowser.get(url)
    }

    static func query(_ url: URL) -> [String: String] {
        Dictionary(URLEncoding.queryItems(url.query(percentEncoded: true) ?? ""), uniquingKeysWith: { first, _ in first })
    }

    @Test func consentURLAsksForOfflineConsentWithPKCEAndState() throws {
        let session = try LoopbackOAuth(client: client, transport: Self.tokenEndpoint()).begin()
        defer { session.cancel() }
        let url = session.consentURL
        #expect(url.absoluteString.hasPrefix("https://accounts.google.com/o/oauth2/auth?"))
        let query = Self.query(url)
        #expect(query["client_id"] == "cid.apps.googleusercontent.com")
        #expect(query["redirect_uri"] == session.redirectURI)
        #expect(session.redirectURI.hasPrefix("http://127.0.0.1:") && session.redirectURI.hasSuffix("/"))
        #expect(query["response_type"] == "code")
        #expect(query["scope"] == "https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.file")
        #expect(query["access_type"] == "offline")
        #expect(query["prompt"] == "consent")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"]?.count == 43)
        #expect((query["state"]?.count ?? 0) >= 16)
    }

    @Test func loginEndToEndWithTheTestPlayingTheBrowser() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/sheetsync/user.json"
        let tokens = Self.tokenEndpoint()
        let browser = LockedBox<Task<[Int], any Error>?>(nil)
        let oauth = LoopbackOAuth(client: client, transport: tokens)
        let credentials = try await oauth.login(savingTo: path) { consentURL in
            let query = Self.query(consentURL)
            let redirect = query["redirect_uri"] ?? ""
            let task = Task {
                // A forged state and a stray path are answered and ignored; the real redirect completes the login.
                let forged = try await Self.browse(redirect + "?code=evil&state=forged")
                let favicon = try await Self.browse(redirect + "favicon.ico")
                let real = try await Self.browse(redirect + "?code=4%2F0Ab-code&scope=x&state=" + (query["state"] ?? ""))
                #expect(real.body.contains("sheetsync is logged in"))
                return [forged.status, favicon.status, real.status]
            }
            browser.mutate { $0 = task }
        }
        let statuses = try await browser.value?.value
        #expect(statuses == [400, 404, 200])
        #expect(credentials.refreshToken == Fixtures.refreshToken)
        #expect(credentials.clientID == "cid.apps.googleusercontent.com")

        let exchange = try #require(tokens.requests.first)
        #expect(exchange.url.absoluteString == "https://oauth2.googleapis.com/token")
        let form = Fixtures.form(exchange)
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code"] == "4/0Ab-code")
        #expect(form["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
        let verifier = try #require(form["code_verifier"])
        #expect(verifier.count >= 43)

        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        guard case .authorizedUser(let saved) = try GoogleCredentials.load(path: path) else {
            Issue.record("saved file is not an authorized_user document")
            return
        }
        #expect(saved == credentials)
    }

    @Test func codeVerifierMatchesTheChallenge() async throws {
        let tokens = Self.tokenEndpoint()
        let session = try LoopbackOAuth(client: client, transport: tokens).begin()
        let query = Self.query(session.consentURL)
        let finished = Task { try await session.finish() }
        let answer = try await Self.browse(session.redirectURI + "?code=abc&state=" + (query["state"] ?? ""))
        _ = try await finished.value
        #expect(answer.status == 200)
        let exchange = try #require(tokens.requests.first)
        let verifier = try #require(Fixtures.form(exchange)["code_verifier"])
        #expect(Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) == query["code_challenge"])
    }

    @Test func refusedConsentFailsTheLogin() async throws {
        let tokens = Self.tokenEndpoint()
        let session = try LoopbackOAuth(client: client, transport: tokens).begin()
        let state = Self.query(session.consentURL)["state"] ?? ""
        let finished = Task { try await session.finish() }
        _ = try await Self.browse(session.redirectURI + "?error=access_denied&state=" + state)
        await #expect(throws: GoogleAPIError.loginFailed("google reported 'access_denied' instead of consent")) {
            _ = try await finished.value
        }
        #expect(tokens.requests.isEmpty)
    }

    @Test func tokenResponseWithoutRefreshTokenFailsAndTellsTheBrowser() async throws {
        let session = try LoopbackOAuth(client: client, transport: Self.tokenEndpoint(refreshToken: nil)).begin()
        let state = Self.query(session.consentURL)["state"] ?? ""
        let finished = Task { try await session.finish() }
        let answer = try await Self.browse(session.redirectURI + "?code=abc&state=" + state)
        #expect(answer.status == 500)
        await #expect(throws: GoogleAPIError.self) { _ = try await finished.value }
    }

    @Test func installedClientJSONIsParsed() throws {
        let json =
            #"{"installed":{"client_id":"id1","client_secret":"s1","auth_uri":"https://accounts.google.com/o/oauth2/auth","token_uri":"https://oauth2.googleapis.com/token","redirect_uris":["http://localhost"]}}"#
        let parsed = try InstalledAppClient.parse(Array(json.utf8), path: "client.json")
        #expect(parsed == InstalledAppClient(clientID: "id1", clientSecret: "s1"))
        #expect(throws: GoogleAPIError.self) { _ = try InstalledAppClient.parse(Array(#"{"web":{}}"#.utf8), path: "client.json") }
    }

    @Test func endpointOverrideMovesConsentAndTokenURLs() async throws {
        let endpoints = try #require(GoogleEndpoints(endpoint: "http://127.0.0.1:7777"))
        let session = try LoopbackOAuth(client: client, endpoints: endpoints, transport: Self.tokenEndpoint()).begin()
        defer { session.cancel() }
        #expect(session.consentURL.absoluteString.hasPrefix("http://127.0.0.1:7777/o/oauth2/auth?"))
    }
}
