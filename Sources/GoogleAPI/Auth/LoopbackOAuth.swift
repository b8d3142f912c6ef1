import Crypto
import Foundation
import Interchange

/// `sheetsync auth login`: OAuth consent for an installed app with a loopback redirect and PKCE.
///
/// `begin()` listens on 127.0.0.1 and yields the consent URL to show the user; the session's
/// `finish()` waits for the browser's redirect, exchanges the code and returns the saved login.
public struct LoopbackOAuth: Sendable {
    public let client: InstalledAppClient
    public let scopes: [String]
    public let endpoints: GoogleEndpoints
    /// Carries the code exchange; should retry passing failures.
    public let transport: any HTTPTransport
    /// Seconds to wait for the browser.
    public let timeout: Double

    public init(
        client: InstalledAppClient, scopes: [String] = GoogleScopes.all, endpoints: GoogleEndpoints = .production,
        transport: any HTTPTransport, timeout: Double = 600
    ) {
        self.client = client
        self.scopes = scopes
        self.endpoints = endpoints
        self.transport = transport
        self.timeout = timeout
    }

    /// Starts listening and builds the consent URL.
    public func begin() throws(GoogleAPIError) -> LoopbackLoginSession {
        let listener = try LoopbackListener()
        let redirectURI = "http://127.0.0.1:\(listener.port)/"
        let verifier = Base64URL.encode(Self.randomBytes(32))
        let challenge = Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
        let state = Base64URL.encode(Self.randomBytes(16))
        let authURL = try endpoints.authURL(client.authURI)
        let query: [(String, String)] = [
            ("client_id", client.clientID), ("redirect_uri", redirectURI), ("response_type", "code"),
            ("scope", scopes.joined(separator: " ")), ("access_type", "offline"), ("prompt", "consent"),
            ("code_challenge", challenge), ("code_challenge_method", "S256"), ("state", state),
        ]
        let separator = authURL.query == nil ? "?" : "&"
        let text =
            authURL.absoluteString + separator
            + query.map { URLEncoding.component($0.0) + "=" + URLEncoding.component($0.1) }.joined(separator: "&")
        guard let consentURL = URL(string: text) else { throw GoogleAPIError.loginFailed("cannot build the consent URL") }
        return LoopbackLoginSession(
            oauth: self, listener: listener, consentURL: consentURL, redirectURI: redirectURI, state: state,
            verifier: verifier, tokenURL: try endpoints.tokenURL(client.tokenURI))
    }

    /// The whole login: shows the consent URL through `present`, waits, and writes the
    /// authorized-user JSON to `path` with mode 0600.
    public func login(savingTo path: String, present: @Sendable (URL) -> Void) async throws -> AuthorizedUserCredentials {
        let session = try begin()
        present(session.consentURL)
        let credentials = try await session.finish()
        try CredentialsFile.writePrivate(credentials.json.serialized() + [0x0A], path: path)
        return credentials
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
