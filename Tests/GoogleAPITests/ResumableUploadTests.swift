import Foundation
import Interchange
import Synchronization
import Testing

@testable import GoogleAPI

/// A stateful stand-in for Drive's resumable upload protocol.
final class FakeUploadServer: @unchecked Sendable {
    let lock = NSLock()
    var received: [UInt8] = []
    var total = 0
    var sessions = 0
    var metadata: JSONValue = .null
    /// Bytes kept from each chunk (Drive may persist less than was sent).
    var keepPerChunk = Int.max
    /// The chunk PUT (1-based) that is cut off after the server kept its bytes.
    var dropChunk: Int?
    var chunkPuts = 0
    var expired = false

    var sessionURL: String { "https://www.googleapis.com/upload/drive/v3/files?uploadType=resumable&upload_id=S\(sessions)" }

    func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        try lock.withLock {
            if request.method == .post {
                sessions += 1
                received = []
                expired = false
                total = Int(request.headers["X-Upload-Content-Length"] ?? "") ?? -1
                metadata = (try? JSONValue.parse(request.body)) ?? .null
                return HTTPResponse(status: 200, headers: ["Location": sessionURL])
            }
            if expired { return .json(404, ["error": ["code": 404, "message": "Not Found"]]) }
            let range = request.headers["Content-Range"] ?? ""
            if range.hasPrefix("bytes */") { return status() }
            let spec = range.dropFirst("bytes ".count).split(separator: "/")[0].split(separator: "-")
            guard let start = Int(spec[0]), start <= received.count else {
                return .json(400, ["error": ["code": 400, "message": "Invalid Content-Range"]])
            }
            chunkPuts += 1
            let fresh = request.body.dropFirst(received.count - start).prefix(keepPerChunk)
            received.append(contentsOf: fresh)
            if dropChunk == chunkPuts {
                throw TransportError(kind: .connectionReset, target: "PUT upload", detail: "Connection reset by peer")
            }
            return status()
        }
    }

    private func status() -> HTTPResponse {
        if received.count == total {
            return .json(200, ["id": "file-1", "name": metadata["name"] ?? .null, "appProperties": metadata["appProperties"] ?? .null])
        }
        return received.isEmpty ? HTTPResponse(status: 308) : HTTPResponse(status: 308, headers: ["Range": "bytes=0-\(received.count - 1)"])
    }
}

