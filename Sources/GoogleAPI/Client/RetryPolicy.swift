import Foundation

/// Truncated exponential backoff with full jitter, inside a bounded total time.
public struct RetryPolicy: Hashable, Sendable {
    /// The backoff ceiling of the first retry, in seconds.
    public var initialBackoff: Double
    /// No single pause is longer than this, in seconds, unless Google's `Retry-After` asks for it.
    public var maximumBackoff: Double
    /// Retries stop once the next pause would end more than this many seconds after the first attempt.
    public var totalBudget: Double
    /// A hard cap on attempts, whatever the budget.
    public var maximumAttempts: Int

    public init(initialBackoff: Double = 1, maximumBackoff: Double = 32, totalBudget: Double = 120, maximumAttempts: Int = 12) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.totalBudget = totalBudget
        self.maximumAttempts = maximumAttempts
    }

    /// No retries: the first failure is final.
    public static let none = RetryPolicy(totalBudget: 0, maximumAttempts: 1)

    /// The longest one attempt may take: no longer than the whole budget, so a server that hangs holds a
    /// run about `totalBudget` per attempt rather than the transport's 200 s; but never under 30 s (the
    /// connect timeout: a budget of a few seconds paces retries, it does not ask every answer to come
    /// that fast). Nil without a budget (no retries): the transport's own limit.
    public var attemptTimeout: Double? {
        guard totalBudget > 0 else { return nil }
        return min(CurlTransport.Configuration.defaultTotalTimeout, max(totalBudget, Self.shortestAttemptTimeout))
    }

    static let shortestAttemptTimeout: Double = 30

    /// The ceiling for the pause after failed attempt number `retry` (0 for the first failure).
    public func backoffCeiling(retry: Int) -> Double {
        let exponent = Double(min(retry, 30))
        return min(maximumBackoff, initialBackoff * pow(2, exponent))
    }

    /// The pause after failed attempt number `retry`: uniformly random below the ceiling ("full jitter").
    public func backoff(retry: Int, random: Double) -> Double {
        backoffCeiling(retry: retry) * min(max(random, 0), 1)
    }
}

/// Reads a `Retry-After` header: delay seconds or an HTTP date.
public enum RetryAfter {
    /// The seconds to wait from `now`, or nil when the value is neither form.
    public static func seconds(_ value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 { return seconds }
        for format in httpDateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    // RFC 9110 §5.6.7: IMF-fixdate, then the obsolete RFC 850 and asctime forms.
    private static let httpDateFormats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]
}
