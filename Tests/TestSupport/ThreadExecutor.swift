import Foundation

/// A task executor on a thread of its own, for long CPU-bound test work (the randomized model checks):
/// run under `withTaskExecutorPreference`, that work stays off the cooperative thread pool, which keeps
/// its threads for the rest of the suite (tests waiting on a loopback answer are not starved), and the
/// operating system shares the cores between both.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs`; signalled when one arrives.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// Starts the thread; it runs jobs as they come for as long as the process lives.
    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Two threads for model checks (a case keeps one core busy; the rest of the suite has the others).
    public static let modelThreads = [ThreadExecutor(name: "model-1"), ThreadExecutor(name: "model-2")]
}
