import Foundation
import Interchange
import Testing

@testable import GoogleAPI

@Suite struct DriveClientTests {
    func drive(_ transport: ScriptedTransport) -> DriveClient {
        DriveClient(client: GoogleClient(transport: transport))
    }

    @Test func listFollowsPageTokens() async throws {
        let transport = ScriptedTransport([
            .json(200, ["nextPageToken": "p2", "files": [["id": "a", "name": "A", "appProperties": ["receiptId": "r1"]]]]),
            .json(200, ["files": [["id": "b", "name": "B", "mimeType": .string(DriveFile.folderMimeType), "version": "42"]]]),
        ])
        let query = "name = " + DriveQuery.quote("Bob's") + " and trashed = false"
        let files = try await drive(transport).listFiles(q: query)
        #expect(files.map(\.id) == ["a", "b"])
        #expect(files[0].appProperties == ["receiptId": "r1"])
        #expect(files[1].isFolder && files[1].version == "42")
        let first = Dictionary(Fixtures.query(transport.requests[0]), uniquingKeysWith: { a, _ in a })
        #expect(first["q"] == #"name = 'Bob\'s' and trashed = false"#)
        #expect(first["pageToken"] == nil)
        #expect(first["spaces"] == "drive")
        #expect(Dictionary(Fixtures.query(transport.requests[1]), uniquingKeysWith: { a, _ in a })["pageToken"] == "p2")
        #expect(transport.requests[0].url.path() == "/drive/v3/files")
    }

    @Test func createFolderSendsFolderMimeTypeParentsAndAppProperties() async throws {
        let transport = ScriptedTransport([.json(200, ["id": "f1", "name": "Receipts", "mimeType": .string(DriveFile.folderMimeType)])])
        let folder = try await drive(transport).createFolder(name: "Receipts", parents: ["root1"], appProperties: ["datasetId": "d"])
        #expect(folder.id == "f1")
        let body = try JSONValue.parse(try #require(transport.requests.first).body)
        #expect(
            body == [
                "name": "Receipts", "mimeType": "application/vnd.google-apps.folder", "parents": ["root1"],
                "appProperties": ["datasetId": "d"],
            ])
    }

    @Test func getAndUpdateUseTheFileIdAndFields() async throws {
        let transport = ScriptedTransport([
            .json(200, ["id": "x y", "version": "7", "modifiedTime": "2026-01-02T03:04:05.000Z"]),
            .json(200, ["id": "x y", "name": "new"]),
        ])
        let file = try await drive(transport).getFile(id: "x y", fields: "id,version,modifiedTime")
        #expect(file.version == "7" && file.modifiedTime == "2026-01-02T03:04:05.000Z")
        _ = try await drive(transport).updateFile(id: "x y", metadata: ["name": "new"], addParents: ["p2"], removeParents: ["p1"])
        #expect(transport.requests[0].url.path(percentEncoded: true) == "/drive/v3/files/x%20y")
        #expect(transport.requests[1].method == .patch)
        let query = Dictionary(Fixtures.query(transport.requests[1]), uniquingKeysWith: { a, _ in a })
        #expect(query["addParents"] == "p2" && query["removeParents"] == "p1")
    }

    @Test func fileWithoutIdIsAnError() {
        #expect(throws: GoogleAPIError.self) { _ = try DriveFile(json: ["name": "x"]) }
    }
}
