import Foundation
import Interchange
import Testing

@testable import GoogleAPI

@Suite struct CredentialsFileTests {
    let userJSON = Fixtures.authorizedUser.json.serializedString()

    @Test func fileReadableByOthersIsRefusedNamingPathAndMode() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("creds.json", userJSON, mode: 0o644)
        #expect(throws: GoogleAPIError.insecureCredentialsFile(path: path, mode: "0644")) {
            _ = try GoogleCredentials.load(path: path)
        }
        let error = GoogleAPIError.insecureCredentialsFile(path: path, mode: "0644")
        #expect(error.description.contains("'\(path)' has mode 0644"))
        #expect(error.isConfigurationProblem)
    }

    @Test func groupAccessIsRefusedToo() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("creds.json", userJSON, mode: 0o640)
        #expect(throws: GoogleAPIError.insecureCredentialsFile(path: path, mode: "0640")) {
            _ = try GoogleCredentials.load(path: path)
        }
    }

    @Test func privateFileIsAccepted() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("creds.json", userJSON, mode: 0o600)
        guard case .authorizedUser(let user) = try GoogleCredentials.load(path: path) else {
            Issue.record("expected authorized_user credentials")
            return
        }
        #expect(user == Fixtures.authorizedUser)
    }

    @Test func missingFileNamesThePath() {
        #expect {
            _ = try GoogleCredentials.load(path: "/nonexistent/creds.json")
        } throws: { error in
            "\(error)".hasPrefix("credentials file '/nonexistent/creds.json': cannot open")
        }
    }

    @Test func missingFieldIsNamed() {
        let json = #"{"type":"authorized_user","client_id":"a","client_secret":"b"}"#
        #expect(throws: GoogleAPIError.invalidCredentials(path: "u.json", detail: "missing 'refresh_token'")) {
            _ = try GoogleCredentials.parse(Array(json.utf8), path: "u.json")
        }
    }

    @Test func writePrivateCreatesMode0600AtomicallyInNewFolders() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/config/sheetsync/user.json"
        try CredentialsFile.writePrivate(Array("one".utf8), path: path)
        try CredentialsFile.writePrivate(Array("two".utf8), path: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try CredentialsFile.readPrivate(path: path) == Array("two".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/config/sheetsync")
        #expect(leftovers == ["user.json"])
    }

    @Test func writePrivateNeverWritesThroughALinkPlantedAtATemporaryName() throws {
        let folder = try TemporaryFolder()
        let victim = try folder.write("victim.txt", "keep me", mode: 0o644)
        let path = folder.path + "/user.json"
        // Where a predictable scheme would put its temporary file.
        for name in [".user.json.tmp-\(getpid())", ".user.json.tmp", "user.json.tmp"] {
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/" + name, withDestinationPath: victim)
        }
        try CredentialsFile.writePrivate(Array("secret".utf8), path: path)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(try CredentialsFile.readPrivate(path: path) == Array("secret".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }
}
