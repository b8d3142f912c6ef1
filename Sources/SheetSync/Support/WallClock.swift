import Foundation
import SheetSyncCore
import Synchronization

/// The time, passed in so runs and tests agree on "now".
public protocol WallClock: Sendable {
    func now() -> Timestamp
}

public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Timestamp { Timestamp(Date()) }
}

/// A clock that says what it is told, for tests.
public final class ManualClock: WallClock, Sendable {
    private let current: Mutex<Timestamp>

    public init(_ start: Timestamp) { current = Mutex(start) }

    public func now() -> Timestamp { current.withLock { $0 } }

    public func advance(milliseconds: Int64) { current.withLock { $0 = $0.adding(milliseconds: milliseconds) } }

    public func set(_ time: Timestamp) { current.withLock { $0 = time } }
}

/// New row ids: random v4 UUIDs, lowercase.
public struct RandomIDs: Sendable {
    public init() {}
    public static let make: @Sendable () -> String = { UUID().uuidString.lowercased() }
}
