import Foundation
import Interchange

/// `files.list`, `get`, `create`, `update` and `delete`, including their upload forms.
enum DriveFiles {
    /// The id "My Drive" has; `root` is accepted as its alias.
    static let rootFolderId = "0AEmulatorMyDriveRootFolder"

    /// Drive's answer when no `fields` are asked for.
    static let defaultFileFields = "kind,id,name,mimeType"

    static func serve(_ id: String, request: EmulatorRequest, match: MatchedMethod, world: inout EmulatorWorld)
        throws(GoogleAPIError) -> EmulatorResponse
    {
        let fileId = match.pathParameters["fileId"].map { $0 == "root" ? rootFolderId : $0 }
        switch id {
        case "drive.files.list":
            return try list(request, world: world)
        case "drive.files.get":
            let file = try world.file(fileId ?? "")
            if request.query("alt") == "media" {
                guard !file.isFolder, file.mimeType != EmulatedDriveFile.spreadsheetMimeType else {
                    throw GoogleAPIError(
                        code: 403, message: "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                        status: "PERMISSION_DENIED", reason: "fileNotDownloadable")
                }
                return EmulatorResponse(status: 200, headers: [("Content-Type", file.mimeType)], body: file.content)
            }
            return try answer(file.json(), request: request)
        case "drive.files.create":
            if match.method.isUpload {
                return try DriveUploads.start(request, updating: nil, world: &world)
            }
            let metadata = try request.jsonBody() ?? .object([:])
            let file = try world.createFile(metadata: metadata, content: Data(), contentType: nil)
            return try answer(file.json(), request: request)
        case "drive.files.update":
            let file = try world.file(fileId ?? "")
            if match.method.isUpload {
                return try DriveUploads.start(request, updating: file.id, world: &world)
            }
            let updated = try world.updateFile(file.id, metadata: try request.jsonBody() ?? .object([:]), request: request, content: nil)
            return try answer(updated.json(), request: request)
        case "drive.files.delete":
            let file = try world.file(fileId ?? "")
            world.persistent.files[file.id] = nil
            world.persistent.spreadsheets[file.id] = nil
            return EmulatorResponse(status: 204)
        default:
            throw .unimplemented("The emulator does not implement \(id).")
        }
    }

    static func answer(_ file: JSONValue, request: EmulatorRequest) throws(GoogleAPIError) -> EmulatorResponse {
        var request = request
        if request.query("fields") == nil { request.query.append(EmulatorQueryItem(name: "fields", value: defaultFileFields)) }
        return try SheetsSpreadsheets.answer(file, request: request)
    }

    private static func list(_ request: EmulatorRequest, world: EmulatorWorld) throws(GoogleAPIError) -> EmulatorResponse {
        let query = try request.query("q").map(DriveQueryParser.parse)
        // Like Drive, an unfiltered list includes the trash: callers must say `trashed = false`.
        var files = world.persistent.files.values.filter { query?.matches($0) ?? true }
        files.sort { ($0.name, $0.id) < ($1.name, $1.id) }
        if request.query("orderBy")?.hasPrefix("modifiedTime") == true {
            files.sort { $0.modifiedTime > $1.modifiedTime }
        }
        let pageSize = min(max(Int(request.query("pageSize") ?? "") ?? 100, 1), 1000)
        let offset = Int(request.query("pageToken") ?? "") ?? 0
        let page = Array(files.dropFirst(offset).prefix(pageSize))
        var out = JSONObjectBuilder()
        if offset + pageSize < files.count { out.set("nextPageToken", String(offset + pageSize)) }
        out.set("kind", "drive#fileList")
        out.set("incompleteSearch", false)
        out.set("files", .array(page.map { $0.json() }))
        var fields = request.query("fields") ?? "kind,incompleteSearch,nextPageToken,files(\(defaultFileFields))"
        if fields == "*" { fields = "kind,incompleteSearch,nextPageToken,files" }
        var adjusted = request
        adjusted.query.removeAll { $0.name == "fields" }
        adjusted.query.append(EmulatorQueryItem(name: "fields", value: fields))
        return try SheetsSpreadsheets.answer(out.value, request: adjusted)
    }
}

extension EmulatorWorld {
    func file(_ id: String) throws(GoogleAPIError) -> EmulatedDriveFile {
        if id == DriveFiles.rootFolderId {
            return EmulatedDriveFile(
                id: id, name: "My Drive", mimeType: EmulatedDriveFile.folderMimeType, parents: [],
                createdTime: Date(timeIntervalSince1970: 0), modifiedTime: Date(timeIntervalSince1970: 0))
        }
        guard let file = persistent.files[id] else { throw .notFound("File not found: \(id).") }
        return file
    }

