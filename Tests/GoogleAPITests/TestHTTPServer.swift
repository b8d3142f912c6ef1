import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 with plain sockets, for exercising CurlTransport.
/// Each connection gets one request and one response from `respond`; nil leaves it hanging.
final class TestHTTPServer: @unchecked Sendable {
    struct Request {
        var head: String
        var body: [UInt8]
        var requestLine: String { head.components(separatedBy: "\r\n").first ?? "" }
        func header(_ name: String) -> String? {
            for line in head.components(separatedBy: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    let port: UInt16
    private let listener: Int32
    private let respond: @Sendable (Request) -> [UInt8]?
    private let lock = NSLock()
    private var hanging: [Int32] = []
    private var stopped = false

    init(respond: @escaping @Sendable (Request) -> [UInt8]?) throws {
        self.respond = respond
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Asks the accept loop to end; the loop itself closes the descriptors, so a number it might
    /// still pass to accept() is never reused by another test's socket meanwhile.
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { finished.wait() }
    }

    private let finished = DispatchSemaphore(value: 0)

    private func acceptLoop() {
        while true {
            if lock.withLock({ stopped }) {
                close(listener)
                lock.withLock {
                    for connection in hanging { close(connection) }
                    hanging = []
                }
                finished.signal()
                return
            }
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            guard let request = Self.read(connection) else {
                close(connection)
                continue
            }
            guard let response = respond(request) else {
                lock.withLock { hanging.append(connection) }
                continue
            }
            var sent = 0
            while sent < response.count {
                let count = response[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count <= 0 { break }
                sent += count
            }
            close(connection)
        }
    }

    private static func read(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            bytes.append(contentsOf: buffer[0..<count])
            guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { continue }
            let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
            var request = Request(head: head, body: [])
            let length = Int(request.header("Content-Length") ?? "0") ?? 0
            if bytes.count - end.upperBound >= length {
                request.body = Array(bytes[end.upperBound..<end.upperBound + length])
                return request
            }
        }
    }

    static func response(status: String = "200 OK", headers: [(String, String)] = [], body: [UInt8]) -> [UInt8] {
        var head = "HTTP/1.1 \(status)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}

/// Collects log messages in memory, for checking what the trace shows.
struct CapturingLogHandler: LogHandler {
    let lines: LockedBox<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.mutate { $0.append("\(event.message) \(event.metadata.map { "\($0)" } ?? "")") }
    }
}
