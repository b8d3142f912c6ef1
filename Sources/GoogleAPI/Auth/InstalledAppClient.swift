import Foundation
import Interchange

/// An OAuth client of type "Desktop app", from the JSON Google Cloud Console downloads:
/// `{"installed": {"client_id", "client_secret", "auth_uri", "token_uri"}}`.
public struct InstalledAppClient: Hashable, Sendable {
    public var clientID: String
    public var clientSecret: String
    public var authURI: String
    public var tokenURI: String

    public init(
        clientID: String, clientSecret: String, authURI: String = GoogleEndpoints.defaultAuthURI,
        tokenURI: String = GoogleEndpoints.defaultTokenURI
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authURI = authURI
        self.tokenURI = tokenURI
    }

    /// Reads a client JSON file.
    public static func load(path: String) throws(GoogleAPIError) -> InstalledAppClient {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "cannot read the oauth client file")
        }
        return try parse(Array(data), path: path)
    }

    /// Parses a client document; `path` only names it in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws(GoogleAPIError) -> InstalledAppClient {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "\(error)")
        }
        guard let installed = document["installed"], installed.objectValue != nil else {
            throw GoogleAPIError.invalidCredentials(
                path: path, detail: "expected an 'installed' (desktop app) oauth client, found none")
        }
        func field(_ name: String) throws(GoogleAPIError) -> String {
            guard let value = installed[name]?.stringValue, !value.isEmpty else {
                throw GoogleAPIError.invalidCredentials(path: path, detail: "missing 'installed.\(name)'")
            }
            return value
        }
        return InstalledAppClient(
            clientID: try field("client_id"), clientSecret: try field("client_secret"),
            authURI: installed["auth_uri"]?.stringValue ?? GoogleEndpoints.defaultAuthURI,
            tokenURI: installed["token_uri"]?.stringValue ?? GoogleEndpoints.defaultTokenURI)
    }
}
