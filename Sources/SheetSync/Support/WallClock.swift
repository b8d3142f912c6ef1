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

    /// The variable that fixes the command line's clock: a test aid (docs/testing.md), so a test of a
    /// command whose answer depends on today (`materialize`, `report`, `add` without `--date`) does
    /// not depend on the day it runs.
    public static let fixedNowVariable = "SHEETSYNC_NOW"

    /// The clock a run of `sheetsync` uses: the system's, or the instant `SHEETSYNC_NOW` names
    /// (`2026-11-28T12:00:00Z`).
    public static func forRun(environment: [String: String]) throws(SheetSyncError) -> any WallClock {
        guard let text = environment[fixedNowVariable] else { return SystemClock() }
        guard let instant = Timestamp(iso: text) else {
            throw SheetSyncError(
                .configuration,
                "\(fixedNowVariable)='\(text)' is not a UTC time like 2026-11-28T12:00:00Z; unset it to use the system clock")
        }
        return ManualClock(instant)
    }
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
