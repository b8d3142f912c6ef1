import Foundation
import Interchange

/// Media uploads: `uploadType=media`, `multipart` and `resumable` (sessions, chunks, status queries).
enum DriveUploads {
    /// Google keeps only whole 256 KiB units of a chunk that does not finish the upload.
    static let chunkGranularity = 256 * 1024

    static func start(_ request: EmulatorRequest, updating fileId: String?, world: inout EmulatorWorld) throws(GoogleAPIError)
        -> EmulatorResponse
    {
        switch request.query("uploadType") {
        case "multipart":
            let body = try MultipartBody.parse(request)
            return try finish(
                metadata: body.metadata, content: body.media, contentType: body.mediaType, fileId: fileId,
                query: request.query, world: &world)
        case "media":
            return try finish(
                metadata: .object([:]), content: request.body, contentType: request.header("content-type"),
                fileId: fileId, query: request.query, world: &world)
        case "resumable":
            let metadata = try request.jsonBody() ?? .object([:])
            let session = UploadSession(
                id: "emu-" + EmulatorWorld.makeId(length: 32), metadata: JSONValue.Box(metadata), targetFileId: fileId,
                contentType: request.header("x-upload-content-type") ?? metadata["mimeType"]?.stringValue ?? "application/octet-stream",
                totalSize: request.header("x-upload-content-length").flatMap(Int.init), query: request.query)
            world.persistent.uploadSessions[session.id] = session
            let path = fileId.map { "/upload/drive/v3/files/\($0)" } ?? "/upload/drive/v3/files"
            let location = world.baseURL + path + "?uploadType=resumable&upload_id=" + session.id
            return EmulatorResponse(status: 200, headers: [("Location", location), ("X-GUploader-UploadID", session.id)])
        default:
            throw .invalidArgument("Invalid uploadType '\(request.query("uploadType") ?? "")'.")
        }
    }

    /// A `PUT` to a session URI: a chunk, or (`Content-Range: bytes */N`) a status query.
    static func continueSession(_ id: String, request: EmulatorRequest, world: inout EmulatorWorld) throws(GoogleAPIError)
        -> EmulatorResponse
    {
        guard var session = world.persistent.uploadSessions[id] else {
            throw .notFound("Upload session '\(id)' was not found; it may have expired. Start a new resumable upload.")
        }
        guard request.method == "PUT" || request.method == "POST" else {
            throw .invalidArgument("Upload sessions take PUT requests, not \(request.method).")
        }
        if let completed = session.completedFileId {
            return try DriveFiles.answer(try world.file(completed).json(), request: completedRequest(session))
        }
        let range = try ContentRange.parse(request.header("content-range"), bodyCount: request.body.count)
        if let total = range.total {
            if let known = session.totalSize, known != total {
                throw .invalidArgument("Content-Range total \(total) disagrees with the upload's declared size \(known).")
            }
            session.totalSize = total
        }
        if let first = range.first {
            let received = session.received.count
            guard first <= received else {
                throw .invalidArgument(
                    "Invalid request. According to the Content-Range header, the upload offset is \(first) "
                        + "byte(s), which exceeds already uploaded size of \(received) byte(s).")
            }
            let skip = received - first
            if skip < request.body.count { session.received.append(request.body.dropFirst(skip)) }
        }
        if let total = session.totalSize, session.received.count >= total {
            session.received = session.received.prefix(total)
            let response = try complete(
                metadata: session.metadata.value, content: session.received, contentType: session.contentType,
                fileId: session.targetFileId, query: session.query, world: &world)
            session.completedFileId = response.fileId
            world.persistent.uploadSessions[id] = session
            return response.response
        }
        if range.first != nil {
            let kept = session.received.count / chunkGranularity * chunkGranularity
            session.received = session.received.prefix(kept)
        }
        world.persistent.uploadSessions[id] = session
        var headers: [(String, String)] = []
        if !session.received.isEmpty { headers.append(("Range", "bytes=0-\(session.received.count - 1)")) }
        return EmulatorResponse(status: 308, headers: headers)
    }

    private static func completedRequest(_ session: UploadSession) -> EmulatorRequest {
        var request = EmulatorRequest(method: "PUT", rawPath: "/upload/drive/v3/files", rawQuery: nil, headers: [:], body: Data())
        request.query = session.query
        return request
    }

    private static func complete(
        metadata: JSONValue, content: Data, contentType: String?, fileId: String?, query: [EmulatorQueryItem], world: inout EmulatorWorld
    ) throws(GoogleAPIError) -> (response: EmulatorResponse, fileId: String) {
        var request = EmulatorRequest(method: "POST", rawPath: "/upload/drive/v3/files", rawQuery: nil, headers: [:], body: Data())
        request.query = query
        let file: EmulatedDriveFile
        if let fileId {
            file = try world.updateFile(fileId, metadata: metadata, request: request, content: content)
        } else {
            file = try world.createFile(metadata: metadata, content: content, contentType: contentType)
        }
        return (try DriveFiles.answer(file.json(), request: request), file.id)
    }

    private static func finish(
        metadata: JSONValue, content: Data, contentType: String?, fileId: String?, query: [EmulatorQueryItem], world: inout EmulatorWorld
    ) throws(GoogleAPIError) -> EmulatorResponse {
        let result = try complete(
            metadata: metadata, content: content, contentType: contentType, fileId: fileId, query: query, world: &world)
        return result.response
    }
}

/// A `Content-Range` request header: `bytes 0-99/1000`, `bytes 0-99/*` or `bytes */1000`.
struct ContentRange: Sendable, Equatable {
    var first: Int?
    var total: Int?

    static func parse(_ header: String?, bodyCount: Int) throws(GoogleAPIError) -> ContentRange {
        guard let header else {
            // A single PUT without the header carries the whole content.
            return ContentRange(first: 0, total: bodyCount)
        }
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes ") else { throw invalid(header) }
        let spec = text.dropFirst(6).split(separator: "/", omittingEmptySubsequences: false)
        guard spec.count == 2 else { throw invalid(header) }
        let total: Int? = spec[1] == "*" ? nil : Int(spec[1])
        if spec[1] != "*", total == nil { throw invalid(header) }
        if spec[0] == "*" {
            guard bodyCount == 0 else { throw invalid(header) }
            return ContentRange(first: nil, total: total)
        }
        let bounds = spec[0].split(separator: "-")
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), last >= first, last - first + 1 == bodyCount
        else { throw invalid(header) }
        return ContentRange(first: first, total: total)
    }

    private static func invalid(_ header: String) -> GoogleAPIError {
        .invalidArgument("Invalid Content-Range header '\(header)' for this request's body.")
    }
}
