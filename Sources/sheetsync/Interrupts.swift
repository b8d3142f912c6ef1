import Dispatch
import Foundation
import SheetSync
import Synchronization

/// SIGINT and SIGTERM stop a run at its next safe point instead of killing it mid-step, and within
/// seconds whatever the run is doing.
///
/// The run goes on in a task that a signal cancels; the library checks cancellation only between
/// whole steps (between tabs, before the store commit, between Google requests), and a file
/// replacement or the store commit is synchronous, so it is never cut in half and its temporary
/// file is removed by its own cleanup. A run that reaches no safe point within `grace` (a Google
/// request that waits for its answer, a big read) is ended there, as is one given a second signal:
/// the atomic writes make that as safe as a crash (every file old or new; the next run sweeps
/// temporary files and carries on), and it exits 130/143 all the same.
enum Interrupts {
    /// How long the first signal waits for a safe point before the run is ended where it is.
    static let grace: Double = 3
    /// The signal that asked to stop, if one did (0: none).
    private final class Received: Sendable {
        let signal = Atomic<Int32>(0)
    }

    /// What a stop by `signal` exits with and says.
    static func failure(_ signal: Int32, atSafePoint: Bool = true) -> SheetSyncError {
        let (code, name): (SheetSync.ProcessExitCode, String) = signal == SIGTERM ? (.terminated, "SIGTERM") : (.interrupted, "SIGINT")
        let how =
            atSafePoint
            ? "at a safe point; nothing is half-written"
            : "where it was (no safe point within \(Int(grace)) s), as safe as a crash: every file is whole, old or new"
        return SheetSyncError(code, "stopped by \(name) \(how), the next run carries on").coded(.interrupted)
    }

    /// Runs `body` with SIGINT and SIGTERM turned into cancellation; throws `failure(_:)` when a
    /// signal stopped it.
    ///
    /// `json`: a run ended without a safe point prints its `{"error": …}` object too.
    static func run<T: Sendable>(json: Bool, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
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
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace) { endNow(number, json: json) }
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

    /// Ends a run that reached no safe point in time: the one line (and JSON object) a stop prints, then
    /// the exit status of the signal.
    private static func endNow(_ signal: Int32, json: Bool) -> Never {
        let failure = failure(signal, atSafePoint: false)
        Output.error(failure.message)
        if json { Output.json(JSONFailure(error: JSONError(failure), version: SheetSyncVersion.current)) }
        _exit(128 + signal)
    }
}
