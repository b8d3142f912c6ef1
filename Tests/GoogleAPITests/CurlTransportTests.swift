import Foundation
import Logging
import Testing

@testable import GoogleAPI

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CurlTransportTests {
    static let gzipBody: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0x48, 0xaf, 0xca,
        0x2c, 0x50, 0x28, 0xcf, 0x2f, 0xca, 0x49, 0xd1, 0x51, 0xc8, 0x20, 0x28, 0xc2, 0x05, 0x00, 0xe6, 0xc6, 0x70, 0x65,
        0x35, 0x00, 0x00, 0x00,
    ]

    func url(_ server: TestHTTPServer, _ path: String) throws -> URL {
        try #require(URL(string: server.baseURL + path))
    }

    @Test func getReturnsStatusHeadersAndBody() async throws {
        let server = try TestHTTPServer { request in
            TestHTTPServer.response(
                status: "404 Not Found", headers: [("X-Seen", request.requestLine), ("Content-Type", "text/plain")],
                body: Array("nothing here".utf8))
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(method: .get, url: try url(server, "/a/b?c=%27d%27")))
        #expect(response.status == 404)
        #expect(response.headers["x-seen"] == "GET /a/b?c=%27d%27 HTTP/1.1")
        #expect(response.headers["CONTENT-TYPE"] == "text/plain")
        #expect(response.bodyText == "nothing here")
    }

    @Test func postSendsBodyAndHeadersWithoutExpectContinue() async throws {
        let seen = LockedBox<TestHTTPServer.Request?>(nil)
        let server = try TestHTTPServer { request in
            seen.mutate { $0 = request }
            return TestHTTPServer.response(status: "201 Created", body: request.body)
        }
        defer { server.stop() }
        let body = Array(repeating: UInt8(ascii: "x"), count: 200_000) + Array("{\"a\":1}".utf8)
        let response = try await CurlTransport().send(
            HTTPRequest(method: .post, url: try url(server, "/upload"), headers: ["Content-Type": "application/json"], body: body))
        #expect(response.status == 201)
        #expect(response.body == body)
        let request = try #require(seen.value)
        #expect(request.requestLine == "POST /upload HTTP/1.1")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Expect") == nil)
        #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test func putWithEmptyBodySendsContentLengthZero() async throws {
        let seen = LockedBox<TestHTTPServer.Request?>(nil)
        let server = try TestHTTPServer { request in
            seen.mutate { $0 = request }
            return TestHTTPServer.response(status: "308 Resume Incomplete", headers: [("Range", "bytes=0-9")], body: [])
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(
            HTTPRequest(method: .put, url: try url(server, "/s"), headers: ["Content-Range": "bytes */20"]))
        #expect(response.status == 308)
        #expect(response.headers["Range"] == "bytes=0-9")
        #expect(seen.value?.requestLine == "PUT /s HTTP/1.1")
        #expect(seen.value?.header("Content-Length") == "0")
        #expect(seen.value?.header("Content-Range") == "bytes */20")
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPServer.response(headers: [("Content-Encoding", "gzip")], body: Self.gzipBody)
        }
        defer { server.stop() }
        let response = try await CurlTransport().send(HTTPRequest(method: .get, url: try url(server, "/z")))
        #expect(response.bodyText == "hello gzip world, hello gzip world, hello gzip world\n")
    }

    @Test func silentServerTimesOut() async throws {
        let server = try TestHTTPServer { _ in nil }
        defer { server.stop() }
        await #expect {
            _ = try await CurlTransport().send(HTTPRequest(method: .get, url: try url(server, "/slow"), timeout: 0.3))
        } throws: { error in
            guard let error = error as? TransportError else { return false }
            return error.kind == .timeout && error.isRetryable && error.description.contains("/slow")
        }
    }

    @Test func closedPortIsConnectionRefused() async throws {
        // A port bound but not listening: refused for sure, and no parallel test can take it meanwhile
        // (as one could take a server's port once it stopped).
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        try #require(named == 0)
        let target = try #require(URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/"))
        await #expect {
            _ = try await CurlTransport().send(HTTPRequest(method: .get, url: target, timeout: 5))
        } throws: { error in
            (error as? TransportError)?.kind == .connectionRefused
        }
    }

    @Test func traceLogRedactsAuthorizationAndTokens() async throws {
        let secret = "ya29.SECRET-in-trace"
        let server = try TestHTTPServer { _ in
            TestHTTPServer.response(
                headers: [("Content-Type", "application/json")], body: Array(#"{"access_token":"\#(secret)","expires_in":3599}"#.utf8))
        }
        defer { server.stop() }
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "test.trace") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .trace
        let request = HTTPRequest(
            method: .post, url: try url(server, "/token"),
            headers: ["Authorization": "Bearer \(secret)", "Content-Type": "application/x-www-form-urlencoded"],
            body: Array("grant_type=refresh_token&refresh_token=\(secret)".utf8))
        _ = try await CurlTransport(logger: logger).send(request)
        let trace = lines.value.joined(separator: "\n")
        #expect(!trace.isEmpty)
        #expect(!trace.contains(secret))
        #expect(trace.contains("Authorization: REDACTED"))
        #expect(trace.contains("refresh_token=REDACTED"))
        #expect(trace.contains(#""access_token":"REDACTED""#))
    }

    @Test func noTraceBelowTraceLevel() async throws {
        let server = try TestHTTPServer { _ in TestHTTPServer.response(body: []) }
        defer { server.stop() }
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "test.quiet") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .debug
        _ = try await CurlTransport(logger: logger).send(HTTPRequest(method: .get, url: try url(server, "/")))
        #expect(lines.value.isEmpty)
    }
}
