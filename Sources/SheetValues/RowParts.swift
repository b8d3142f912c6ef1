import Dispatch
import Foundation
import Synchronization

/// A big tab's rows cut into contiguous parts, one per core, worked on side by side: the per-row
/// passes every read makes (`PlainRows`, the change scope's keys and hashes) cost half the wall
/// clock on two cores. A tab smaller than two parts' worth of rows is one part: starting a thread
/// costs more than it saves there.
///
/// The work for a part must read only shared, unchanging values (a table's bytes, a set of names)
/// and build its own result; the caller joins the results in row order.
package enum RowParts {
    /// The fewest rows worth a part of their own.
    @TaskLocal package static var rowsPerPart = 16_384

    /// The cores to work on: the machine's, unless a test sets it.
    @TaskLocal package static var cores = ProcessInfo.processInfo.activeProcessorCount

    /// `0..<count` cut into contiguous parts, in order.
    package static func ranges(_ count: Int) -> [Range<Int>] {
        let parts = max(1, min(cores, count / max(rowsPerPart, 1)))
        return (0..<parts).map { k in (count * k / parts)..<(count * (k + 1) / parts) }
    }

    /// `body` of each part of `0..<count`, run side by side; the results in row order.
    package static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let parts = ranges(count)
        return run(parts.count) { body(parts[$0]) }
    }

    /// The fewest bytes worth a part of their own in a file read side by side.
    @TaskLocal package static var bytesPerPart = 1 << 20

    /// `start..<end` of a file cut into contiguous parts, one per core, each cut moved to where
    /// `boundary` (given an offset) says the next record starts; nil from `boundary`: no cut there.
    package static func byteRanges(from start: Int, to end: Int, boundary: (Int) -> Int?) -> [Range<Int>] {
        let parts = max(1, min(cores, (end - start) / max(bytesPerPart, 1)))
        var cuts = [start]
        for k in 1..<max(parts, 1) {
            guard let cut = boundary(start + (end - start) * k / parts), let last = cuts.last, cut > last, cut < end else { continue }
            cuts.append(cut)
        }
        cuts.append(end)
        return (1..<cuts.count).map { cuts[$0 - 1]..<cuts[$0] }
    }

    /// `body(k)` for each `k` of `0..<count`, side by side; the results in order of `k`.
    package static func run<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(body) }
        let results = Mutex<[T?]>(Array(repeating: nil, count: count))
        // Each part fills its own slot; `concurrentPerform` returns when every part is done.
        DispatchQueue.concurrentPerform(iterations: count) { k in
            let result = body(k)
            results.withLock { $0[k] = result }
        }
        return results.withLock { $0.compactMap { $0 } }
    }
}
