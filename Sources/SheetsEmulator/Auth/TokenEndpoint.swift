import Crypto
import Foundation
import Interchange

/// `POST /token`: JWT bearer, refresh token and authorization code grants.
enum TokenEndpoint {
    static func handle(_ request: EmulatorRequest, world: inout EmulatorWorld) -> EmulatorResponse {
        let form = EmulatorRequest.parseQuery(String(decoding: request.body, as: UTF8.self))
        func field(_ name: String) -> String? { form.first { $0.name == name }?.value }
        switch field("grant_type") {
        case "urn:ietf:params:oauth:grant-type:jwt-bearer":
            guard let assertion = field("assertion") else {
                return .oauthError("invalid_request", "Missing required parameter: assertion")
            }
            do throws(JWTRejection) {
                let claims = try JWTVerifier.verify(
                    assertion, keys: world.persistent.serviceAccountKeys,
                    audiences: [world.baseURL + "/token", "https://oauth2.googleapis.com/token"], now: world.now)
                return tokenAnswer(world.issueAccessToken(subject: claims.issuer), lifetime: world.tokenLifetime)
            } catch {
                return .oauthError(error.error, error.message)
            }
        case "refresh_token":
            let clientId = field("client_id") ?? ""
            guard world.persistent.authorizedUsers.contains(where: { $0.clientId == clientId && $0.clientSecret == field("client_secret") })
            else { return .oauthError("invalid_client", "The OAuth client was not found.", status: 401) }
            guard
                let user = world.persistent.authorizedUsers.first(where: {
                    $0.clientId == clientId && $0.refreshToken == field("refresh_token")
                })
            else { return .oauthError("invalid_grant", "Token has been expired or revoked.") }
            return tokenAnswer(world.issueAccessToken(subject: user.clientId), lifetime: world.tokenLifetime)
        case "authorization_code":
            return exchangeCode(field, world: &world)
        case let other:
            return .oauthError("unsupported_grant_type", "Invalid grant_type: \(other ?? "")")
        }
    }

    private static func exchangeCode(_ field: (String) -> String?, world: inout EmulatorWorld) -> EmulatorResponse {
        guard let code = field("code"), let grant = world.persistent.authorizationCodes[code] else {
            return .oauthError("invalid_grant", "Malformed auth code.")
        }
        guard grant.clientId == field("client_id"), grant.clientSecret == field("client_secret") else {
            return .oauthError("invalid_client", "Unauthorized", status: 401)
        }
        if let expected = grant.redirectURI, expected != field("redirect_uri") {
            return .oauthError("redirect_uri_mismatch", "Bad Request")
        }
        if let challenge = grant.codeChallenge {
            guard let verifier = field("code_verifier") else { return .oauthError("invalid_grant", "Missing code verifier.") }
            let computed =
                grant.codeChallengeMethod == "plain"
                ? verifier : JWTVerifier.base64URLEncode(Data(SHA256.hash(data: Data(verifier.utf8))))
            guard computed == challenge else { return .oauthError("invalid_grant", "Invalid code verifier.") }
        }
        // A code works once, as Google's do.
        world.persistent.authorizationCodes[code] = nil
        let refreshToken = "1//emu-" + EmulatorWorld.makeId(length: 40)
        world.persistent.authorizedUsers.append(
            AuthorizedUser(clientId: grant.clientId, clientSecret: grant.clientSecret, refreshToken: refreshToken))
        let token = world.issueAccessToken(subject: grant.clientId)
        return .json([
            "access_token": .string(token), "expires_in": .number(world.tokenLifetime), "refresh_token": .string(refreshToken),
            "scope": .string(
                grant.grantedScope ?? "https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.file"),
            "token_type": "Bearer",
        ])
    }

    private static func tokenAnswer(_ token: String, lifetime: Int) -> EmulatorResponse {
        .json(["access_token": .string(token), "expires_in": .number(lifetime), "token_type": "Bearer"])
    }
}

extension EmulatorWorld {
    mutating func issueAccessToken(subject: String) -> String {
        let token = "ya29.emu-" + EmulatorWorld.makeId(length: 60)
        persistent.accessTokens[token] = AccessTokenRecord(subject: subject, expiresAt: now.addingTimeInterval(TimeInterval(tokenLifetime)))
        return token
    }
}
