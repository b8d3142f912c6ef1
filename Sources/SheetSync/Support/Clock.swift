import Foundation
import SheetSyncCore

/// The time, passed in so runs and tests agree on "now".
public protocol Clock: Sendable {
    func now() -> Timestamp
}

public struct SystemClock: Clock {
    public init() {}
    public func now() -> Timestamp { Timestamp(Date()) }
}

/// A clock that says what it is told, for tests.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Timestamp

    public init(_ start: Timestamp) { current = start }

    public func now() -> Timestamp { lock.withLock { current } }

    public func advance(milliseconds: Int64) { lock.withLock { current = current.adding(milliseconds: milliseconds) } }

    public func set(_ time: Timestamp) { lock.withLock { current = time } }
}

/// New row ids: random v4 UUIDs, lowercase.
public struct RandomIDs: Sendable {
    public init() {}
    public static let make: @Sendable () -> String = { UUID().uuidString.lowercased() }
}
