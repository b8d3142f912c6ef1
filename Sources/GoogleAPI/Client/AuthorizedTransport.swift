/// Adds `Authorization: Bearer` from a token provider; on a 401 it refreshes the token once and
/// re-sends once, since a token can be revoked or expire early.
public struct AuthorizedTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let tokens: any AccessTokenProvider

    public init(base: any HTTPTransport, tokens: any AccessTokenProvider) {
        self.base = base
        self.tokens = tokens
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var authorized = request
        authorized.headers["Authorization"] = "Bearer " + (try await tokens.token(forceRefresh: false))
        let response = try await base.send(authorized)
        guard response.status == 401 else { return response }
        authorized.headers["Authorization"] = "Bearer " + (try await tokens.token(forceRefresh: true))
        return try await base.send(authorized)
    }
}
