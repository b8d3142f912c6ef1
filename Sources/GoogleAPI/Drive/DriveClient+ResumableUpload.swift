import Foundation
import Interchange
import Logging

/// Where a resumable upload session stands.
public enum ResumableUploadStatus: Hashable, Sendable {
    /// Drive has every byte and created the file.
    case complete(DriveFile)
    /// Drive holds the first `receivedBytes` bytes; send the rest from there.
    case incomplete(receivedBytes: Int)
}

extension DriveClient {
    /// Chunks other than the last must be a multiple of this many bytes (256 KiB).
    public static let uploadChunkGranularity = 256 * 1024
    /// The default chunk: 8 MiB.
    public static let defaultUploadChunkSize = 32 * uploadChunkGranularity

    /// Starts a resumable upload (POST /upload/drive/v3/files?uploadType=resumable) and returns the
    /// session URI from `Location`; persist it to resume after an interruption (it lasts a week).
    public func beginResumableUpload(
        metadata: JSONObject, contentType: String, contentLength: Int, fields: String = DriveClient.defaultFileFields
    ) async throws -> URL {
        let url = try client.endpoints.driveURL(
            path: "/upload/drive/v3/files",
            query: [("uploadType", "resumable"), ("fields", fields), ("supportsAllDrives", "true")])
        let request = HTTPRequest(
            method: .post, url: url,
            headers: [
                "Content-Type": "application/json; charset=UTF-8", "X-Upload-Content-Type": contentType,
                "X-Upload-Content-Length": String(contentLength),
            ],
            body: JSONValue.object(metadata).serialized(),
            // A second session for the same file is harmless: only the one whose bytes arrive creates it.
            isIdempotent: true)
        let response = try await client.send(request)
        guard let location = response.headers["Location"], let session = URL(string: location), session.host != nil else {
            let name = metadata["name"]?.stringValue ?? ""
            throw GoogleAPIError.invalidResponse("the resumable upload answer for '\(name)' has no Location")
        }
        return session
    }

    /// Asks a session how much it holds (PUT with `Content-Range: bytes */N`).
    public func uploadStatus(session: URL, contentLength: Int) async throws -> ResumableUploadStatus {
        let request = HTTPRequest(method: .put, url: session, headers: ["Content-Range": "bytes */\(contentLength)"])
        return try await exchange(request)
    }

    /// Sends `content` from byte `offset` on in chunks (a multiple of 256 KiB, rounded up) until
    /// Drive reports the file complete, following the `Range` Drive confirms after each chunk.
    public func continueUpload(
        session: URL, content: [UInt8], contentType: String, from offset: Int = 0,
        chunkSize: Int = DriveClient.defaultUploadChunkSize
    ) async throws -> DriveFile {
        let granularity = Self.uploadChunkGranularity
        let chunk = max(granularity, (chunkSize + granularity - 1) / granularity * granularity)
        let total = content.count
        var position = min(max(0, offset), total)
        var fruitless = 0
        while true {
            let status: ResumableUploadStatus
            if position >= total {
                // Everything was sent (or the file is empty): the final status query completes it.
                status = try await uploadStatus(session: session, contentLength: total)
            } else {
                let end = min(position + chunk, total)
                let request = HTTPRequest(
                    method: .put, url: session,
                    headers: ["Content-Type": contentType, "Content-Range": "bytes \(position)-\(end - 1)/\(total)"],
                    body: Array(content[position..<end]))
                do {
                    status = try await exchange(request)
                } catch GoogleAPIError.api(let details) where (400..<500).contains(details.httpStatus) {
                    // Drive may reject a chunk that overlaps what it already has: ask where it stands.
                    fruitless += 1
                    guard fruitless <= 3 else { throw GoogleAPIError.api(details) }
                    status = try await uploadStatus(session: session, contentLength: total)
                }
            }
            switch status {
            case .complete(let file):
                return file
            case .incomplete(let received):
                if received <= position {
                    fruitless += 1
                    if fruitless > 3 {
                        throw GoogleAPIError.invalidResponse(
                            "the resumable upload made no progress past byte \(received) of \(total) after \(fruitless) tries")
                    }
                } else {
                    fruitless = 0
                }
                position = min(received, total)
            }
        }
    }

    /// Uploads `content` resumably: resumes `existingSession` when given (starting afresh if it
    /// expired), else begins a session and hands it to `sessionStarted` before sending any byte.
    public func uploadResumable(
        metadata: JSONObject, contentType: String, content: [UInt8], existingSession: URL? = nil,
        chunkSize: Int = DriveClient.defaultUploadChunkSize, fields: String = DriveClient.defaultFileFields,
        sessionStarted: @Sendable (URL) async throws -> Void = { _ in }
    ) async throws -> DriveFile {
        if let existingSession {
            do {
                switch try await uploadStatus(session: existingSession, contentLength: content.count) {
                case .complete(let file):
                    return file
                case .incomplete(let received):
                    return try await continueUpload(
                        session: existingSession, content: content, contentType: contentType, from: received,
                        chunkSize: chunkSize)
                }
            } catch GoogleAPIError.uploadSessionExpired {
                client.logger.debug("resumable upload session expired; starting a new one")
            }
        }
        let session = try await beginResumableUpload(
            metadata: metadata, contentType: contentType, contentLength: content.count, fields: fields)
        try await sessionStarted(session)
        return try await continueUpload(session: session, content: content, contentType: contentType, chunkSize: chunkSize)
    }

    private func exchange(_ request: HTTPRequest) async throws -> ResumableUploadStatus {
        let response = try await client.send(request, accepting: [308, 404, 410])
        switch response.status {
        case 308:
            return .incomplete(receivedBytes: Self.receivedBytes(rangeHeader: response.headers["Range"]))
        case 404, 410:
            throw GoogleAPIError.uploadSessionExpired(
                "the drive upload session is gone (http \(response.status)): it expired or was cancelled; start a new upload")
        default:
            return .complete(try DriveFile(json: try GoogleClient.parseJSON(response, request: request)))
        }
    }

    /// The byte count a `Range: bytes=0-N` header confirms; no header means nothing arrived yet.
    static func receivedBytes(rangeHeader: String?) -> Int {
        guard let header = rangeHeader?.trimmingCharacters(in: .whitespaces), header.hasPrefix("bytes="),
            let dash = header.firstIndex(of: "-"), let last = Int(header[header.index(after: dash)...])
        else { return 0 }
        return last + 1
    }
}
