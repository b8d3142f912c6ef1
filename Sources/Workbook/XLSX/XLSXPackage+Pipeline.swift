import Dispatch
import Foundation
import Synchronization

extension XLSXPackage {
    /// Streams `part` like `stream(_:to:)`, inflating on a second thread while `consumer` (the
    /// parser) works on the chunks already inflated: inflating and checksumming are a sixth of a
    /// read, and run beside the parse instead of before it. At most four chunks wait between the
    /// two, so memory stays bounded however large the part.
    ///
    /// This call returns only after the inflating thread has finished, so nothing of the read
    /// outlives it (its file is closed before the caller replaces the workbook, say).
    func streamInBackground(_ part: String, to consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        let source = try PartSource(part, of: self)
        let channel = ChunkChannel(capacity: 4)
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try source.inflate { try channel.put($0) }
                channel.finish(with: nil)
            } catch {
                channel.finish(with: error)
            }
        }
        defer {
            // Stops the inflating thread at its next chunk when the parser gave up early. It runs on
            // a GCD thread, never on the caller's pool, so waiting for it here cannot starve it.
            channel.cancel()
            channel.waitUntilFinished()
        }
        while let chunk = try channel.take() {
            try chunk.withUnsafeBytes { try consumer($0) }
        }
    }
}

/// A part and the package's open file, read by the inflating thread (`ZipReader` reads with `pread`,
/// so no file position is shared with anyone).
private struct PartSource: Sendable {
    let entry: ZipReader.Entry
    let zip: ZipReader
    let fileName: String
    let part: String
    let limits: XLSXLimits

    init(_ part: String, of package: XLSXPackage) throws {
        entry = try package.checkedEntry(part)
        (zip, fileName, self.part, limits) = (package.zip, package.fileName, part, package.limits)
    }

    func inflate(to consumer: (Data) throws -> Void) throws {
        try XLSXPackage.inflate(entry, of: zip, part: part, limits: limits, fileName: fileName, to: consumer)
    }
}

/// A bounded queue of inflated chunks between the inflating and the parsing thread.
///
/// The queue sits in a `Mutex`; a thread that must sleep until there is room or a chunk waits on a
/// counting semaphore, which a `Mutex` cannot do. Both sides are plain threads (the parser is
/// synchronous, the inflater a GCD thread), never async code.
private final class ChunkChannel: Sendable {
    private struct State {
        var chunks: [Data] = []
        var failure: (any Error)?
        var cancelled = false
    }

    private let state = Mutex(State())
    /// Free places in the queue: the inflater takes one before it adds a chunk.
    private let room = DispatchSemaphore(value: 0)
    /// One per chunk added, and one for the end: the parser takes one before each `take`.
    private let ready = DispatchSemaphore(value: 0)
    /// Signalled once, when the inflater has finished.
    private let finished = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        // Created at zero and raised by signals: libdispatch traps when a semaphore is freed below the
        // value it was created with, which a hand-off cut short by `cancel` leaves behind.
        for _ in 0..<capacity { room.signal() }
    }

    /// Waits for room; throws once the parser has stopped listening.
    func put(_ chunk: Data) throws {
        room.wait()
        try state.withLock { state in
            if state.cancelled { throw CancellationError() }
            state.chunks.append(chunk)
        }
        ready.signal()
    }

    func finish(with error: (any Error)?) {
        state.withLock { $0.failure = error }
        ready.signal()
        finished.signal()
    }

    /// The next chunk, or nil at the end; the inflating side's error once its chunks are used up.
    func take() throws -> Data? {
        ready.wait()
        let chunk = try state.withLock { state throws -> Data? in
            if !state.chunks.isEmpty { return state.chunks.removeFirst() }
            if let failure = state.failure { throw failure }
            return nil
        }
        if chunk != nil { room.signal() }
        return chunk
    }

    /// Waits until the inflating side has called `finish(with:)`.
    func waitUntilFinished() {
        finished.wait()
    }

    /// Wakes the inflater if it waits for room, so that it sees the cancellation and stops.
    func cancel() {
        state.withLock { $0.cancelled = true }
        room.signal()
    }
}
