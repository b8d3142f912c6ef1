import CCurl
import Foundation
import Synchronization

/// A libcurl easy handle. `@unchecked Sendable` because it is a C pointer: libcurl lets a handle move
/// between threads as long as one thread uses it at a time, which `CurlHandlePool` guarantees (a handle
/// is either idle in the pool or owned by exactly one transfer).
struct CurlEasyHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
}

/// Easy handles kept between requests. A reused handle keeps its connection cache, DNS cache and TLS
/// session, so a run talks to Google over one connection with one TLS handshake instead of one per
/// request. Transfers that overlap take a handle each.
final class CurlHandlePool: Sendable {
    private let idle = Mutex<[CurlEasyHandle]>([])
    /// Idle handles kept; more overlapping transfers than this open connections of their own.
    private let capacity = 4

    /// An idle handle, or a new one; nil when libcurl cannot make one.
    func take() -> CurlEasyHandle? {
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        return sheetsync_curl_easy_init().map(CurlEasyHandle.init(raw:))
    }

    /// Puts a handle back with its options cleared (its connections stay open), or cleans it up when the
    /// pool is full.
    func giveBack(_ handle: CurlEasyHandle) {
        sheetsync_curl_easy_reset(handle.raw)
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < capacity else { return false }
            idle.append(handle)
            return true
        }
        if !kept { sheetsync_curl_easy_cleanup(handle.raw) }
    }

    deinit {
        for handle in idle.withLock({ $0 }) { sheetsync_curl_easy_cleanup(handle.raw) }
    }
}
