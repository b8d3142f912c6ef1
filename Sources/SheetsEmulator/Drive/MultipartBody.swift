import Foundation
import Interchange

/// A `multipart/related` upload body: JSON metadata, then the media.
struct MultipartBody: Sendable {
    var metadata: JSONValue
    var media: Data
    var mediaType: String?

    static func parse(_ request: EmulatorRequest) throws(GoogleAPIError) -> MultipartBody {
        let contentType = request.header("content-type") ?? ""
        guard contentType.lowercased().hasPrefix("multipart/"),
            let boundaryPart = contentType.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.lowercased().hasPrefix("boundary=") })
        else {
            throw .invalidArgument("Invalid multipart request: Content-Type '\(contentType)' has no multipart boundary.")
        }
        var boundary = String(boundaryPart.dropFirst("boundary=".count))
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 { boundary = String(boundary.dropFirst().dropLast()) }
        let parts = split(Array(request.body), boundary: Array(("--" + boundary).utf8))
        guard parts.count == 2 else {
            throw .invalidArgument("Invalid multipart request with \(parts.count) parts: expected metadata and media.")
        }
        let metadata: JSONValue
        do throws(JSONParseError) {
            metadata = parts[0].body.isEmpty ? .object([:]) : try JSONValue.parse(parts[0].body)
        } catch {
            throw .invalidArgument("Invalid JSON payload received in the metadata part. \(error.payloadDetail).")
        }
        return MultipartBody(metadata: metadata, media: Data(parts[1].body), mediaType: parts[1].headers["content-type"])
    }

    private struct Part {
        var headers: [String: String]
        var body: [UInt8]
    }

    private static func split(_ bytes: [UInt8], boundary: [UInt8]) -> [Part] {
        var positions: [Int] = []
        var i = 0
        while i + boundary.count <= bytes.count {
            if bytes[i] == boundary[0], Array(bytes[i..<i + boundary.count]) == boundary {
                positions.append(i)
                i += boundary.count
            } else {
                i += 1
            }
        }
        var parts: [Part] = []
        for (start, end) in zip(positions, positions.dropFirst()) {
            var chunk = Array(bytes[(start + boundary.count)..<end])
            if chunk.starts(with: [13, 10]) { chunk.removeFirst(2) } else if chunk.first == 10 { chunk.removeFirst() }
            if chunk.suffix(2) == [13, 10] { chunk.removeLast(2) } else if chunk.last == 10 { chunk.removeLast() }
            let separator =
                firstRange(of: [13, 10, 13, 10], in: chunk).map { ($0, 4) } ?? firstRange(of: [10, 10], in: chunk).map { ($0, 2) }
            guard let (headerEnd, gap) = separator else {
                parts.append(Part(headers: [:], body: chunk))
                continue
            }
            var headers: [String: String] = [:]
            for line in String(decoding: chunk[..<headerEnd], as: UTF8.self).split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
                let pair = line.split(separator: ":", maxSplits: 1)
                if pair.count == 2 {
                    headers[pair[0].trimmingCharacters(in: .whitespaces).lowercased()] = pair[1].trimmingCharacters(in: .whitespaces)
                }
            }
            parts.append(Part(headers: headers, body: Array(chunk[(headerEnd + gap)...])))
        }
        return parts
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<i + needle.count]) == needle { return i }
        return nil
    }
}
