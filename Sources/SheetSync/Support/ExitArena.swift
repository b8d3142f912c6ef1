import Synchronization

/// Large values a one-shot command keeps until the process exits instead of freeing them.
///
/// Freeing what a run read and planned (a 100k-row workbook's cells, the plan's dictionaries and rows)
/// took about a quarter of a `check`'s CPU time, for memory the kernel takes back at exit anyway (the
/// same trade as clang's `-disable-free`). Only the command-line tool turns this on, right before it
/// runs one command; a library user and the test suite (many runs in one process) keep the default,
/// off, where `keep` does nothing. Values are kept only at the end of a run, when they are no longer
/// used: peak memory is what it was.
public enum ExitArena {
    private static let state = Mutex<(enabled: Bool, kept: [any Sendable])>((false, []))

    /// From now on, `keep` holds values until the process exits.
    public static func enable() {
        state.withLock { $0.enabled = true }
    }

    /// Holds `value` until the process exits when enabled; otherwise it is freed as usual.
    static func keep(_ value: any Sendable) {
        state.withLock { if $0.enabled { $0.kept.append(value) } }
    }
}
