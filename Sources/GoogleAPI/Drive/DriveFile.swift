import Foundation
import Interchange

/// The parts of a Drive `File` resource sheetsync reads; `json` keeps everything returned.
public struct DriveFile: Hashable, Sendable {
    public var id: String
    public var name: String?
    public var mimeType: String?
    public var parents: [String]
    public var appProperties: [String: String]
    /// RFC 3339 text as Drive sends it.
    public var modifiedTime: String?
    /// Drive's monotonically increasing version (an int64 sent as a string).
    public var version: String?
    public var size: String?
    public var trashed: Bool?
    public var json: JSONValue

    /// The MIME type of a Drive folder.
    public static let folderMimeType = "application/vnd.google-apps.folder"
    /// The MIME type of a Google Sheets spreadsheet.
    public static let spreadsheetMimeType = "application/vnd.google-apps.spreadsheet"

    /// Reads a `File` JSON; only `id` is required.
    public init(json: JSONValue) throws(GoogleAPIError) {
        guard let id = json["id"]?.stringValue, !id.isEmpty else {
            throw GoogleAPIError.invalidResponse("a drive file has no id: \(String(json.serializedString().prefix(200)))")
        }
        self.id = id
        name = json["name"]?.stringValue
        mimeType = json["mimeType"]?.stringValue
        parents = (json["parents"]?.arrayValue ?? []).compactMap(\.stringValue)
        var properties: [String: String] = [:]
        for member in json["appProperties"]?.objectValue?.members ?? [] {
            if let value = member.value.stringValue { properties[member.key] = value }
        }
        appProperties = properties
        modifiedTime = json["modifiedTime"]?.stringValue
        version = json["version"]?.stringValue ?? json["version"]?.numberText
        size = json["size"]?.stringValue ?? json["size"]?.numberText
        trashed = json["trashed"]?.boolValue
        self.json = json
    }

    public var isFolder: Bool { mimeType == Self.folderMimeType }
}

/// Building Drive search queries (`q`).
public enum DriveQuery {
    /// A string literal for `q`: single quotes, with `\` and `'` escaped by a backslash.
    public static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// Files whose `appProperties` hold `key` = `value`.
    public static func appProperty(_ key: String, equals value: String) -> String {
        "appProperties has { key=\(quote(key)) and value=\(quote(value)) }"
    }
}
