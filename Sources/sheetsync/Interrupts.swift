import Dispatch
import Foundation
import SheetSync
import Synchronization

/// SIGINT and SIGTERM stop a run at its next safe point instead of killing it mid-step.
///
/// The run goes on in a task that a signal cancels; the library checks cancellation only between
/// whole steps (between tabs, before the store commit, between Google requests), and a file
/// replacement or the store commit is synchronous, so it is never cut in half and its temporary
/// file is removed by its own cleanup. A second signal ends the process at once, which the atomic
/// writes make as safe as a crash.
enum Interrupts {
    /// The signal that asked to stop, if one did (0: none).
    private final class Received: Sendable {
        let signal = Atomic<Int32>(0)
    }

    /// What a stop by `signal` exits with and says.
    static func failure(_ signal: Int32) -> SheetSyncError {
        let (code, name): (SheetSync.ExitCode, String) = signal == SIGTERM ? (.terminated, "SIGTERM") : (.interrupted, "SIGINT")
        return SheetSyncError(code, "stopped by \(name) at a safe point; nothing is half-written, the next run carries on")
    }

    /// Runs `body` with SIGINT and SIGTERM turned into cancellation; throws `failure(_:)` when a
    /// signal stopped it.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let received = Received()
        // The handlers are in place before the run starts: a signal at its first step is a stop, never
        // the default action's kill.
        let work = Mutex<Task<T, any Error>?>(nil)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if received.signal.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged {
                    work.withLock { $0?.cancel() }
                } else {
                    // Asked twice: stop now, the way a crash would (the next run cleans up after it).
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        let started = work.withLock { task in
            let started = Task { try await body() }
            task = started
            return started
        }
        // A signal that came before the task existed cancels it now.
        if received.signal.load(ordering: .relaxed) != 0 { started.cancel() }
        do {
            return try await started.value
        } catch is CancellationError {
            let number = received.signal.load(ordering: .relaxed)
            throw number != 0 ? failure(number) : CancellationError()
        }
        // Any other error is the run's own (a full disk, a refused row) and is reported as such, even
        // when a signal came meanwhile: the user learns what actually stopped it.
    }
}
