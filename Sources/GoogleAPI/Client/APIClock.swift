import Foundation
import Synchronization

/// Wall-clock time and sleeping, injected so tests neither wait nor depend on the date.
public protocol APIClock: Sendable {
    func now() -> Date
    /// Suspends for the given seconds; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
}

/// The real clock.
public struct SystemAPIClock: APIClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}

/// A clock for tests: time moves only when told to or when someone sleeps, and every sleep is recorded.
public final class ManualAPIClock: APIClock, Sendable {
    private struct State {
        var current: Date
        var recorded: [Double] = []
    }

    private let state: Mutex<State>

    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(current: now))
    }

    public func now() -> Date { state.withLock { $0.current } }

    /// Records the sleep and moves time forward by it, at once.
    public func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.recorded.append(seconds)
            $0.current += max(0, seconds)
        }
    }

    public func advance(by seconds: Double) {
        state.withLock { $0.current += seconds }
    }

    /// Every sleep requested so far, in seconds.
    public var sleeps: [Double] { state.withLock { $0.recorded } }
}

/// Uniform random numbers in `0..<1` for backoff jitter.
public protocol RandomSource: Sendable {
    func nextUnit() -> Double
}

/// The system random number generator.
public struct SystemRandomSource: RandomSource {
    public init() {}
    public func nextUnit() -> Double { Double.random(in: 0..<1) }
}

/// Plays the given values in a cycle, for tests.
public final class FixedRandomSource: RandomSource, Sendable {
    private let values: [Double]
    private let index = Mutex(0)

    /// Values outside `0..<1` are clamped into it.
    public init(_ values: [Double]) {
        self.values = values.isEmpty ? [0.5] : values.map { min(max($0, 0), 0.999_999_999) }
    }

    public func nextUnit() -> Double {
        index.withLock { index in
            defer { index = (index + 1) % values.count }
            return values[index]
        }
    }
}
