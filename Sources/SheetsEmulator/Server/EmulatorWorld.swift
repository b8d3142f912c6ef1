import Foundation
import Interchange

/// An OAuth client allowed to trade a refresh token for access tokens.
struct AuthorizedUser: Sendable, Equatable, Codable {
    var clientId: String
    var clientSecret: String
    var refreshToken: String
}

/// A one-time authorization code a test registered, as the consent screen would have issued it.
struct AuthorizationCodeGrant: Sendable, Equatable, Codable {
    var code: String
    var clientId: String
    var clientSecret: String
    var redirectURI: String?
    var codeChallenge: String?
    /// `S256` or `plain`.
    var codeChallengeMethod: String
    /// The scopes the person left ticked on the consent page (nil: every one asked for).
    var grantedScope: String?
}

/// An access token the emulator issued.
struct AccessTokenRecord: Sendable, Equatable, Codable {
    var subject: String
    var expiresAt: Date
    var revoked = false
}

/// A resumable upload in progress.
struct UploadSession: Sendable, Equatable, Codable {
    var id: String
    /// The metadata given when the session started.
    var metadata: JSONValue.Box
    /// The file to update, or nil to create one.
    var targetFileId: String?
    var contentType: String
    var totalSize: Int?
    var received = Data()
    var completedFileId: String?
    /// The initiating request's query (`fields`, `addParents` …), applied when the upload completes.
    var query: [EmulatorQueryItem]
}

extension JSONValue {
    /// Stores a JSON value inside Codable state as its text.
    struct Box: Sendable, Equatable, Codable {
        var value: JSONValue

        init(_ value: JSONValue) { self.value = value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do {
                value = try JSONValue.parse(text)
            } catch {
                // Read as null, an upload's metadata (its name, its folder) would be dropped unseen.
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON document: \(error)")
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value.serializedString())
        }
    }
}

/// Everything the emulator holds that a `--state` file keeps across restarts.
struct PersistentWorld: Sendable, Equatable, Codable {
    var spreadsheets: [String: SpreadsheetState] = [:]
    var files: [String: EmulatedDriveFile] = [:]
    var serviceAccountKeys: [String: String] = [:]
    var authorizedUsers: [AuthorizedUser] = []
    var authorizationCodes: [String: AuthorizationCodeGrant] = [:]
    var accessTokens: [String: AccessTokenRecord] = [:]
    var uploadSessions: [String: UploadSession] = [:]
}

/// All mutable state, guarded by one lock in `SheetsEmulator`.
struct EmulatorWorld: Sendable {
    var persistent = PersistentWorld()
    var clockOffset: TimeInterval = 0
    var frozenClock: Date?
    var tokenLifetime = 3600
    var counters = EmulatorCounters()
    var log: [EmulatorRequestRecord] = []
    var violations: [DiscoveryViolation] = []
    var faults: [ArmedFault] = []
    /// Gates opened by `SheetsEmulator.open(gate:)`: a `hold` fault on one of them goes on.
    var openGates: Set<String> = []
    /// Whether service accounts are refused Drive storage, as Google refuses them (off: the old, kinder Drive).
    var serviceAccountStorageRefused = false
    var baseURL = "http://127.0.0.1"

    var now: Date { frozenClock ?? Date().addingTimeInterval(clockOffset) }

    /// Records a change to a Drive file (and so to a spreadsheet): bumps `version` and `modifiedTime`.
    mutating func touch(_ fileId: String) {
        guard var file = persistent.files[fileId] else { return }
        file.version += 1
        file.modifiedTime = max(now, file.modifiedTime)
        persistent.files[fileId] = file
    }

    /// A random id in the alphabet Google uses for file and spreadsheet ids.
    static func makeId(length: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return "1" + String((1..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    /// The spreadsheet with this id, unless it is missing or its Drive file was trashed or deleted.
    func liveSpreadsheet(_ id: String) throws(GoogleAPIError) -> SpreadsheetState {
        guard let sheet = persistent.spreadsheets[id], persistent.files[id]?.trashed == false else {
            throw .notFound("Requested entity was not found.")
        }
        return sheet
    }
}
