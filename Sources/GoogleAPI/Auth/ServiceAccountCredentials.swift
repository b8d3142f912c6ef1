import Crypto
import Foundation
import Interchange
import _CryptoExtras

/// A service account's key, from a `"type": "service_account"` JSON file.
public struct ServiceAccountCredentials: Sendable {
    public var clientEmail: String
    public var privateKeyID: String?
    public var privateKey: _RSA.Signing.PrivateKey
    /// The token endpoint the file names; it is also the JWT's audience.
    public var tokenURI: String

    public init(clientEmail: String, privateKeyID: String? = nil, privateKey: _RSA.Signing.PrivateKey, tokenURI: String) {
        self.clientEmail = clientEmail
        self.privateKeyID = privateKeyID
        self.privateKey = privateKey
        self.tokenURI = tokenURI
    }

    /// The longest lifetime Google accepts for a JWT bearer assertion.
    public static let assertionLifetime: Double = 3600

    /// A JWT (RS256) asserting this account for `scopes`, issued at `now`, valid for one hour.
    public func signedAssertion(scopes: [String], now: Date) throws(GoogleAPIError) -> String {
        let issuedAt = Int(now.timeIntervalSince1970)
        var header: JSONObject = ["alg": "RS256", "typ": "JWT"]
        if let privateKeyID { header["kid"] = .string(privateKeyID) }
        let claims: JSONObject = [
            "iss": .string(clientEmail),
            "scope": .string(scopes.joined(separator: " ")),
            "aud": .string(tokenURI),
            "iat": .integer(issuedAt),
            "exp": .integer(issuedAt + Int(Self.assertionLifetime)),
        ]
        let signingInput =
            Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(claims).serialized())
        let signature: _RSA.Signing.RSASignature
        do {
            signature = try privateKey.signature(for: SHA256.hash(data: Array(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        } catch {
            throw GoogleAPIError.tokenRequestFailed("cannot sign a token request for '\(clientEmail)': \(error)")
        }
        return signingInput + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }
}

/// A user's saved login, from a `"type": "authorized_user"` JSON file (as `sheetsync auth login` writes).
public struct AuthorizedUserCredentials: Hashable, Sendable {
    public var clientID: String
    public var clientSecret: String
    public var refreshToken: String
    /// nil means Google's default token endpoint.
    public var tokenURI: String?

    public init(clientID: String, clientSecret: String, refreshToken: String, tokenURI: String? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.refreshToken = refreshToken
        self.tokenURI = tokenURI
    }

    /// The JSON document, in the layout Google's own tools read.
    public var json: JSONValue {
        var object: JSONObject = [
            "type": "authorized_user", "client_id": .string(clientID), "client_secret": .string(clientSecret),
            "refresh_token": .string(refreshToken),
        ]
        if let tokenURI { object["token_uri"] = .string(tokenURI) }
        return .object(object)
    }
}

/// base64url without padding (RFC 7515 §2), as JWTs and PKCE use.
