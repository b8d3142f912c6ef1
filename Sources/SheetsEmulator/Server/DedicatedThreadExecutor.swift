import Foundation

/// Runs the server's tasks on a thread of its own.
///
/// Tests often call the emulator through blocking clients (libcurl) from async test functions; on a
/// 2-core machine a few such calls occupy every thread of Swift's cooperative pool, and a server
/// whose handlers need that pool would never answer. With this executor preferred, the emulator
/// keeps serving however busy the pool is.
// @unchecked: `jobs` and `stopped` are only touched while `condition` is held. A `Mutex` cannot wait
// for a signal, and the thread must sleep while the queue is empty, hence NSCondition.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread finish once the queue is empty.
    func shutdown() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
