import Foundation
import Interchange
import SheetsEmulator

#if canImport(Glibc)
    import Glibc
#endif

/// What came back over the socket, read to EOF.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: Data
    /// The body was shorter than `Content-Length` said.
    var truncated: Bool

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> JSONValue { try JSONValue.parse(Array(body)) }
}

enum RawHTTPError: Error, Equatable {
    case cannotConnect
    /// The server closed or reset the connection before a status line arrived.
    case noResponse(reset: Bool)
}

/// A tiny blocking HTTP/1.1 client over a loopback socket, so tests see exactly what the server
/// sent, including dropped, reset and truncated answers.
struct RawHTTPClient {
    var port: Int

    /// Runs the blocking exchange on its own thread: blocking a cooperative-pool thread could starve the
    /// server, whose handlers run on that same pool.
    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: Data = Data()) async throws -> RawResponse {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RawResponse, any Error>, Never>) in
            let thread = Thread {
                continuation.resume(returning: Result { try exchange(method, target, headers: headers, body: body) })
            }
            thread.start()
        }
        return try result.get()
    }

    /// The exchange itself, blocking the calling thread.
    func exchange(_ method: String, _ target: String, headers: [(String, String)], body: Data) throws -> RawResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError.cannotConnect }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawHTTPError.cannotConnect }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let request = Data(head.utf8) + body
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = Data()
        var reset = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else {
                reset = count < 0 && errno == ECONNRESET
                break
            }
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else { throw RawHTTPError.noResponse(reset: reset) }
        let lines = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let payload = Data(received[split.upperBound...])
        let expected = fields["content-length"].flatMap(Int.init) ?? payload.count
        return RawResponse(status: status, headers: fields, body: payload, truncated: payload.count < expected)
    }
}

/// A running emulator with a token, and shortcuts for the calls tests make.
struct EmulatorHarness {
    let emulator: SheetsEmulator
    let client: RawHTTPClient
    let token: String

    static func start() async throws -> EmulatorHarness {
        let emulator = try SheetsEmulator()
        let port = try await emulator.start(port: 0)
        return EmulatorHarness(emulator: emulator, client: RawHTTPClient(port: port), token: emulator.issueAccessToken())
    }

    func stop() async { await emulator.stop() }

    var auth: [(String, String)] { [("Authorization", "Bearer \(token)")] }

    /// `path` is sent as written; query pairs are percent-encoded here.
    func get(_ path: String, _ query: [(String, String)] = []) async throws -> RawResponse {
        try await client.send("GET", path + Self.encode(query), headers: auth)
    }

    func post(_ path: String, _ query: [(String, String)] = [], json: String) async throws -> RawResponse {
        try await client.send(
            "POST", path + Self.encode(query), headers: auth + [("Content-Type", "application/json")], body: Data(json.utf8))
    }

    static func encode(_ query: [(String, String)]) -> String {
        guard !query.isEmpty else { return "" }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "?"
            + query.map { name, value in
                "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
            }.joined(separator: "&")
    }

    /// A spreadsheet whose tabs a person typed.
    func makeSpreadsheet(_ tabs: [String: [[String]]]) throws -> String {
        try emulator.createSpreadsheet(
            title: "Expenses", tabs: tabs.sorted { $0.key < $1.key }.map { EmulatedTab(name: $0.key, typed: $0.value) })
    }
}
