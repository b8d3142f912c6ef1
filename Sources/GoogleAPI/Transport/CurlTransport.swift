import CCurl
import Foundation
import Logging
import Synchronization

/// An `HTTPTransport` over libcurl easy handles: TLS verification always on, gzip accepted,
/// proxy environment variables honoured, redirects not followed (Drive's resumable upload
/// answers 308 and means it).
public struct CurlTransport: HTTPTransport {
    /// Time limits and identification.
    public struct Configuration: Hashable, Sendable {
        /// Seconds allowed to establish the connection (TCP and TLS).
        public var connectTimeout: Double
        /// Seconds allowed for the whole exchange when the request sets none; above Google's own 180 s.
        public var totalTimeout: Double
        public var userAgent: String

        /// The whole exchange's limit when neither the request nor the configuration sets one.
        public static let defaultTotalTimeout: Double = 200

        public init(connectTimeout: Double = 30, totalTimeout: Double = defaultTotalTimeout, userAgent: String = "sheetsync") {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.userAgent = userAgent
        }
    }

    public let configuration: Configuration
    /// Receives the wire trace at `.trace` level, credentials redacted.
    public let logger: Logger
    /// Shared by copies of this transport: a run reuses its connection (and TLS session) across requests.
    let pool = CurlHandlePool()

    private static let globalInit: CURLcode = sheetsync_curl_global_init()

    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "sheetsync.http")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// The failure of a request on a machine where libcurl cannot be opened (`why`: the loader's words).
    public static func missingLibrary(target: String, why: String) -> TransportError {
        TransportError(kind: .missingLibrary, target: target, detail: "libcurl could not be opened (\(why)); install libcurl4")
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard Self.globalInit == CURLE_OK else {
            // libcurl is opened on this first request (CCurl/shim.h): say why it could not be.
            let target = TransportError.target(of: request)
            if let why = sheetsync_curl_load_error() { throw Self.missingLibrary(target: target, why: String(cString: why)) }
            throw TransportError(kind: .other, target: target, detail: "libcurl failed to initialise")
        }
        // A cancelled run (SIGINT, SIGTERM) sends nothing more. A read under way is abandoned at once;
        // a write is let finish, so its answer says whether Google applied it.
        try Task.checkCancellation()
        let cancellation = CurlCancellation()
        let abandonable = request.isIdempotent
        let configuration = configuration
        let logger = logger
        let pool = pool
        return try await withTaskCancellationHandler {
            try await runOnOwnThread(name: "sheetsync.curl") {
                try CurlExchange(request: request, configuration: configuration, logger: logger, cancellation: cancellation, pool: pool)
                    .perform()
            }
        } onCancel: {
            if abandonable { cancellation.cancel() }
        }
    }
}

/// A flag the progress callback polls so a cancelled task aborts its transfer.
final class CurlCancellation: Sendable {
    private let cancelled = Atomic(false)

    func cancel() { cancelled.store(true, ordering: .relaxed) }
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}
