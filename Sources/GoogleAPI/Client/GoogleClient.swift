import Foundation
import Interchange
import Logging

/// Sends requests to Google through the full stack — bearer token, 401 refresh, retries,
/// libcurl — and turns final failures into `GoogleAPIError`. The typed clients sit on top.
public struct GoogleClient: Sendable {
    /// The stack every request goes through.
    public let transport: any HTTPTransport
    public let endpoints: GoogleEndpoints
    public let logger: Logger

    /// Wraps an assembled transport (tests may pass a `ScriptedTransport` directly).
    public init(transport: any HTTPTransport, endpoints: GoogleEndpoints = .production, logger: Logger = Logger(label: "sheetsync.google"))
    {
        self.transport = transport
        self.endpoints = endpoints
        self.logger = logger
    }

    /// The production stack: `AuthorizedTransport(RetryingTransport(base))`, tokens fetched
    /// through `RetryingTransport(base)` with the given credentials. `base` defaults to a
    /// `CurlTransport` logging to `logger`.
    public init(
        credentials: GoogleCredentials, scopes: [String] = GoogleScopes.all, endpoints: GoogleEndpoints = .production,
        base: (any HTTPTransport)? = nil, policy: RetryPolicy = RetryPolicy(),
        clock: any APIClock = SystemAPIClock(), random: any RandomSource = SystemRandomSource(),
        logger: Logger = Logger(label: "sheetsync.google")
    ) throws(GoogleAPIError) {
        let retrying = RetryingTransport(
            base: base ?? CurlTransport(logger: logger), policy: policy, clock: clock, random: random, logger: logger)
        let tokens = try OAuthTokenProvider(
            grant: TokenGrant(credentials, scopes: scopes), endpoints: endpoints, transport: retrying, clock: clock)
        self.init(transport: AuthorizedTransport(base: retrying, tokens: tokens), endpoints: endpoints, logger: logger)
    }

    /// The production stack for a credentials file (checked for safe permissions) and an
    /// optional `endpoint` override such as the emulator's URL.
    public init(
        credentialsPath: String, endpoint: URL? = nil, policy: RetryPolicy = RetryPolicy(),
        logger: Logger = Logger(label: "sheetsync.google")
    ) throws(GoogleAPIError) {
        try self.init(
            credentials: try GoogleCredentials.load(path: credentialsPath), endpoints: GoogleEndpoints(endpoint: endpoint),
            policy: policy, logger: logger)
    }

    /// Sends the request; returns the response when its status is 2xx or listed in `accepting`,
    /// otherwise throws the matching `GoogleAPIError`.
    public func send(_ request: HTTPRequest, accepting: Set<Int> = []) async throws -> HTTPResponse {
        let response = try await transport.send(request)
        if response.isSuccess || accepting.contains(response.status) { return response }
        let error = GoogleAPIError.from(response, request: request)
        logger.debug("google refused a request", metadata: ["error": "\(error)"])
        throw error
    }

    /// Sends an optional JSON body and parses the JSON answer (an empty body reads as an empty object).
    public func json(_ method: HTTPMethod, _ url: URL, body: JSONValue? = nil, isIdempotent: Bool? = nil) async throws -> JSONValue {
        try await json(method, url, serializedBody: body?.serialized(), isIdempotent: isIdempotent)
    }

    /// Sends a JSON body serialized already and parses the JSON answer.
    public func json(
        _ method: HTTPMethod, _ url: URL, serializedBody: [UInt8]?, isIdempotent: Bool? = nil, beforeResending: ResendCondition? = nil
    ) async throws -> JSONValue {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if serializedBody != nil { headers["Content-Type"] = "application/json; charset=UTF-8" }
        let request = HTTPRequest(
            method: method, url: url, headers: headers, body: serializedBody ?? [], isIdempotent: isIdempotent,
            beforeResending: beforeResending)
        let response = try await send(request)
        return try Self.parseJSON(response, request: request)
    }

    static func parseJSON(_ response: HTTPResponse, request: HTTPRequest) throws(GoogleAPIError) -> JSONValue {
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([:]) }
        do {
            return try JSONValue.parse(response.body)
        } catch {
            throw GoogleAPIError.invalidResponse("\(error) in the answer to \(TransportError.target(of: request))")
        }
    }
}
