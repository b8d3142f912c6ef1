import Foundation
import Interchange

/// A developer metadata entry and where it sits now.
public struct EmulatedDeveloperMetadata: Sendable, Equatable {
    public var id: Int
    public var key: String
    public var value: String?
    public var visibility: String
    /// `SPREADSHEET`, `SHEET`, `ROW` or `COLUMN`.
    public var locationType: String
    public var tab: String?
    /// The first row or column (0-based) of a `ROW` or `COLUMN` entry, as it is now.
    public var index: Int?
    public var span: Int
}

extension SheetsEmulator {
    /// The id "My Drive" has (`root` is accepted for it too).
    public var rootFolderId: String { DriveFiles.rootFolderId }

    /// Every developer metadata entry of a spreadsheet, by id.
    public func developerMetadata(spreadsheetId: String) throws -> [EmulatedDeveloperMetadata] {
        try world.withLock { world throws(EmulatorError) in
            let sheet = try Self.spreadsheet(spreadsheetId, in: world)
            let anchors = sheet.metadataAnchors()
            return sheet.metadata.values.sorted { $0.id < $1.id }.map { record in
                EmulatedDeveloperMetadata(
                    id: record.id, key: record.key, value: record.value, visibility: record.visibility,
                    locationType: record.placement.rawValue,
                    tab: record.sheetId.flatMap(sheet.sheetIndex(id:)).map { sheet.sheets[$0].title },
                    index: anchors[record.id]?.index, span: record.span)
            }
        }
    }

    /// Creates a folder and returns its id.
    @discardableResult
    public func createFolder(name: String, parentId: String? = nil) throws -> String {
        try createFile(name: name, mimeType: EmulatedDriveFile.folderMimeType, parentId: parentId)
    }

    /// Creates a file with content and app properties, as another client would, and returns its id.
    @discardableResult
    public func createFile(
        name: String, mimeType: String, content: Data = Data(), parentId: String? = nil, appProperties: [String: String] = [:]
    ) throws -> String {
        try world.withLock { world throws(EmulatorError) -> String in
            var metadata = JSONObjectBuilder()
            metadata.set("name", name)
            metadata.set("mimeType", mimeType)
            if let parentId { metadata.set("parents", [.string(parentId)] as JSONValue) }
            metadata.set("appProperties", .object(JSONObject(appProperties.map { ($0.key, .string($0.value)) })))
            do throws(GoogleAPIError) {
                return try world.createFile(metadata: metadata.value, content: content, contentType: mimeType).id
            } catch {
                throw EmulatorError("cannot create file '\(name)': \(error.message)")
            }
        }
    }

    /// A file (spreadsheets included) by id.
    public func file(id: String) -> EmulatedDriveFile? {
        world.read { $0.persistent.files[id] }
    }

    /// Every file, by name.
    public var files: [EmulatedDriveFile] {
        world.read { $0.persistent.files.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) } }
    }

    /// A file's (or spreadsheet's) Drive `version`, which grows with every change.
    public func version(of fileId: String) -> Int? {
        file(id: fileId)?.version
    }

    /// Moves a file to the trash, as a person would; a trashed spreadsheet answers 404 to the Sheets API.
    public func trashFile(id: String) throws {
        try world.withLock { world throws(EmulatorError) in
            guard world.persistent.files[id] != nil else { throw EmulatorError("no file with id '\(id)' in the emulator") }
            world.persistent.files[id]?.trashed = true
            world.touch(id)
        }
    }

    /// Upload sessions not yet completed, with the bytes each holds.
    public var pendingUploadSizes: [String: Int] {
        world.read { world in
            world.persistent.uploadSessions.filter { $0.value.completedFileId == nil }.mapValues { $0.received.count }
        }
    }
}
