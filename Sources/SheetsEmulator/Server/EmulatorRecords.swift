import Foundation

/// One `name=value` pair of a request's query string, percent-decoded.
public struct EmulatorQueryItem: Sendable, Equatable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// What the emulator saw of one request and what it answered, for assertions.
public struct EmulatorRequestRecord: Sendable, Equatable {
    /// 1 for the first request after the last `resetCounters()`.
    public var number: Int
    public var method: String
    public var path: String
    public var query: [EmulatorQueryItem]
    public var body: Data
    /// The discovery method id (`sheets.spreadsheets.values.batchGet`), `oauth2.token`,
    /// `drive.uploadSession`, or nil for a request that matched nothing.
    public var endpoint: String?
    /// The status answered, nil when the connection was dropped before an answer.
    public var status: Int?
    public var responseBytes: Int
    public var fault: EmulatorFault?

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }
}

/// Request and byte counts since the last reset.
public struct EmulatorCounters: Sendable, Equatable {
    public var totalRequests = 0
    /// Requests per endpoint id (see `EmulatorRequestRecord.endpoint`; unmatched ones under "unknown").
    public var requestsByEndpoint: [String: Int] = [:]
    /// Request body bytes received.
    public var requestBytes = 0
    /// Response body bytes sent (or, for a truncated answer, the bytes actually written).
    public var responseBytes = 0

    public func requests(_ endpoint: String) -> Int { requestsByEndpoint[endpoint] ?? 0 }
}

/// A request that broke the discovery documents' contract.
public struct DiscoveryViolation: Sendable, Equatable, CustomStringConvertible {
    public var method: String
    public var path: String
    /// The discovery method id when the path matched one.
    public var endpoint: String?
    public var message: String

    public var description: String { "\(method) \(path): \(message)" }
}

/// A failure the emulator plays instead of (or after) a request's normal handling.
public enum EmulatorFault: Sendable, Equatable {
    /// Answer this status with Google's error body (429, 500, 503, 403 …), with `Retry-After` when given.
    case status(Int, retryAfter: Int? = nil)
    /// 403 with reason `rateLimitExceeded`, as Drive and Sheets answer per-user quota hits.
    case rateLimitExceeded
    /// Wait this long (real time), then go on normally.
    case delay(Duration)
    /// Wait until a test opens the gate of this name (`SheetsEmulator.open(gate:)`), then go on
    /// normally: another writer acts at an exact point of a run, whatever the machine's load.
    case hold(gate: String)
    /// Close the connection without answering.
    case dropConnection
    /// Abort the connection with a TCP reset.
    case resetConnection
    /// Send the headers with the full `Content-Length`, then only this many body bytes, then close.
    case truncateBody(keepingBytes: Int)
    /// Answer 400 with an error message quoting the whole request (headers and body), as a careless
    /// proxy or custom endpoint might: secrets in the request come back in the error text.
    case echoRequest
}

extension EmulatorFault {
    /// Whether the fault only makes the request wait (it is then answered normally).
    var waits: Bool {
        switch self {
        case .delay, .hold: return true
        default: return false
        }
    }
}

/// When a fault plays relative to the request's effect on the emulator's state.
public enum FaultPhase: Sendable, Equatable {
    /// The request changes nothing; the client sees the fault.
    case beforeEffect
    /// The request takes effect (a write is applied), then its answer is replaced by the fault.
    case afterEffect
}

/// Which request a fault is armed for.
public enum FaultTrigger: Sendable, Equatable {
    /// The N-th request (1-based) counted since the last `resetCounters()`.
    case requestNumber(Int)
    /// The N-th request (1-based) to this endpoint id since the last `resetCounters()`.
    case endpoint(String, occurrence: Int)
}

struct ArmedFault: Sendable, Equatable {
    var fault: EmulatorFault
    var trigger: FaultTrigger
    var phase: FaultPhase
}
