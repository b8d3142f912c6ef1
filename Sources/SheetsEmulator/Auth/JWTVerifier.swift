import Crypto
import Foundation
import Interchange
import _CryptoExtras

/// Why a service-account assertion was refused, in Google's words.
struct JWTRejection: Error, Sendable {
    var error = "invalid_grant"
    var message: String
}

/// The claims of an accepted assertion.
struct JWTClaims: Sendable {
    var issuer: String
    var scope: String
}

/// Checks an RS256 JWT bearer assertion the way Google's token endpoint does.
enum JWTVerifier {
    /// Allowed clock difference between the client and the emulator, for `iat`.
    static let skew: TimeInterval = 300

    static func verify(_ assertion: String, keys: [String: String], audiences: [String], now: Date) throws(JWTRejection) -> JWTClaims {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = base64URLDecode(parts[0]), let payloadData = base64URLDecode(parts[1]),
            let signature = base64URLDecode(parts[2]),
            let header = try? JSONValue.parse(Array(headerData)), let payload = try? JSONValue.parse(Array(payloadData))
        else { throw JWTRejection(message: "Invalid JWT: the assertion is not a well-formed JWT.") }
        guard header["alg"]?.stringValue == "RS256" else {
            throw JWTRejection(
                message: "Invalid JWT: unsupported signing algorithm '\(header["alg"]?.stringValue ?? "")' (expected RS256).")
        }
        guard let issuer = payload["iss"]?.stringValue, let pem = keys[issuer] else {
            throw JWTRejection(message: "Invalid email or User ID")
        }
        guard let key = try? _RSA.Signing.PublicKey(pemRepresentation: pem) else {
            throw JWTRejection(message: "Invalid JWT Signature.")
        }
        let signingInput = Data((parts[0] + "." + parts[1]).utf8)
        guard
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
        else { throw JWTRejection(message: "Invalid JWT Signature.") }
        guard let audience = payload["aud"]?.stringValue, audiences.contains(audience) else {
            throw JWTRejection(message: "Invalid JWT: Failed audience check. The right audience is \(audiences.first ?? "")")
        }
        guard let issuedAt = payload["iat"]?.doubleValue, let expires = payload["exp"]?.doubleValue,
            expires - issuedAt <= 3600, expires > issuedAt,
            expires > now.timeIntervalSince1970, issuedAt <= now.timeIntervalSince1970 + skew
        else {
            throw JWTRejection(
                message: "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable "
                    + "timeframe. Check your iat and exp values in the JWT claim.")
        }
        guard let scope = payload["scope"]?.stringValue, !scope.isEmpty else {
            throw JWTRejection(error: "invalid_scope", message: "Invalid OAuth scope or ID token audience provided.")
        }
        return JWTClaims(issuer: issuer, scope: scope)
    }

    static func base64URLDecode(_ text: Substring) -> Data? { Base64URL.decode(text).map { Data($0) } }

    static func base64URLEncode(_ data: Data) -> String { Base64URL.encode(data) }
}
