import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A browser's visit to a listener on 127.0.0.1, for the login tests: one GET on a plain socket, with
/// no deadline. It returns when the listener has answered and closed the connection (an event), however
/// long a loaded machine takes to get there; it runs on a thread of its own, never on the task pool.
public enum LoopbackBrowser {
    public struct Answer: Sendable {
        public var status: Int
        public var body: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Sends `GET url` and reads the answer to its end.
    public static func get(_ url: URL) async throws -> Answer {
        guard url.scheme == "http", url.host == "127.0.0.1", let port = url.port else {
            throw Failure(description: "not a loopback URL: \(url)")
        }
        let target = url.path(percentEncoded: true).isEmpty ? "/" : url.path(percentEncoded: true)
        let request =
            "GET \(target)\(url.query(percentEncoded: true).map { "?" + $0 } ?? "") HTTP/1.1\r\n"
            + "Host: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        let bytes = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
            Thread { continuation.resume(with: Result { try exchange(Array(request.utf8), port: UInt16(port)) }) }.start()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        let statusLine = parts.first?.split(separator: "\r\n").first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "no HTTP answer from \(url): '\(text)'")
        }
        return Answer(status: status, body: parts.count > 1 ? String(parts[1]) : "")
    }

    /// Connects, writes `request` and reads until the listener closes; blocking.
    private static func exchange(_ request: [UInt8], port: UInt16) throws -> [UInt8] {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw failure("socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw failure("connect to 127.0.0.1:\(port)") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure("send") }
            sent += count
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure("recv") }
            if count == 0 { return answer }
            answer.append(contentsOf: buffer[0..<count])
        }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what) failed: \(String(cString: strerror(errno)))")
    }
}
