/// The steps of an atomic replacement, in order, at which a `FaultInjector` is consulted.
public enum AtomicWriteStep: String, Hashable, Sendable, CaseIterable {
    /// The empty temporary file exists beside the target.
    case tempCreated
    /// The caller's writer has filled the temporary file.
    case tempWritten
    /// The temporary file is flushed to disk.
    case tempSynced
    /// The previous version is copied into `.sheetsync-backup/` (or there was none to copy).
    case backedUp
    /// The temporary file has been renamed over the target.
    case renamed
    /// The folder holding the target is flushed to disk.
    case directorySynced
}

/// A test hook that can stop an atomic replacement at any step, as a crash would.
///
/// An error thrown by the hook propagates without any cleanup, so the disk is left exactly
/// as `kill -9` at that instant would leave it (the temporary file stays behind).
public struct FaultInjector: Sendable {
    private let hook: @Sendable (AtomicWriteStep) throws -> Void

    public init(_ hook: @escaping @Sendable (AtomicWriteStep) throws -> Void) {
        self.hook = hook
    }

    /// A hook that throws `SimulatedCrash` on reaching `step` and lets every other step pass.
    public static func crash(at step: AtomicWriteStep) -> FaultInjector {
        FaultInjector { reached in
            if reached == step { throw SimulatedCrash(step: step) }
        }
    }

    func reach(_ step: AtomicWriteStep) throws {
        try hook(step)
    }
}

/// The error `FaultInjector.crash(at:)` throws.
public struct SimulatedCrash: Error, Hashable, Sendable, CustomStringConvertible {
    public var step: AtomicWriteStep

    public init(step: AtomicWriteStep) {
        self.step = step
    }

    public var description: String { "simulated crash at step '\(step.rawValue)'" }
}