@Suite struct ResumableUploadTests {
    static let kib = 1024
    let content: [UInt8] = (0..<(600 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let metadata = DriveClient.metadata(name: "20260102_Food_abc_1.jpg", parents: ["rcpt"], appProperties: ["receiptId": "abc"])

    func setUp(_ server: FakeUploadServer) -> (DriveClient, ScriptedTransport) {
        let transport = ScriptedTransport(handler: { try server.handle($0) })
        return (DriveClient(client: GoogleClient(transport: transport)), transport)
    }

    @Test func freshUploadInitiatesThenSendsAlignedChunksWithContentRange() async throws {
        let server = FakeUploadServer()
        let (drive, transport) = setUp(server)
        let started = LockedBox<[URL]>([])
        let file = try await drive.uploadResumable(
            metadata: metadata, contentType: "image/jpeg", content: content, chunkSize: 256 * Self.kib,
            sessionStarted: { url in started.mutate { $0.append(url) } })
        #expect(file.id == "file-1" && file.appProperties == ["receiptId": "abc"])
        #expect(server.received == content)
        let initiation = transport.requests[0]
        #expect(initiation.url.path() == "/upload/drive/v3/files")
        #expect(Fixtures.query(initiation).first?.0 == "uploadType" && Fixtures.query(initiation).first?.1 == "resumable")
        #expect(initiation.headers["X-Upload-Content-Type"] == "image/jpeg")
        #expect(initiation.headers["X-Upload-Content-Length"] == "614400")
        #expect(server.metadata["appProperties"]?["receiptId"] == "abc")
        #expect(server.metadata["parents"] == ["rcpt"])
        #expect(
            transport.requests.dropFirst().map { $0.headers["Content-Range"] ?? "" } == [
                "bytes 0-262143/614400", "bytes 262144-524287/614400", "bytes 524288-614399/614400",
            ])
        #expect(transport.requests.dropFirst().allSatisfy { $0.method == .put && $0.url.absoluteString == server.sessionURL })
        #expect(started.value.map(\.absoluteString) == [server.sessionURL])
    }

    @Test func chunkSizeIsRoundedUpToA256KiBMultiple() async throws {
        let server = FakeUploadServer()
        let (drive, transport) = setUp(server)
        _ = try await drive.uploadResumable(metadata: metadata, contentType: "image/jpeg", content: content, chunkSize: 300 * Self.kib)
        #expect(transport.requests[1].headers["Content-Range"] == "bytes 0-524287/614400")
    }

    @Test func partiallyKeptChunksAreFollowedFromTheConfirmedRange() async throws {
        let server = FakeUploadServer()
        server.keepPerChunk = 100 * Self.kib
        let (drive, transport) = setUp(server)
        _ = try await drive.uploadResumable(metadata: metadata, contentType: "image/jpeg", content: content, chunkSize: 256 * Self.kib)
        #expect(server.received == content)
        #expect(transport.requests[2].headers["Content-Range"] == "bytes 102400-364543/614400")
    }

    @Test func interruptedUploadResumesFromTheSessionOnTheNextRun() async throws {
        let server = FakeUploadServer()
        server.dropChunk = 2
        let (drive, transport) = setUp(server)
        let started = LockedBox<URL?>(nil)
        await #expect(throws: TransportError.self) {
            _ = try await drive.uploadResumable(
                metadata: metadata, contentType: "image/jpeg", content: content, chunkSize: 256 * Self.kib,
                sessionStarted: { url in started.mutate { $0 = url } })
        }
        let session = try #require(started.value)
        let before = transport.requests.count
        server.dropChunk = nil
        let file = try await drive.uploadResumable(
            metadata: metadata, contentType: "image/jpeg", content: content, existingSession: session, chunkSize: 256 * Self.kib)
        #expect(file.id == "file-1")
        #expect(server.received == content)
        #expect(server.sessions == 1)
        let resumed = transport.requests[before...].map { $0.headers["Content-Range"] ?? "" }
        #expect(resumed == ["bytes */614400", "bytes 524288-614399/614400"])
    }

    @Test func expiredSessionStartsANewUpload() async throws {
        let server = FakeUploadServer()
        let (drive, _) = setUp(server)
        _ = try server.handle(
            HTTPRequest(method: .post, url: try #require(URL(string: "https://x/upload")), headers: ["X-Upload-Content-Length": "5"]))
        server.expired = true
        let stale = try #require(URL(string: server.sessionURL))
        let file = try await drive.uploadResumable(metadata: metadata, contentType: "image/jpeg", content: content, existingSession: stale)
        #expect(file.id == "file-1")
        #expect(server.sessions == 2)
    }

    @Test func completedSessionReturnsTheFileWithoutSendingBytes() async throws {
        let server = FakeUploadServer()
        let (drive, transport) = setUp(server)
        let first = try await drive.uploadResumable(metadata: metadata, contentType: "image/jpeg", content: content)
        let count = transport.requests.count
        let session = try #require(URL(string: server.sessionURL))
        let again = try await drive.uploadResumable(
            metadata: metadata, contentType: "image/jpeg", content: content, existingSession: session)
        #expect(again.id == first.id)
        #expect(transport.requests.count == count + 1)
    }

    @Test func emptyFileCompletesWithAStatusPut() async throws {
        let server = FakeUploadServer()
        let (drive, transport) = setUp(server)
        let file = try await drive.uploadResumable(metadata: metadata, contentType: "image/jpeg", content: [])
        #expect(file.id == "file-1")
        #expect(transport.requests.last?.headers["Content-Range"] == "bytes */0")
    }

    @Test func rangeHeaderParsing() {
        #expect(DriveClient.receivedBytes(rangeHeader: "bytes=0-262143") == 262_144)
        #expect(DriveClient.receivedBytes(rangeHeader: nil) == 0)
        #expect(DriveClient.receivedBytes(rangeHeader: "garbage") == 0)
    }
}

/// A value shared with `@Sendable` closures in tests.
final class LockedBox<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>
    init(_ value: Value) { stored = Mutex(value) }
    var value: Value { stored.withLock { $0 } }
    func mutate(_ change: (inout Value) -> Void) { stored.withLock { change(&$0) } }
}
