import Foundation
import Interchange
import _CryptoExtras

@testable import GoogleAPI

/// A fresh folder under the system temporary directory, removed when the value is dropped.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "googleapi-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to a file in the folder with the given mode and returns its path.
    func write(_ name: String, _ text: String, mode: Int16) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }
}

enum Fixtures {
    /// One key for the whole run: generating RSA keys is slow in debug builds.
    static let sharedKey: _RSA.Signing.PrivateKey? = try? _RSA.Signing.PrivateKey(keySize: .bits2048)

    static func key() throws -> _RSA.Signing.PrivateKey {
        guard let sharedKey else { throw GoogleAPIError.invalidResponse("cannot generate a test RSA key") }
        return sharedKey
    }

    static let accessToken = "ya29.test-access-token-SECRET"
    static let refreshToken = "1//test-refresh-token-SECRET"
    static let clientSecret = "GOCSPX-client-secret-SECRET"

    /// A service-account JSON document for a new 2048-bit key, the way Google formats them.
    static func serviceAccountJSON(key: _RSA.Signing.PrivateKey, tokenURI: String = "https://oauth2.googleapis.com/token") -> String {
        JSONValue.object([
            "type": "service_account", "project_id": "demo", "private_key_id": "kid-123",
            "private_key": .string(key.pkcs8PEMRepresentation), "client_email": "sync@demo.iam.gserviceaccount.com",
            "client_id": "1234", "token_uri": .string(tokenURI),
        ]).serializedString()
    }

    static let authorizedUser = AuthorizedUserCredentials(
        clientID: "client-1.apps.googleusercontent.com", clientSecret: clientSecret, refreshToken: refreshToken)

    static func tokenResponse(_ token: String = accessToken, expiresIn: Int = 3599) -> HTTPResponse {
        .json(200, ["access_token": .string(token), "expires_in": .integer(expiresIn), "token_type": "Bearer"])
    }

    /// The form fields of a url-encoded request body.
    static func form(_ request: HTTPRequest) -> [String: String] {
        Dictionary(URLEncoding.queryItems(String(decoding: request.body, as: UTF8.self)), uniquingKeysWith: { first, _ in first })
    }

    /// The query items of a request URL.
    static func query(_ request: HTTPRequest) -> [(String, String)] {
        URLEncoding.queryItems(request.url.query(percentEncoded: true) ?? "")
    }
}
