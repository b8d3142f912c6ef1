import Foundation

/// Why an HTTP exchange produced no response, saying which kind of failure it was.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case timeout
        case connectionRefused
        case connectionReset
        case dnsFailure
        case tls
        case cancelled
        /// libcurl itself cannot be opened on this machine: installing it is the fix.
        case missingLibrary
        case other
    }

    public var kind: Kind
    /// The request's method and URL without its query, which may hold identifiers worth keeping out of logs.
    public var target: String
    /// libcurl's own explanation, or a short note.
    public var detail: String

    public init(kind: Kind, target: String, detail: String) {
        self.kind = kind
        self.target = target
        self.detail = detail
    }

    init(kind: Kind, request: HTTPRequest, detail: String) {
        self.init(kind: kind, target: Self.target(of: request), detail: detail)
    }

    static func target(of request: HTTPRequest) -> String {
        var components = request.url.absoluteString
        if let query = components.firstIndex(of: "?") { components = String(components[..<query]) }
        return "\(request.method.rawValue) \(components)"
    }

    /// Whether trying the same request again may succeed: the network hiccuped rather than the
    /// address or the certificate being wrong.
    public var isRetryable: Bool {
        switch kind {
        case .timeout, .connectionReset: return true
        case .connectionRefused, .dnsFailure, .tls, .cancelled, .missingLibrary, .other: return false
        }
    }

    public var description: String {
        let what: String
        switch kind {
        case .timeout: what = "timed out"
        case .connectionRefused: what = "connection refused"
        case .connectionReset: what = "connection reset"
        case .dnsFailure: what = "host name not resolved"
        case .tls: what = "TLS failure"
        case .cancelled: what = "cancelled"
        case .missingLibrary: what = "no HTTP library"
        case .other: what = "transfer failed"
        }
        return detail.isEmpty ? "\(what) on \(target)" : "\(what) on \(target): \(detail)"
    }
}
