import Foundation

/// Supplies OAuth access tokens; `forceRefresh` discards a cached token the server rejected.
public protocol AccessTokenProvider: Sendable {
    func token(forceRefresh: Bool) async throws -> String
}

/// OAuth scopes sheetsync asks for.
public enum GoogleScopes {
    public static let spreadsheets = "https://www.googleapis.com/auth/spreadsheets"
    /// Only files sheetsync created or was given; enough for the workbook folders and receipts.
    public static let driveFile = "https://www.googleapis.com/auth/drive.file"
    public static let all = [spreadsheets, driveFile]
}

/// An access token and when it stops working.
public struct AccessToken: Hashable, Sendable {
    public var value: String
    public var expiresAt: Date

    public init(value: String, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }
}

/// Always the same token; for the emulator and tests.
public struct StaticTokenProvider: AccessTokenProvider {
    public let value: String

    public init(_ value: String) { self.value = value }

    public func token(forceRefresh: Bool) async throws -> String { value }
}

/// Fetches tokens with a credentials grant and keeps each until shortly before it expires.
/// Concurrent callers share one request.
public actor OAuthTokenProvider: AccessTokenProvider {
    public let grant: TokenGrant
    private let tokenURL: URL
    private let transport: any HTTPTransport
    private let clock: any APIClock
    private let refreshMargin: Double
    private var cached: AccessToken?
    private var inFlight: Task<AccessToken, any Error>?

    /// - Parameters:
    ///   - transport: should retry passing failures (a `RetryingTransport`); token requests are idempotent.
    ///   - refreshMargin: seconds before expiry at which a cached token is replaced.
    public init(
        grant: TokenGrant, endpoints: GoogleEndpoints, transport: any HTTPTransport, clock: any APIClock = SystemAPIClock(),
        refreshMargin: Double = 300
    ) throws(GoogleAPIError) {
        self.grant = grant
        self.tokenURL = try endpoints.tokenURL(grant.tokenURI)
        self.transport = transport
        self.clock = clock
        self.refreshMargin = refreshMargin
    }

    public func token(forceRefresh: Bool) async throws -> String {
        if !forceRefresh, let cached, clock.now().addingTimeInterval(refreshMargin) < cached.expiresAt {
            return cached.value
        }
        if let inFlight { return try await inFlight.value.value }
        let grant = grant
        let tokenURL = tokenURL
        let transport = transport
        let clock = clock
        let task = Task { try await grant.fetch(tokenURL: tokenURL, transport: transport, clock: clock) }
        inFlight = task
        defer { inFlight = nil }
        let token = try await task.value
        cached = token
        return token.value
    }
}
