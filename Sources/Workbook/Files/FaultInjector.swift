/// The steps of an atomic replacement, in order, at which a `FaultInjector` is consulted.
public enum AtomicWriteStep: String, Hashable, Sendable, CaseIterable {
    /// The empty temporary file exists beside the target.
    case tempCreated
    /// The caller's writer has filled the temporary file.
    case tempWritten
    /// The temporary file is flushed to disk.
    case tempSynced
    /// The target was found as it was read; the next step puts the new version in its place.
    /// (A save landing here must not be lost: the exchange hands it back.)
    case checked
    /// The new version is live (exchanged with, or renamed over, the target).
    case renamed
    /// The previous version is in `.sheetsync-backup/` (or there was none to keep).
    case backedUp
    /// The folder holding the target is flushed to disk.
    case directorySynced
}

/// A test hook that can stop an atomic replacement at any step, as a crash would.
///
/// An error thrown by the hook propagates without any cleanup, so the disk is left exactly
/// as `kill -9` at that instant would leave it (the temporary file stays behind).
public struct FaultInjector: Sendable {
    private let hook: @Sendable (AtomicWriteStep) throws -> Void
    /// Behave as on a file system without `RENAME_EXCHANGE` (some network and FUSE file systems),
    /// so that the fallback path runs on any disk.
    public var refusesExchange: Bool

    public init(refusesExchange: Bool = false, _ hook: @escaping @Sendable (AtomicWriteStep) throws -> Void) {
        self.hook = hook
        self.refusesExchange = refusesExchange
    }

    /// A hook that throws `SimulatedCrash` on reaching `step` and lets every other step pass.
    public static func crash(at step: AtomicWriteStep) -> FaultInjector {
        FaultInjector { reached in
            if reached == step { throw SimulatedCrash(step: step) }
        }
    }

    /// A hook that fails the system call of `step` with `code` (ENOSPC for a full disk, EACCES…),
    /// as the kernel would: the error names the file being replaced and, unlike a crash, the
    /// replacement's own cleanup runs.
    public static func fail(at step: AtomicWriteStep, errno code: Int32) -> FaultInjector {
        FaultInjector { reached in
            if reached == step { throw InjectedFailure(step: step, code: code) }
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

/// The error `FaultInjector.fail(at:errno:)` throws; `AtomicFile` turns it into the
/// `AtomicFileError` the failed system call would have given, naming the file.
struct InjectedFailure: Error {
    var step: AtomicWriteStep
    var code: Int32

    /// What the system call of `step` was doing, in the words of `AtomicFileError`'s messages.
    var operation: String {
        switch step {
        case .tempCreated: return "create a temporary file for"
        case .tempWritten: return "write the new version of"
        case .tempSynced: return "flush to disk the new version of"
        case .checked, .renamed: return "replace"
        case .backedUp: return "back up the previous version of"
        case .directorySynced: return "flush to disk the folder of"
        }
    }
}
