import Synchronization

/// Large values a one-shot command keeps until the process exits instead of freeing them.
///
/// Freeing what a run read and planned (a 100k-row workbook's cells, the plan's dictionaries and rows)
/// took about a quarter of a `check`'s CPU time, for memory the kernel takes back at exit anyway (the
/// same trade as clang's `-disable-free`). Only the command-line tool turns this on, right before it
/// runs one command; a library user and the test suite (many runs in one process) keep the default,
/// off, where `keep` does nothing. Values are kept only at the end of a run, when they are no longer
/// used, and a run that follows another in the same command (a first sync pulls, then syncs) first
/// lets the earlier run's values go: peak memory is that of the largest run, not of all of them.
public enum ExitArena {
    /// What is kept, and whether keeping is on.
    struct Holding {
        var enabled = false
        var kept: [any Sendable] = []

        mutating func keep(_ value: any Sendable) {
            if enabled { kept.append(value) }
        }

        /// Hands back everything kept so far (for the caller to free), keeping nothing.
        mutating func release() -> [any Sendable] {
            defer { kept = [] }
            return kept
        }
    }

    private static let state = Mutex(Holding())

    /// From now on, `keep` holds values until the process exits.
    public static func enable() {
        state.withLock { $0.enabled = true }
    }

    /// Holds `value` until the process exits (or the next run) when enabled; otherwise it is freed as usual.
    static func keep(_ value: any Sendable) {
        state.withLock { $0.keep(value) }
    }

    /// Frees what earlier runs kept, before a new run reads and plans its own rows.
    static func releaseEarlierRuns() {
        let earlier = state.withLock { $0.release() }
        _ = earlier  // freed here, outside the lock
    }
}
