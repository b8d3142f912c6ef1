import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain-socket HTTP listener on 127.0.0.1 that waits for the OAuth redirect; no server framework.
final class LoopbackListener: Sendable {
    private let descriptor: Int32
    let port: UInt16
    /// Closing holds this, so the descriptor is closed once and never used after.
    private let closed = Mutex(false)
    private let cancelled = Atomic(false)

    /// Binds an ephemeral port on the IPv4 loopback address.
    init() throws(GoogleAPIError) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Self.failure("cannot create a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            let error = Self.failure("cannot listen on 127.0.0.1")
            closeDescriptor(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = Self.failure("cannot read the listening port")
            closeDescriptor(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close() }

    static func failure(_ what: String) -> GoogleAPIError {
        .loginFailed("\(what): \(String(cString: strerror(errno)))")
    }

    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            closeDescriptor(descriptor)
        }
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
    private var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Waits for the next connection; polls in short slices so cancellation and the deadline are seen.
    func accept(until deadline: Date) throws -> Int32 {
        while true {
            if isCancelled { throw CancellationError() }
            guard Date() < deadline else {
                throw GoogleAPIError.loginFailed("no browser redirect arrived on 127.0.0.1:\(port) in time")
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 200)
            if ready < 0, errno != EINTR { throw Self.failure("waiting for the browser failed") }
            guard ready > 0 else { continue }
            let connection = acceptConnection(descriptor)
            if connection >= 0 {
                var limit = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                return connection
            }
            if errno != EINTR, errno != EAGAIN { throw Self.failure("accepting the browser's connection failed") }
        }
    }

    /// Reads a request head (up to 16 KiB) and returns its method and target.
    static func readRequestLine(_ connection: Int32) -> (method: String, target: String)? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            head.append(contentsOf: buffer[0..<count])
            if head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
            if let text = String(validating: head, as: UTF8.self), text.contains("\r\n\r\n") { break }
        }
        guard let lineEnd = head.firstIndex(of: 13) ?? head.firstIndex(of: 10) else { return nil }
        let parts = String(decoding: head[..<lineEnd], as: UTF8.self).split(separator: " ")
        guard parts.count == 3 else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// Sends a small HTML page and closes the connection.
    static func respond(_ connection: Int32, status: String, title: String, message: String) {
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>sheetsync</title></head>
            <body style="font-family: sans-serif"><h1>\(escapeHTML(title))</h1><p>\(escapeHTML(message))</p></body></html>
            """
        let body = Array(html.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, noSignal) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            sent += count
        }
        shutdown(connection, Int32(SHUT_WR))
        closeDescriptor(connection)
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

// A browser that hung up must not kill the process with SIGPIPE.
#if os(Linux)
    let noSignal = Int32(MSG_NOSIGNAL)
#else
    let noSignal: Int32 = 0
#endif

// The class's own close() and accept(until:) shadow the C functions inside its body.
@inline(__always) func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
@inline(__always) func acceptConnection(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
