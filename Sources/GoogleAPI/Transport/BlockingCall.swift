import Foundation

/// Runs blocking work (libcurl's perform, a socket accept) on a thread of its own.
///
/// Not on the cooperative pool, which must never block, and not on Dispatch's global queues,
/// whose width on Linux is the core count: two waiting listeners would starve every transfer.
func runOnOwnThread<T: Sendable>(name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = name
        thread.start()
    }
}
