import Crypto
import Foundation
import Interchange
import _CryptoExtras

/// A service account made by the emulator: its key and a credentials file's text.
public struct EmulatorServiceAccount: Sendable {
    public var email: String
    public var privateKeyPEM: String
    /// A `service_account` credentials JSON whose `token_uri` is the emulator's.
    public var credentialsJSON: String
}

extension SheetsEmulator {
    /// Lets assertions signed by this key, with `iss` = `email`, obtain tokens.
    public func registerServiceAccount(email: String, publicKey: _RSA.Signing.PublicKey) {
        world.withLock { $0.persistent.serviceAccountKeys[email] = publicKey.pemRepresentation }
    }

    /// Generates an RSA-2048 service account, registers it and returns its credentials (call after `start`,
    /// so `token_uri` carries the port). `privateKeyPEM` gives the account that key instead of a new one
    /// (an account's `privateKeyPEM`): generating a key costs tens of milliseconds of CPU, so a test
    /// process that starts many emulators can give them all one.
    public func makeServiceAccount(
        email: String = "sheetsync@emulator-project.iam.gserviceaccount.com", privateKeyPEM: String? = nil
    ) throws -> EmulatorServiceAccount {
        let key =
            try privateKeyPEM.map { try _RSA.Signing.PrivateKey(pemRepresentation: $0) } ?? _RSA.Signing.PrivateKey(keySize: .bits2048)
        registerServiceAccount(email: email, publicKey: key.publicKey)
        let json: JSONValue = [
            "type": "service_account",
            "project_id": "emulator-project",
            "private_key_id": .string(EmulatorWorld.makeId(length: 40)),
            "private_key": .string(key.pkcs8PEMRepresentation),
            "client_email": .string(email),
            "client_id": "100000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": .string(tokenURL),
        ]
        return EmulatorServiceAccount(
            email: email, privateKeyPEM: key.pkcs8PEMRepresentation, credentialsJSON: json.prettySerializedString())
    }

    /// Lets this client trade this refresh token for access tokens.
    public func registerAuthorizedUser(clientId: String, clientSecret: String, refreshToken: String) {
        world.withLock { world in
            world.persistent.authorizedUsers.removeAll { $0.clientId == clientId && $0.refreshToken == refreshToken }
            world.persistent.authorizedUsers.append(
                AuthorizedUser(clientId: clientId, clientSecret: clientSecret, refreshToken: refreshToken))
        }
    }

    /// An `authorized_user` credentials JSON for a registered user, with the emulator's `token_uri`.
    public func authorizedUserCredentialsJSON(clientId: String, clientSecret: String, refreshToken: String) -> String {
        let json: JSONValue = [
            "type": "authorized_user", "client_id": .string(clientId), "client_secret": .string(clientSecret),
            "refresh_token": .string(refreshToken), "token_uri": .string(tokenURL),
        ]
        return json.prettySerializedString()
    }

    /// Registers a one-time code as the consent screen would issue it. With a `codeChallenge`, the
    /// exchange must bring the matching `code_verifier` (`S256` or `plain`).
    public func registerAuthorizationCode(
        _ code: String, clientId: String, clientSecret: String, redirectURI: String? = nil, codeChallenge: String? = nil,
        codeChallengeMethod: String = "S256", grantedScope: String? = nil
    ) {
        world.withLock {
            $0.persistent.authorizationCodes[code] = AuthorizationCodeGrant(
                code: code, clientId: clientId, clientSecret: clientSecret, redirectURI: redirectURI, codeChallenge: codeChallenge,
                codeChallengeMethod: codeChallengeMethod, grantedScope: grantedScope)
        }
    }

    /// An access token valid for the configured lifetime, without going through `/token`.
    public func issueAccessToken(subject: String = "test") -> String {
        world.withLock { $0.issueAccessToken(subject: subject) }
    }

    /// Makes this access token answer 401 from now on.
    public func revokeAccessToken(_ token: String) {
        world.withLock { $0.persistent.accessTokens[token]?.revoked = true }
    }

    /// Makes every access token issued so far answer 401.
    public func revokeAllAccessTokens() {
        world.withLock { world in
            for token in world.persistent.accessTokens.keys { world.persistent.accessTokens[token]?.revoked = true }
        }
    }

    /// Makes this refresh token answer `invalid_grant`.
    public func revokeRefreshToken(_ refreshToken: String) {
        world.withLock { $0.persistent.authorizedUsers.removeAll { $0.refreshToken == refreshToken } }
    }

    /// Whether a token would be accepted now.
    public func isAccessTokenValid(_ token: String) -> Bool {
        world.read { world in
            guard let record = world.persistent.accessTokens[token] else { return false }
            return !record.revoked && record.expiresAt > world.now
        }
    }
}

extension EmulatorServiceAccount {
    /// A signed RS256 JWT bearer assertion as a client library makes one; `issuer` lets a test
    /// sign another account's claims with this key (a wrong signature).
    public func assertion(
        audience: String, scope: String = "https://www.googleapis.com/auth/spreadsheets", issuedAt: Date,
        lifetime: TimeInterval = 3600, issuer: String? = nil
    ) throws -> String {
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        let header: JSONValue = ["alg": "RS256", "typ": "JWT"]
        let claims: JSONValue = [
            "iss": .string(issuer ?? email), "scope": .string(scope), "aud": .string(audience),
            "iat": .number(Int(issuedAt.timeIntervalSince1970)), "exp": .number(Int(issuedAt.timeIntervalSince1970 + lifetime)),
        ]
        let signingInput =
            JWTVerifier.base64URLEncode(Data(header.serializedString().utf8)) + "."
            + JWTVerifier.base64URLEncode(Data(claims.serializedString().utf8))
        let signature = try key.signature(for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return signingInput + "." + JWTVerifier.base64URLEncode(signature.rawRepresentation)
    }
}
