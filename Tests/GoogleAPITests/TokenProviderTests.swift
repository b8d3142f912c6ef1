import Foundation
import Interchange
import Testing

@testable import GoogleAPI

@Suite struct TokenProviderTests {
    func provider(_ transport: ScriptedTransport, clock: ManualAPIClock) throws -> OAuthTokenProvider {
        try OAuthTokenProvider(grant: .authorizedUser(Fixtures.authorizedUser), endpoints: .production, transport: transport, clock: clock)
    }

    @Test func refreshTokenGrantGoesToTheDefaultTokenEndpoint() async throws {
        let transport = ScriptedTransport([Fixtures.tokenResponse()])
        _ = try await provider(transport, clock: ManualAPIClock()).token(forceRefresh: false)
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://oauth2.googleapis.com/token")
        #expect(
            Fixtures.form(request) == [
                "grant_type": "refresh_token", "client_id": Fixtures.authorizedUser.clientID,
                "client_secret": Fixtures.clientSecret, "refresh_token": Fixtures.refreshToken,
            ])
    }

    @Test func tokenIsCachedUntilShortlyBeforeExpiry() async throws {
        let clock = ManualAPIClock()
        let transport = ScriptedTransport([Fixtures.tokenResponse("first", expiresIn: 3600), Fixtures.tokenResponse("second")])
        let tokens = try provider(transport, clock: clock)
        #expect(try await tokens.token(forceRefresh: false) == "first")
        clock.advance(by: 3000)
        #expect(try await tokens.token(forceRefresh: false) == "first")
        #expect(transport.requests.count == 1)
        clock.advance(by: 400)
        #expect(try await tokens.token(forceRefresh: false) == "second")
        #expect(transport.requests.count == 2)
    }

    @Test func forceRefreshFetchesANewToken() async throws {
        let transport = ScriptedTransport([Fixtures.tokenResponse("first"), Fixtures.tokenResponse("second")])
        let tokens = try provider(transport, clock: ManualAPIClock())
        _ = try await tokens.token(forceRefresh: false)
        #expect(try await tokens.token(forceRefresh: true) == "second")
    }

    @Test func concurrentCallersCauseOneTokenRequest() async throws {
        let transport = ScriptedTransport(handler: { _ in
            for _ in 0..<50 { await Task.yield() }
            return Fixtures.tokenResponse()
        })
        let tokens = try provider(transport, clock: ManualAPIClock())
        async let first = tokens.token(forceRefresh: false)
        async let second = tokens.token(forceRefresh: false)
        async let third = tokens.token(forceRefresh: false)
        let all = try await [first, second, third]
        #expect(all == Array(repeating: Fixtures.accessToken, count: 3))
        #expect(transport.requests.count == 1)
    }

    @Test func invalidGrantAsksToLogInAgainWithoutLeakingSecrets() async throws {
        let transport = ScriptedTransport([
            .json(400, ["error": "invalid_grant", "error_description": "Token has been expired or revoked."])
        ])
        await #expect {
            _ = try await provider(transport, clock: ManualAPIClock()).token(forceRefresh: false)
        } throws: { error in
            guard let error = error as? GoogleAPIError, case .reauthorizationRequired = error else { return false }
            let text = error.description
            return text.contains("run 'sheetsync auth login'") && text.contains("Token has been expired or revoked.")
                && !text.contains(Fixtures.refreshToken) && !text.contains(Fixtures.clientSecret) && error.isConfigurationProblem
        }
    }

    @Test func otherTokenErrorsNameTheEndpointAndCode() async throws {
        let transport = ScriptedTransport([.json(401, ["error": "invalid_client", "error_description": "The OAuth client was not found."])])
        await #expect {
            _ = try await provider(transport, clock: ManualAPIClock()).token(forceRefresh: false)
        } throws: { error in
            guard let error = error as? GoogleAPIError, case .tokenRequestFailed(let text) = error else { return false }
            return text.contains("invalid_client") && text.contains("https://oauth2.googleapis.com/token")
        }
    }

    @Test func tokenResponseWithoutAccessTokenIsRefused() async throws {
        let transport = ScriptedTransport([.json(200, ["token_type": "Bearer"])])
        await #expect(throws: GoogleAPIError.invalidResponse("token response has no access_token")) {
            _ = try await provider(transport, clock: ManualAPIClock()).token(forceRefresh: false)
        }
    }
}

@Suite struct AuthorizedTransportTests {
    let url = URL(string: "https://sheets.googleapis.com/v4/spreadsheets/abc")

    @Test func bearerTokenIsAddedAndRefreshedOnceOn401() async throws {
        let tokenTransport = ScriptedTransport([Fixtures.tokenResponse("stale"), Fixtures.tokenResponse("fresh")])
        let tokens = try OAuthTokenProvider(
            grant: .authorizedUser(Fixtures.authorizedUser), endpoints: .production, transport: tokenTransport, clock: ManualAPIClock())
        let api = ScriptedTransport([HTTPResponse(status: 401), .json(200, ["ok": true])])
        let client = GoogleClient(transport: AuthorizedTransport(base: api, tokens: tokens))
        let answer = try await client.json(.get, try #require(url))
        #expect(answer["ok"] == true)
        #expect(api.requests.map { $0.headers["Authorization"] } == ["Bearer stale", "Bearer fresh"])
        #expect(tokenTransport.requests.count == 2)
    }

    @Test func second401IsAnErrorNotALoop() async throws {
        let api = ScriptedTransport([
            .json(
                401, ["error": ["code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"]]),
            .json(
                401, ["error": ["code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"]]),
            HTTPResponse(status: 200),
        ])
        let client = GoogleClient(transport: AuthorizedTransport(base: api, tokens: StaticTokenProvider(Fixtures.accessToken)))
        await #expect {
            _ = try await client.json(.get, try #require(url))
        } throws: { error in
            guard case .api(let details) = error as? GoogleAPIError else { return false }
            return details.httpStatus == 401 && details.status == "UNAUTHENTICATED" && !"\(error)".contains(Fixtures.accessToken)
        }
        #expect(api.requests.count == 2)
    }
}
