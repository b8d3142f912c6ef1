import Foundation
import Interchange

/// One pending login: the consent URL to show and the listener waiting for the redirect.
public final class LoopbackLoginSession: Sendable {
    /// Open this in a browser.
    public let consentURL: URL
    /// Where Google sends the browser back, `http://127.0.0.1:PORT/`.
    public let redirectURI: String
    private let oauth: LoopbackOAuth
    private let listener: LoopbackListener
    private let state: String
    private let verifier: String
    private let tokenURL: URL

    init(
        oauth: LoopbackOAuth, listener: LoopbackListener, consentURL: URL, redirectURI: String, state: String,
        verifier: String, tokenURL: URL
    ) {
        self.oauth = oauth
        self.listener = listener
        self.consentURL = consentURL
        self.redirectURI = redirectURI
        self.state = state
        self.verifier = verifier
        self.tokenURL = tokenURL
    }

    /// Stops waiting for the browser.
    public func cancel() { listener.cancel() }

    /// Waits for the redirect, exchanges the code at the token endpoint, and answers the browser.
    public func finish() async throws -> AuthorizedUserCredentials {
        defer { listener.close() }
        let (code, connection) = try await waitForRedirect()
        do {
            let credentials = try await exchange(code)
            LoopbackListener.respond(
                connection, status: "200 OK", title: "sheetsync is logged in",
                message: "You can close this tab and return to the terminal.")
            return credentials
        } catch {
            LoopbackListener.respond(
                connection, status: "500 Internal Server Error", title: "sheetsync login failed",
                message: "The terminal says why.")
            throw error
        }
    }

    private func waitForRedirect() async throws -> (code: String, connection: Int32) {
        let deadline = Date().addingTimeInterval(oauth.timeout)
        return try await withTaskCancellationHandler {
            try await runOnOwnThread(name: "sheetsync.login") { try self.acceptRedirect(until: deadline) }
        } onCancel: {
            listener.cancel()
        }
    }

    /// Answers stray requests (a favicon, a forged state) and keeps waiting for the real redirect.
    private func acceptRedirect(until deadline: Date) throws -> (code: String, connection: Int32) {
        while true {
            let connection = try listener.accept(until: deadline)
            guard let (method, target) = LoopbackListener.readRequestLine(connection), method == "GET" else {
                LoopbackListener.respond(connection, status: "400 Bad Request", title: "Bad request", message: "")
                continue
            }
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == "/" else {
                LoopbackListener.respond(connection, status: "404 Not Found", title: "Not found", message: "")
                continue
            }
            let query = Dictionary(
                URLEncoding.queryItems(parts.count > 1 ? String(parts[1]) : ""), uniquingKeysWith: { first, _ in first })
            guard query["state"] == state else {
                LoopbackListener.respond(
                    connection, status: "400 Bad Request", title: "sheetsync login: state mismatch",
                    message: "This response does not belong to the login in progress.")
                continue
            }
            if let error = query["error"] {
                LoopbackListener.respond(
                    connection, status: "200 OK", title: "sheetsync login was not completed", message: "Google said: \(error)")
                throw GoogleAPIError.loginFailed("google reported '\(error)' instead of consent")
            }
            guard let code = query["code"], !code.isEmpty else {
                LoopbackListener.respond(connection, status: "400 Bad Request", title: "No authorization code", message: "")
                continue
            }
            return (code, connection)
        }
    }

    private func exchange(_ code: String) async throws -> AuthorizedUserCredentials {
        let client = oauth.client
        let form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("client_id", client.clientID), ("client_secret", client.clientSecret), ("code_verifier", verifier),
        ]
        let response = try await TokenEndpoint.post(form, to: tokenURL, transport: oauth.transport)
        guard response.isSuccess else {
            let details = GoogleErrorDetails(response: response, target: "POST \(tokenURL.absoluteString)")
            throw GoogleAPIError.loginFailed("google refused the authorization code: \(details)")
        }
        guard let body = try? JSONValue.parse(response.body), let refreshToken = body["refresh_token"]?.stringValue,
            !refreshToken.isEmpty
        else {
            throw GoogleAPIError.loginFailed("google's token response holds no refresh_token")
        }
        // The consent page lets a person untick permissions; a login without them would fail every run later.
        if let granted = body["scope"]?.stringValue.map({ Set($0.split(separator: " ").map(String.init)) }) {
            let missing = oauth.scopes.filter { !granted.contains($0) }
            if !missing.isEmpty {
                throw GoogleAPIError.loginFailed(
                    "google granted no access to \(missing.joined(separator: ", ")); run 'sheetsync auth login' again and allow "
                        + "every permission the consent page asks for")
            }
        }
        return AuthorizedUserCredentials(
            clientID: client.clientID, clientSecret: client.clientSecret, refreshToken: refreshToken,
            tokenURI: client.tokenURI)
    }
}
