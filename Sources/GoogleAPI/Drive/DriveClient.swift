import Foundation
import Interchange

/// Drive API v3 calls (https://www.googleapis.com/drive/v3/…), JSON in and out.
public struct DriveClient: Sendable {
    public let client: GoogleClient

    /// The fields asked for when the caller names none.
    public static let defaultFileFields = "id,name,mimeType,parents,appProperties,modifiedTime,version,size,trashed"

    public init(client: GoogleClient) {
        self.client = client
    }

    private func fileURL(_ fileId: String? = nil, query: [(String, String)]) throws(GoogleAPIError) -> URL {
        let path = "/drive/v3/files" + (fileId.map { "/" + URLEncoding.component($0) } ?? "")
        return try client.endpoints.driveURL(path: path, query: query)
    }

    /// files.list, following `nextPageToken` until every page is read.
    public func listFiles(
        q: String, fields: String = DriveClient.defaultFileFields, spaces: String = "drive", pageSize: Int = 1000,
        supportsAllDrives: Bool = true
    ) async throws -> [DriveFile] {
        var files: [DriveFile] = []
        var pageToken: String?
        var seenTokens: Set<String> = []
        repeat {
            var query: [(String, String)] = [
                ("q", q), ("fields", "nextPageToken,files(\(fields))"), ("spaces", spaces), ("pageSize", String(pageSize)),
            ]
            if supportsAllDrives { query += [("supportsAllDrives", "true"), ("includeItemsFromAllDrives", "true")] }
            if let pageToken { query.append(("pageToken", pageToken)) }
            let answer = try await client.json(.get, try fileURL(query: query))
            for item in answer["files"]?.arrayValue ?? [] { files.append(try DriveFile(json: item)) }
            pageToken = answer["nextPageToken"]?.stringValue
            if let token = pageToken, !seenTokens.insert(token).inserted {
                throw GoogleAPIError.invalidResponse("files.list returned page token '\(token)' twice")
            }
        } while pageToken != nil
        return files
    }

    /// files.get with the given field mask (such as `version,modifiedTime`).
    public func getFile(id: String, fields: String = DriveClient.defaultFileFields) async throws -> DriveFile {
        let url = try fileURL(id, query: [("fields", fields), ("supportsAllDrives", "true")])
        return try DriveFile(json: try await client.json(.get, url))
    }

    /// files.create of a metadata-only file (a folder, or a spreadsheet by MIME type).
    public func createFile(metadata: JSONObject, fields: String = DriveClient.defaultFileFields) async throws -> DriveFile {
        let url = try fileURL(query: [("fields", fields), ("supportsAllDrives", "true")])
        return try DriveFile(json: try await client.json(.post, url, body: .object(metadata), isIdempotent: false))
    }

    /// files.delete (for good, not to the trash); a file already gone counts as deleted.
    public func deleteFile(id: String) async throws {
        let url = try fileURL(id, query: [("supportsAllDrives", "true")])
        let request = HTTPRequest(method: .delete, url: url, headers: ["Accept": "application/json"], body: [], isIdempotent: true)
        _ = try await client.send(request, accepting: [404])
    }

    /// files.create of a folder.
    public func createFolder(
        name: String, parents: [String] = [], appProperties: [String: String] = [:]
    ) async throws -> DriveFile {
        try await createFile(
            metadata: Self.metadata(
                name: name, mimeType: DriveFile.folderMimeType, parents: parents, appProperties: appProperties))
    }

    /// files.update (PATCH) of metadata, optionally moving the file between parents.
    public func updateFile(
        id: String, metadata: JSONObject, addParents: [String] = [], removeParents: [String] = [],
        fields: String = DriveClient.defaultFileFields
    ) async throws -> DriveFile {
        var query: [(String, String)] = [("fields", fields), ("supportsAllDrives", "true")]
        if !addParents.isEmpty { query.append(("addParents", addParents.joined(separator: ","))) }
        if !removeParents.isEmpty { query.append(("removeParents", removeParents.joined(separator: ","))) }
        let url = try fileURL(id, query: query)
        // Setting the same metadata twice equals setting it once.
        return try DriveFile(json: try await client.json(.patch, url, body: .object(metadata), isIdempotent: true))
    }

    /// A `File` metadata object; keys in appProperties are sorted for a stable request body.
    public static func metadata(
        name: String, mimeType: String? = nil, parents: [String] = [], appProperties: [String: String] = [:]
    ) -> JSONObject {
        var object: JSONObject = ["name": .string(name)]
        if let mimeType { object["mimeType"] = .string(mimeType) }
        if !parents.isEmpty { object["parents"] = .array(parents.map { .string($0) }) }
        if !appProperties.isEmpty {
            let sorted = appProperties.sorted { $0.key < $1.key }
            object["appProperties"] = .object(JSONObject(sorted.map { ($0.key, .string($0.value)) }))
        }
        return object
    }
}
