import Foundation
import Interchange
import Synchronization
import Testing

@testable import GoogleAPI

@Suite struct RetryingTransportTests {
    let url = URL(string: "https://sheets.googleapis.com/v4/spreadsheets/x?fields=a")

    func make(_ transport: ScriptedTransport, clock: ManualAPIClock, random: [Double] = [0.5], policy: RetryPolicy = RetryPolicy())
        -> RetryingTransport
    {
        RetryingTransport(base: transport, policy: policy, clock: clock, random: FixedRandomSource(random))
    }

    func request(_ method: HTTPMethod = .get) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(url))
    }

    static func googleError(_ code: Int, status: String, reason: String, message: String) -> HTTPResponse {
        .json(
            code,
            [
                "error": [
                    "code": .integer(code), "message": .string(message), "status": .string(status),
                    "errors": [["message": .string(message), "domain": "usageLimits", "reason": .string(reason)]],
                ]
            ])
    }

    @Test func retryAfterSecondsIsHonoured() async throws {
        let clock = ManualAPIClock()
        let transport = ScriptedTransport([HTTPResponse(status: 429, headers: ["Retry-After": "7"]), HTTPResponse(status: 200)])
        let response = try await make(transport, clock: clock).send(try request())
        #expect(response.status == 200)
        #expect(clock.sleeps == [7])
    }

    /// A request carrying a condition is re-sent only while the condition holds; one that throws stops
    /// the retries with its error, and the request is not sent again.
    @Test func aRequestIsResentOnlyWhileItsConditionHolds() async throws {
        struct Moved: Error {}
        let checks = Mutex(0)
        var held = try request(.post)
        held.isIdempotent = true
        held.beforeResending = ResendCondition { checks.withLock { $0 += 1 } }
        let transport = ScriptedTransport([HTTPResponse(status: 503), HTTPResponse(status: 200)])
        #expect(try await make(transport, clock: ManualAPIClock()).send(held).status == 200)
        #expect(checks.withLock { $0 } == 1)
        #expect(transport.requests.count == 2)

        var refused = try request(.post)
        refused.beforeResending = ResendCondition { throw Moved() }
        let stopped = ScriptedTransport([HTTPResponse(status: 429), HTTPResponse(status: 200)])
        await #expect(throws: Moved.self) { try await make(stopped, clock: ManualAPIClock()).send(refused) }
        #expect(stopped.requests.count == 1)
    }

    @Test func retryAfterHTTPDateIsHonoured() async throws {
        let clock = ManualAPIClock(now: Date(timeIntervalSince1970: 1_784_000_000))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: clock.now().addingTimeInterval(30))
        let transport = ScriptedTransport([HTTPResponse(status: 503, headers: ["Retry-After": date]), HTTPResponse(status: 200)])
        _ = try await make(transport, clock: clock).send(try request())
        #expect(clock.sleeps == [30])
    }

    @Test func backoffIsExponentialWithFullJitter() async throws {
        let clock = ManualAPIClock()
        let transport = ScriptedTransport(
            [
                HTTPResponse(status: 500), HTTPResponse(status: 502), HTTPResponse(status: 503), HTTPResponse(status: 504),
                HTTPResponse(status: 200),
            ])
        _ = try await make(transport, clock: clock, random: [0.5, 0.25, 0.0, 0.999_999]).send(try request())
        #expect(clock.sleeps.count == 4)
        let expected = [0.5 * 1, 0.25 * 2, 0.0 * 4, 0.999_999 * 8]
        for (slept, wanted) in zip(clock.sleeps, expected) { #expect(abs(slept - wanted) < 1e-9) }
    }

    @Test func jitterStaysBelowTheTruncatedCeiling() {
        let policy = RetryPolicy(initialBackoff: 1, maximumBackoff: 32)
        for retry in 0..<20 {
            for random in [0.0, 0.3, 0.999_999] {
                let delay = policy.backoff(retry: retry, random: random)
                #expect(delay >= 0 && delay <= min(32, pow(2, Double(retry))))
            }
        }
        #expect(policy.backoffCeiling(retry: 10) == 32)
    }

    @Test func givesUpWithinTheTotalBudget() async throws {
        let clock = ManualAPIClock()
        let transport = ScriptedTransport(handler: { _ in
            Self.googleError(503, status: "UNAVAILABLE", reason: "backendError", message: "The service is currently unavailable.")
        })
        let policy = RetryPolicy(initialBackoff: 1, maximumBackoff: 32, totalBudget: 120, maximumAttempts: 100)
        do {
            _ = try await make(transport, clock: clock, random: [0.999], policy: policy).send(try request())
            Issue.record("expected temporarilyUnavailable")
        } catch let error as GoogleAPIError {
            #expect(error.isTemporary)
            #expect(error.description.contains("503 UNAVAILABLE"))
            #expect(error.description.contains("The service is currently unavailable."))
            #expect(error.description.contains("google still failing after"))
        }
        #expect(clock.sleeps.reduce(0, +) <= 120)
        #expect(clock.sleeps.reduce(0, +) > 60)
        #expect(transport.requests.count == clock.sleeps.count + 1)
    }

    @Test func retryAfterBeyondTheBudgetGivesUpAtOnce() async throws {
        let clock = ManualAPIClock()
        let transport = ScriptedTransport([HTTPResponse(status: 429, headers: ["retry-after": "600"])])
        await #expect {
            _ = try await make(transport, clock: clock).send(try request())
        } throws: { error in
            (error as? GoogleAPIError)?.description.contains("asked to wait 600.0 s, beyond the 120.0 s retry budget") == true
        }
        #expect(clock.sleeps.isEmpty)
    }

    @Test func rateLimit403IsRetriedButForbidden403IsNot() async throws {
        let clock = ManualAPIClock()
        let limited = ScriptedTransport([
            Self.googleError(403, status: "PERMISSION_DENIED", reason: "userRateLimitExceeded", message: "User rate limit exceeded."),
            Self.googleError(403, status: "PERMISSION_DENIED", reason: "rateLimitExceeded", message: "Rate limit exceeded."),
            HTTPResponse(status: 200),
        ])
        #expect(try await make(limited, clock: clock).send(try request()).status == 200)
        #expect(limited.requests.count == 3)

        let forbidden = ScriptedTransport([
            Self.googleError(403, status: "PERMISSION_DENIED", reason: "forbidden", message: "The caller does not have permission"),
            HTTPResponse(status: 200),
        ])
        let client = GoogleClient(transport: make(forbidden, clock: clock))
        await #expect {
            _ = try await client.send(try request())
        } throws: { error in
            guard case .api(let details) = error as? GoogleAPIError else { return false }
            return details.httpStatus == 403 && details.reason == "forbidden" && details.status == "PERMISSION_DENIED"
                && "\(error)".contains("The caller does not have permission")
        }
        #expect(forbidden.requests.count == 1)
    }

    @Test func timeoutsAndResetsAreRetriedForIdempotentRequests() async throws {
        let clock = ManualAPIClock()
        let transport = ScriptedTransport()
        transport.enqueue(failure: TransportError(kind: .timeout, target: "GET x", detail: "Operation timed out"))
        transport.enqueue(failure: TransportError(kind: .connectionReset, target: "GET x", detail: "Connection reset by peer"))
        transport.enqueue(HTTPResponse(status: 200))
        #expect(try await make(transport, clock: clock).send(try request()).status == 200)
        #expect(clock.sleeps.count == 2)
    }

    @Test func timeoutOfANonIdempotentRequestIsNotResent() async throws {
        let transport = ScriptedTransport()
        transport.enqueue(failure: TransportError(kind: .timeout, target: "POST x", detail: "Operation timed out"))
        transport.enqueue(HTTPResponse(status: 200))
        await #expect {
            _ = try await make(transport, clock: ManualAPIClock()).send(try request(.post))
        } throws: { error in
            (error as? GoogleAPIError)?.isTemporary == true && "\(error)".contains("not re-sent")
        }
        #expect(transport.requests.count == 1)
    }

    @Test func serverErrorOnANonIdempotentRequestIsNotResentButARateLimitIs() async throws {
        let failing = ScriptedTransport([HTTPResponse(status: 500), HTTPResponse(status: 200)])
        let answer = try await make(failing, clock: ManualAPIClock()).send(try request(.post))
        #expect(answer.status == 500)
        #expect(failing.requests.count == 1)
        let limited = ScriptedTransport([HTTPResponse(status: 429, headers: ["Retry-After": "1"]), HTTPResponse(status: 200)])
        #expect(try await make(limited, clock: ManualAPIClock()).send(try request(.post)).status == 200)
        #expect(limited.requests.count == 2)
    }

    @Test func refusedConnectionIsTemporaryWithoutRetrying() async throws {
        let transport = ScriptedTransport()
        transport.enqueue(failure: TransportError(kind: .connectionRefused, target: "GET x", detail: "Connection refused"))
        await #expect {
            _ = try await make(transport, clock: ManualAPIClock()).send(try request())
        } throws: { error in
            (error as? GoogleAPIError)?.isTemporary == true
        }
        #expect(transport.requests.count == 1)
    }

    @Test func storageQuotaExceededExplainsServiceAccounts() async throws {
        let transport = ScriptedTransport([
            Self.googleError(
                403, status: "PERMISSION_DENIED", reason: "storageQuotaExceeded",
                message: "The user's Drive storage quota has been exceeded.")
        ])
        let client = GoogleClient(transport: make(transport, clock: ManualAPIClock()))
        await #expect {
            _ = try await client.send(try request(.post))
        } throws: { error in
            guard let error = error as? GoogleAPIError, case .storageQuotaExceeded = error else { return false }
            return error.description.contains("a service account has no drive storage")
                && error.description.contains("shared drive") && error.description.contains("sheetsync auth login")
        }
    }

    /// Each attempt may take no longer than the whole retry budget: with `retryBudgetSeconds` 45 a hanging
    /// server holds a run about 45 s per attempt, not the transport's 200 s; a larger budget leaves the
    /// transport's limit, a budget of a few seconds still gives an answer 30 s, and a request's own
    /// shorter limit stays.
    @Test func theRetryBudgetBoundsEachAttemptsTimeout() async throws {
        let clock = ManualAPIClock()
        let transport = ScriptedTransport((0..<4).map { _ in HTTPResponse(status: 200) })
        for budget in [45.0, 600, 2] {
            _ = try await make(transport, clock: clock, policy: RetryPolicy(totalBudget: budget)).send(try request())
        }
        var short = try request()
        short.timeout = 10
        _ = try await make(transport, clock: clock, policy: RetryPolicy(totalBudget: 45)).send(short)
        #expect(transport.requests.map(\.timeout) == [45, CurlTransport.Configuration.defaultTotalTimeout, 30, 10])
    }
}
