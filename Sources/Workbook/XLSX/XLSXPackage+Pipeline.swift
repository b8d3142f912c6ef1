import Dispatch
import Foundation

extension XLSXPackage {
    /// Streams `part` like `stream(_:to:)`, inflating on a second thread while `consumer` (the
    /// parser) works on the chunks already inflated: inflating and checksumming are a sixth of a
    /// read, and run beside the parse instead of before it.
    ///
    /// The archive is used by the inflating thread only, and this call returns only after that
    /// thread has finished, so the package is never used from two threads at once.
    func streamInBackground(_ part: String, to consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        let channel = ChunkChannel(capacity: 4)
        let package = UncheckedSendable(value: self)
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try package.value.streamChunks(part) { try channel.put($0) }
                channel.finish(with: nil)
            } catch {
                channel.finish(with: error)
            }
        }
        defer {
            // The inflating thread touches the package last just before `finish`: once that has
            // happened the package is ours again. (It runs on a GCD thread, never on the caller's
            // pool, so waiting for it here cannot starve it.)
            channel.cancel()
            channel.waitUntilFinished()
        }
        while let chunk = try channel.take() {
            try chunk.withUnsafeBytes { try consumer($0) }
        }
    }
}

/// Carries a value to the inflating thread; `streamInBackground` keeps its uses apart in time.
/// `@unchecked` because the package wraps ZIPFoundation's `Archive` (a class around a C `FILE*`,
/// not `Sendable`): the compiler cannot see that the caller waits for the thread before touching it.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}

/// A bounded queue of inflated chunks between the inflating and the parsing thread.
/// `@unchecked` because its state is guarded by an `NSCondition` (threads must wait for room or for
/// a chunk, which `Mutex` cannot do); every member reads or writes that state only inside the lock.
private final class ChunkChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var chunks: [Data] = []
    private var done = false
    private var failure: (any Error)?
    private var cancelled = false

    init(capacity: Int) { self.capacity = capacity }

    /// Waits for room; throws once the reader has stopped listening.
    func put(_ chunk: Data) throws {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw CancellationError() }
        chunks.append(chunk)
        condition.broadcast()
    }

    func finish(with error: (any Error)?) {
        condition.lock()
        done = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk, or nil at the end; the inflating side's error once its chunks are used up.
    func take() throws -> Data? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !done { condition.wait() }
        if !chunks.isEmpty {
            condition.broadcast()
            return chunks.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Waits until the inflating side has called `finish(with:)`.
    func waitUntilFinished() {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
