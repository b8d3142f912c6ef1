import Foundation
import Synchronization

/// An in-memory `HTTPTransport` for tests: answers from a queue of scripted outcomes, then from
/// an optional handler, and records every request it was sent.
public final class ScriptedTransport: HTTPTransport, Sendable {
    /// Computes a response for requests the queue does not cover.
    public typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private struct State {
        var queue: [Result<HTTPResponse, TransportError>]
        var recorded: [HTTPRequest] = []
    }

    private let state: Mutex<State>
    private let handler: Handler?

    /// Plays `responses` in order, then falls back to `handler`; with neither left a request fails.
    public init(_ responses: [HTTPResponse] = [], handler: Handler? = nil) {
        self.state = Mutex(State(queue: responses.map { .success($0) }))
        self.handler = handler
    }

    /// Appends a response to the queue.
    public func enqueue(_ response: HTTPResponse) {
        state.withLock { $0.queue.append(.success(response)) }
    }

    /// Appends a transport failure to the queue.
    public func enqueue(failure: TransportError) {
        state.withLock { $0.queue.append(.failure(failure)) }
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] {
        state.withLock { $0.recorded }
    }

    /// How many queued outcomes have not been used.
    public var pendingCount: Int {
        state.withLock { $0.queue.count }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let next: Result<HTTPResponse, TransportError>? = state.withLock {
            $0.recorded.append(request)
            return $0.queue.isEmpty ? nil : $0.queue.removeFirst()
        }
        if let next { return try next.get() }
        if let handler { return try await handler(request) }
        throw TransportError(kind: .other, request: request, detail: "no scripted response left")
    }
}
