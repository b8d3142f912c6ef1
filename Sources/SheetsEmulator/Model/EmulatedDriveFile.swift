import Foundation
import Interchange

/// A Drive file as the emulator holds it; spreadsheets are Drive files too.
public struct EmulatedDriveFile: Sendable, Equatable, Codable {
    public static let folderMimeType = "application/vnd.google-apps.folder"
    public static let spreadsheetMimeType = "application/vnd.google-apps.spreadsheet"

    public var id: String
    public var name: String
    public var mimeType: String
    public var parents: [String]
    public var appProperties: [String: String] = [:]
    public var properties: [String: String] = [:]
    public var description: String?
    public var trashed = false
    /// Increments on every change to the file, including every change to a spreadsheet's contents.
    public var version = 1
    public var createdTime: Date
    public var modifiedTime: Date
    public var content: Data = Data()

    public var isFolder: Bool { mimeType == Self.folderMimeType }
}

extension EmulatedDriveFile {
    /// Every field the emulator knows, in Drive's JSON shape; `fields` then selects from it.
    func json() -> JSONValue {
        var out = JSONObjectBuilder()
        out.set("kind", "drive#file")
        out.set("id", id)
        out.set("name", name)
        out.set("mimeType", mimeType)
        out.set("parents", .array(parents.map(JSONValue.string)))
        out.set("appProperties", .object(JSONObject(appProperties.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        out.set("properties", .object(JSONObject(properties.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        out.set("description", description)
        out.set("trashed", trashed)
        out.set("explicitlyTrashed", trashed)
        out.set("version", String(version))
        out.set("createdTime", Self.timestamp(createdTime))
        out.set("modifiedTime", Self.timestamp(modifiedTime))
        out.set("ownedByMe", true)
        if !isFolder, mimeType != Self.spreadsheetMimeType {
            out.set("size", String(content.count))
            out.set("md5Checksum", MD5Hex.digest(content))
            out.set("originalFilename", name)
        }
        out.set("webViewLink", "https://drive.google.com/file/d/\(id)/view")
        return out.value
    }

    /// RFC 3339 with milliseconds, as Drive writes times.
    static func timestamp(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = millis / 1000
        let days = Int(seconds / 86_400)
        let secondsOfDay = Int(seconds % 86_400)
        let (y, m, d) = DateSerial.civil(serial: Double(days + 25569))
        func pad(_ v: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):"
            + "\(pad(secondsOfDay % 60, 2)).\(pad(Int(millis % 1000), 3))Z"
    }
}
