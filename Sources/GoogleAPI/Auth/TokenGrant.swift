import Foundation
import Interchange

/// How a token is obtained: a service-account JWT or a saved refresh token.
public enum TokenGrant: Sendable {
    case serviceAccount(ServiceAccountCredentials, scopes: [String])
    case authorizedUser(AuthorizedUserCredentials)

    /// The grant for loaded credentials, asking for `scopes` where the grant type takes them.
    public init(_ credentials: GoogleCredentials, scopes: [String] = GoogleScopes.all) {
        switch credentials {
        case .serviceAccount(let account): self = .serviceAccount(account, scopes: scopes)
        case .authorizedUser(let user): self = .authorizedUser(user)
        }
    }

    var tokenURI: String? {
        switch self {
        case .serviceAccount(let account, _): return account.tokenURI
        case .authorizedUser(let user): return user.tokenURI
        }
    }

    /// Sends the grant to the token endpoint and reads the token it returns.
    func fetch(tokenURL: URL, transport: any HTTPTransport, clock: any APIClock) async throws -> AccessToken {
        let now = clock.now()
        let form: [(String, String)]
        switch self {
        case .serviceAccount(let account, let scopes):
            let assertion = try account.signedAssertion(scopes: scopes, now: now)
            form = [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)]
        case .authorizedUser(let user):
            form = [
                ("grant_type", "refresh_token"), ("client_id", user.clientID), ("client_secret", user.clientSecret),
                ("refresh_token", user.refreshToken),
            ]
        }
        let response = try await TokenEndpoint.post(form, to: tokenURL, transport: transport)
        guard response.isSuccess else { throw refusal(response, tokenURL: tokenURL) }
        return try TokenEndpoint.accessToken(from: response, receivedAt: now)
    }

    private func refusal(_ response: HTTPResponse, tokenURL: URL) -> GoogleAPIError {
        let details = GoogleErrorDetails(response: response, target: "POST \(tokenURL.absoluteString)")
        let code = details.reason ?? "\(details.httpStatus)"
        let said = details.message.isEmpty ? code : "\(code): '\(details.message)'"
        switch self {
        case .authorizedUser(let user) where details.reason == "invalid_grant":
            return .reauthorizationRequired(
                "google no longer accepts the saved login for oauth client '\(user.clientID)' (\(said)); "
                    + "run 'sheetsync auth login' to log in again (if this happens a week after each login, the oauth client "
                    + "is in 'Testing' publishing status, whose refresh tokens expire after 7 days: publish it, see docs/google.md)")
        case .authorizedUser(let user):
            return .tokenRequestFailed(
                "google refused to refresh the login for oauth client '\(user.clientID)' at \(tokenURL.absoluteString) (\(said))")
        case .serviceAccount(let account, _):
            return .tokenRequestFailed(
                "google refused service account '\(account.clientEmail)' at \(tokenURL.absoluteString) (\(said)); "
                    + "check that its key still exists and the system clock is right")
        }
    }
}

/// Talks to an OAuth token endpoint.
enum TokenEndpoint {
    static func post(_ form: [(String, String)], to url: URL, transport: any HTTPTransport) async throws -> HTTPResponse {
        let request = HTTPRequest(
            method: .post, url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: URLEncoding.form(form), isIdempotent: true)
        return try await transport.send(request)
    }

    static func accessToken(from response: HTTPResponse, receivedAt now: Date) throws(GoogleAPIError) -> AccessToken {
        guard let body = try? JSONValue.parse(response.body), let value = body["access_token"]?.stringValue, !value.isEmpty
        else { throw GoogleAPIError.invalidResponse("token response has no access_token") }
        // expires_in is a number of seconds; some servers send it as a string.
        let lifetime = (body["expires_in"]?.numberText ?? body["expires_in"]?.stringValue).flatMap(Double.init) ?? 3600
        return AccessToken(value: value, expiresAt: now.addingTimeInterval(lifetime))
    }
}
