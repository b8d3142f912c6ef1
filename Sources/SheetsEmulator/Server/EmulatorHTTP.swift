import Foundation
import Interchange

/// A request as the emulator's handlers see it, independent of the HTTP server.
struct EmulatorRequest: Sendable {
    var method: String
    /// The path as sent, still percent-encoded (so an encoded `/` in a range stays inside its segment).
    var rawPath: String
    var query: [EmulatorQueryItem]
    /// Header names lowercased.
    var headers: [String: String]
    var body: Data

    init(method: String, rawPath: String, rawQuery: String?, headers: [String: String], body: Data) {
        self.method = method
        self.rawPath = rawPath
        self.query = Self.parseQuery(rawQuery ?? "")
        self.headers = headers
        self.body = body
    }

    var path: String { rawPath.removingPercentEncoding ?? rawPath }

    func query(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    func queryAll(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// `application/x-www-form-urlencoded` pairs, for query strings and the token endpoint's body.
    static func parseQuery(_ text: String) -> [EmulatorQueryItem] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return EmulatorQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The body already parsed (while checking it against the discovery documents), so it is parsed once.
    var parsedBody: JSONValue?

    /// The body as JSON; an empty body reads as nil.
    func jsonBody() throws(GoogleAPIError) -> JSONValue? {
        if let parsedBody { return parsedBody }
        guard !body.isEmpty else { return nil }
        do throws(JSONParseError) {
            return try JSONValue.parse(Array(body))
        } catch {
            throw .invalidArgument("Invalid JSON payload received. \(error.payloadDetail).")
        }
    }
}

/// An answer before it is written to the wire.
struct EmulatorResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body = Data()

    /// Whether the request being answered asked for `prettyPrint=false` (Google indents JSON unless told not to).
    @TaskLocal static var compact = false

    static func json(_ value: JSONValue, status: Int = 200) -> EmulatorResponse {
        EmulatorResponse(
            status: status, headers: [("Content-Type", "application/json; charset=UTF-8")],
            body: Data((compact ? value.serializedString() : value.prettySerializedString()).utf8))
    }

    static func error(_ error: GoogleAPIError) -> EmulatorResponse {
        var response = json(error.json, status: error.code)
        if let retryAfter = error.retryAfterSeconds { response.headers.append(("Retry-After", String(retryAfter))) }
        if error.code == 401 { response.headers.append(("WWW-Authenticate", "Bearer realm=\"https://accounts.google.com/\"")) }
        return response
    }

    /// The OAuth endpoints' own error shape (`{"error":"invalid_grant","error_description":...}`).
    static func oauthError(_ code: String, _ description: String, status: Int = 400) -> EmulatorResponse {
        json(["error": .string(code), "error_description": .string(description)], status: status)
    }
}

/// How the server must finish a request: an answer, or a fault that breaks the connection.
enum EmulatorOutcome: Sendable {
    case respond(EmulatorResponse)
    case drop(reset: Bool)
    case truncate(EmulatorResponse, keepingBytes: Int)
}
