import Foundation
import Interchange
import _CryptoExtras

/// Credentials from a Google JSON credentials file.
public enum GoogleCredentials: Sendable {
    case serviceAccount(ServiceAccountCredentials)
    case authorizedUser(AuthorizedUserCredentials)

    /// Reads and parses a credentials file, refusing one that group or others can access.
    public static func load(path: String) throws(GoogleAPIError) -> GoogleCredentials {
        try parse(CredentialsFile.readPrivate(path: path), path: path)
    }

    /// Parses a credentials document; `path` only names it in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws(GoogleAPIError) -> GoogleCredentials {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "\(error)")
        }
        guard document.objectValue != nil else {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "expected a JSON object")
        }
        func field(_ name: String) throws(GoogleAPIError) -> String {
            guard let value = document[name]?.stringValue, !value.isEmpty else {
                throw GoogleAPIError.invalidCredentials(path: path, detail: "missing '\(name)'")
            }
            return value
        }
        let tokenURI = document["token_uri"]?.stringValue
        if let tokenURI, URL(string: tokenURI)?.host == nil {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "token_uri '\(tokenURI)' is not an absolute URL")
        }
        switch document["type"]?.stringValue {
        case "service_account":
            let pem = try field("private_key")
            let key: _RSA.Signing.PrivateKey
            do {
                key = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
            } catch {
                throw GoogleAPIError.invalidCredentials(path: path, detail: "private_key is not an RSA private key in PEM form")
            }
            return .serviceAccount(
                ServiceAccountCredentials(
                    clientEmail: try field("client_email"), privateKeyID: document["private_key_id"]?.stringValue,
                    privateKey: key, tokenURI: tokenURI ?? GoogleEndpoints.defaultTokenURI))
        case "authorized_user":
            return .authorizedUser(
                AuthorizedUserCredentials(
                    clientID: try field("client_id"), clientSecret: try field("client_secret"),
                    refreshToken: try field("refresh_token"), tokenURI: tokenURI))
        case let other:
            let found = other.map { "'\($0)'" } ?? "none"
            throw GoogleAPIError.invalidCredentials(
                path: path, detail: "type is \(found), expected 'service_account' or 'authorized_user'")
        }
    }

    /// The token endpoint the file names, if any.
    public var tokenURI: String? {
        switch self {
        case .serviceAccount(let account): return account.tokenURI
        case .authorizedUser(let user): return user.tokenURI
        }
    }
}