    /// Creates a file from `File` metadata; a spreadsheet MIME type creates an empty spreadsheet.
    mutating func createFile(metadata: JSONValue, content: Data, contentType: String?) throws(GoogleAPIError) -> EmulatedDriveFile {
        var parents = (metadata["parents"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0 == "root" ? DriveFiles.rootFolderId : $0 }
        if parents.isEmpty { parents = [DriveFiles.rootFolderId] }
        for parent in parents where parent != DriveFiles.rootFolderId {
            guard persistent.files[parent]?.isFolder == true else { throw .notFound("File not found: \(parent).") }
        }
        let mimeType = metadata["mimeType"]?.stringValue ?? contentType ?? "application/octet-stream"
        if mimeType == EmulatedDriveFile.spreadsheetMimeType {
            let sheet = try createSpreadsheet(
                from: ["properties": ["title": .string(metadata["name"]?.stringValue ?? "Untitled spreadsheet")]], parents: parents)
            return try file(sheet.id)
        }
        var file = EmulatedDriveFile(
            id: EmulatorWorld.makeId(length: 33), name: metadata["name"]?.stringValue ?? "Untitled", mimeType: mimeType,
            parents: parents, createdTime: now, modifiedTime: now, content: content)
        file.appProperties = Self.stringMap(metadata["appProperties"])
        file.properties = Self.stringMap(metadata["properties"])
        file.description = metadata["description"]?.stringValue
        persistent.files[file.id] = file
        return file
    }

    /// Applies `File` metadata and `addParents`/`removeParents` to a file; `content` replaces its bytes.
    mutating func updateFile(_ id: String, metadata: JSONValue, request: EmulatorRequest, content: Data?) throws(GoogleAPIError)
        -> EmulatedDriveFile
    {
        guard var file = persistent.files[id] else { throw .notFound("File not found: \(id).") }
        if metadata["parents"] != nil {
            var error = GoogleAPIError.invalidArgument(
                "The parents field is not directly writable in update requests. Use the addParents and removeParents parameters instead.")
            error.code = 403
            error.reason = "fieldNotWritable"
            throw error
        }
        if let name = metadata["name"]?.stringValue { file.name = name }
        if let description = metadata["description"] { file.description = description.stringValue }
        if let trashed = metadata["trashed"]?.boolValue { file.trashed = trashed }
        if let mimeType = metadata["mimeType"]?.stringValue, !file.isFolder { file.mimeType = mimeType }
        for (key, value) in metadata["appProperties"]?.members ?? [] { file.appProperties[key] = value.stringValue }
        for (key, value) in metadata["properties"]?.members ?? [] { file.properties[key] = value.stringValue }
        for parent in (request.query("addParents") ?? "").split(separator: ",").map(String.init) {
            let resolved = parent == "root" ? DriveFiles.rootFolderId : parent
            guard resolved == DriveFiles.rootFolderId || persistent.files[resolved]?.isFolder == true else {
                throw .notFound("File not found: \(parent).")
            }
            if !file.parents.contains(resolved) { file.parents.append(resolved) }
        }
        for parent in (request.query("removeParents") ?? "").split(separator: ",").map(String.init) {
            file.parents.removeAll { $0 == (parent == "root" ? DriveFiles.rootFolderId : parent) }
        }
        if let content { file.content = content }
        persistent.files[id] = file
        if let sheetTitle = metadata["name"]?.stringValue, persistent.spreadsheets[id] != nil {
            persistent.spreadsheets[id]?.title = sheetTitle
        }
        touch(id)
        return persistent.files[id] ?? file
    }

    private static func stringMap(_ json: JSONValue?) -> [String: String] {
        var map: [String: String] = [:]
        for (key, value) in json?.members ?? [] { if let text = value.stringValue { map[key] = text } }
        return map
    }
}
