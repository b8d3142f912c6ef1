import Foundation
import Logging

/// Re-sends requests that failed for a passing reason — 408, 429, 5xx, a 403 rate limit, a
/// timeout or a reset connection — with backoff, then gives up with `temporarilyUnavailable`.
///
/// A response that is final (success or not) is returned as it is; mapping it to an error is the caller's job.
public struct RetryingTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let policy: RetryPolicy
    public let clock: any APIClock
    public let random: any RandomSource
    public let logger: Logger

    public init(
        base: any HTTPTransport, policy: RetryPolicy = RetryPolicy(), clock: any APIClock = SystemAPIClock(),
        random: any RandomSource = SystemRandomSource(), logger: Logger = Logger(label: "sheetsync.google")
    ) {
        self.base = base
        self.policy = policy
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        if let limit = policy.attemptTimeout { request.timeout = min(request.timeout ?? limit, limit) }
        let start = clock.now()
        var attempts = 0
        while true {
            attempts += 1
            let problem: String
            var retryAfter: Double?
            do {
                let response = try await base.send(request)
                if response.status < 400 { return response }
                let details = GoogleErrorDetails(response: response, target: TransportError.target(of: request))
                guard details.isRetryable else { return response }
                // A 5xx may come after the request took effect: re-sending a create or an insert could
                // apply it twice. Only rate limits (refused before any effect) are retried for those.
                if !request.isIdempotent && response.status >= 500 { return response }
                problem = details.description
                retryAfter = response.headers["Retry-After"].flatMap { RetryAfter.seconds($0, now: clock.now()) }
            } catch let error as TransportError {
                problem = try Self.retryableProblem(error, request: request)
            }
            let delay = retryAfter ?? policy.backoff(retry: attempts - 1, random: random.nextUnit())
            let elapsed = clock.now().timeIntervalSince(start)
            if attempts >= policy.maximumAttempts || elapsed + delay > policy.totalBudget {
                throw GoogleAPIError.temporarilyUnavailable(
                    giveUpMessage(problem, attempts: attempts, elapsed: elapsed, retryAfter: retryAfter))
            }
            logger.debug(
                "retrying after a passing failure",
                metadata: ["attempt": "\(attempts)", "delay": "\(Self.format(delay)) s", "problem": "\(problem)"])
            try await clock.sleep(seconds: delay)
            // Its own requests are requests of their own, retried as any other.
            try await request.beforeResending?.check()
        }
    }

    /// The description of a transport failure worth retrying, or the final error for one that is not.
    private static func retryableProblem(_ error: TransportError, request: HTTPRequest) throws -> String {
        switch error.kind {
        case .timeout, .connectionReset:
            guard request.isIdempotent else {
                throw GoogleAPIError.temporarilyUnavailable(
                    "\(error); not re-sent because google may already have applied it")
            }
            return error.description
        case .connectionRefused, .dnsFailure:
            throw GoogleAPIError.temporarilyUnavailable("\(error); check the network")
        case .cancelled:
            throw CancellationError()
        case .tls, .missingLibrary, .other:
            throw GoogleAPIError.transport(error)
        }
    }

    private func giveUpMessage(_ problem: String, attempts: Int, elapsed: Double, retryAfter: Double?) -> String {
        var text = "google still failing after \(attempts) attempt\(attempts == 1 ? "" : "s") over \(Self.format(elapsed)) s: \(problem)"
        if let retryAfter, retryAfter > policy.totalBudget - elapsed {
            text += "; google asked to wait \(Self.format(retryAfter)) s, beyond the \(Self.format(policy.totalBudget)) s retry budget"
        }
        // What this means for the caller's data and when to retry is the caller's to say (once).
        return text
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
