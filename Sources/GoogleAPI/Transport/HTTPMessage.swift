import Foundation
import Interchange

/// An HTTP method used by the Google APIs.
public enum HTTPMethod: String, Hashable, Sendable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
}

/// HTTP header fields in order, with names compared case-insensitively.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name, value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field, or nil; setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            remove(name)
            if let newValue { add(name, newValue) }
        }
    }

    /// Every value of the field, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name.caseInsensitiveEquals($1.name) && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}

/// One HTTP request as a value.
public struct HTTPRequest: Hashable, Sendable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The whole exchange's time limit in seconds; nil uses the transport's default.
    public var timeout: Double?
    /// Whether sending the request twice does no more than sending it once. A timeout or reset
    /// may hide a request the server applied, so only idempotent requests are re-sent after one.
    /// Defaults to true for GET, PUT and DELETE.
    public var isIdempotent: Bool
    /// What must still hold before the request is sent again after a wait (`RetryingTransport`).
    public var beforeResending: ResendCondition?

    public init(
        method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: [UInt8] = [], timeout: Double? = nil,
        isIdempotent: Bool? = nil, beforeResending: ResendCondition? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.isIdempotent = isIdempotent ?? [.get, .put, .delete].contains(method)
        self.beforeResending = beforeResending
    }
}

/// What must hold before a request is sent again, after its wait: set on a request whose meaning can
/// change while it waits (a write aimed at row positions that another writer may move); throwing stops
/// the retries with that error, and the request is not re-sent. It travels with the request through
/// every transport, as a value, not a task-local. It is no part of what the request says: two requests
/// that differ only in it are equal.
public struct ResendCondition: Hashable, Sendable {
    public let check: @Sendable () async throws -> Void

    public init(_ check: @escaping @Sendable () async throws -> Void) { self.check = check }

    public static func == (lhs: Self, rhs: Self) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

/// One HTTP response as a value.
public struct HTTPResponse: Hashable, Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Connections the transport had to open for this exchange (0 when it reused one), where it can tell.
    public var newConnections = 0

    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body and its content type.
    public static func json(_ status: Int, _ value: JSONValue, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json; charset=UTF-8"
        return HTTPResponse(status: status, headers: headers, body: value.serialized())
    }

    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body read as UTF-8 text, with invalid bytes replaced.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Sends HTTP requests; the production one is `CurlTransport`, tests use `ScriptedTransport`.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response whatever its status; throws `TransportError`
    /// when no response arrived.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
