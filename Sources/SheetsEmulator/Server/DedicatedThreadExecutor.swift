import Dispatch
import Foundation
import Synchronization

/// Runs the server's tasks on a thread of its own.
///
/// Tests often call the emulator through blocking clients (libcurl) from async test functions; on a
/// 2-core machine a few such calls occupy every thread of Swift's cooperative pool, and a server
/// whose handlers need that pool would never answer. With this executor preferred, the emulator
/// keeps serving however busy the pool is.
final class DedicatedThreadExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopped = false
    }

    private let state = Mutex(State())
    /// One signal per job queued and one for `shutdown`: the thread sleeps on it while there is
    /// nothing to do, which a `Mutex` alone cannot do. (Created at zero, so libdispatch never sees it
    /// freed below its starting value.)
    private let wakeUps = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        state.withLock { $0.jobs.append(unowned) }
        wakeUps.signal()
    }

    /// Lets the thread finish once the queue is empty.
    func shutdown() {
        state.withLock { $0.stopped = true }
        wakeUps.signal()
    }

    private func run() {
        while true {
            wakeUps.wait()
            let (job, stopped) = state.withLock { state in
                (state.jobs.isEmpty ? nil : state.jobs.removeFirst(), state.stopped)
            }
            if let job {
                job.runSynchronously(on: asUnownedTaskExecutor())
            } else if stopped {
                return
            }
        }
    }
}
