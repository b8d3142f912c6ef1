import Foundation
import Interchange
import SheetsEmulator
import Testing

@Suite struct EmulatorDriveTests {
    @Test func resumableUploadSurvivesAnInterruptedChunk() async throws {
        let h = try await EmulatorHarness.start()
        let folder = try h.emulator.createFolder(name: "Receipts")
        let content = Data((0..<(600 * 1024)).map { UInt8($0 % 251) })
        let start = try await h.client.send(
            "POST", "/upload/drive/v3/files?uploadType=resumable&fields=id,size,appProperties",
            headers: h.auth + [
                ("Content-Type", "application/json; charset=UTF-8"), ("X-Upload-Content-Type", "image/jpeg"),
                ("X-Upload-Content-Length", String(content.count)),
            ],
            body: Data(#"{"name":"r.jpg","parents":["\#(folder)"],"appProperties":{"receiptId":"r-1"}}"#.utf8))
        #expect(start.status == 200)
        let location = try #require(start.headers["location"])
        let session = String(location.dropFirst(h.emulator.baseURL.count))
        let chunk = 256 * 1024
        func put(_ range: Range<Int>) async throws -> RawResponse {
            try await h.client.send(
                "PUT", session,
                headers: h.auth + [
                    ("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(content.count)")
                ], body: content[range])
        }
        #expect(try await put(0..<chunk).status == 308)
        h.emulator.resetCounters()
        h.emulator.injectFault(.dropConnection, atRequest: 1)
        await #expect(throws: RawHTTPError.self) { try await put(chunk..<2 * chunk) }
        let status = try await h.client.send("PUT", session, headers: h.auth + [("Content-Range", "bytes */\(content.count)")])
        #expect(status.status == 308)
        #expect(status.headers["range"] == "bytes=0-\(chunk - 1)")
        #expect(try await put(chunk..<2 * chunk).status == 308)
        let done = try await put(2 * chunk..<content.count)
        #expect(done.status == 200)
        let fileId = try #require(try done.json()["id"]?.stringValue)
        #expect(h.emulator.file(id: fileId)?.content == content)
        #expect(try done.json()["size"] == .string(String(content.count)))
        let listed = try await h.get(
            "/drive/v3/files",
            [
                ("q", "appProperties has { key='receiptId' and value='r-1' } and '\(folder)' in parents and trashed = false"),
                ("fields", "files(id,name)"),
            ])
        #expect(try listed.json()["files"] == [["id": .string(fileId), "name": "r.jpg"]])
        #expect(h.emulator.violations.isEmpty)
        await h.stop()
    }

    @Test func chunksThatAreNotWholeQuarterMebibytesKeepOnlyWholeUnits() async throws {
        let h = try await EmulatorHarness.start()
        let start = try await h.client.send("POST", "/upload/drive/v3/files?uploadType=resumable", headers: h.auth, body: Data())
        let session = String(try #require(start.headers["location"]).dropFirst(h.emulator.baseURL.count))
        let body = Data(repeating: 7, count: 300 * 1024)
        let response = try await h.client.send(
            "PUT", session, headers: h.auth + [("Content-Range", "bytes 0-\(body.count - 1)/*")], body: body)
        #expect(response.status == 308)
        #expect(response.headers["range"] == "bytes=0-262143")
        await h.stop()
    }

    @Test func multipartUploadCreatesAFileWithMetadata() async throws {
        let h = try await EmulatorHarness.start()
        let body =
            "--b\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{\"name\":\"a.txt\",\"appProperties\":{\"receiptId\":\"x\"}}\r\n"
            + "--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n"
        let response = try await h.client.send(
            "POST", "/upload/drive/v3/files?uploadType=multipart&fields=id,name,mimeType,md5Checksum",
            headers: h.auth + [("Content-Type", "multipart/related; boundary=b")], body: Data(body.utf8))
        let json = try response.json()
        #expect(json["name"] == "a.txt")
        #expect(json["mimeType"] == "text/plain")
        #expect(json["md5Checksum"] == "5d41402abc4b2a76b9719d911017c592")
        await h.stop()
    }

    @Test func filesListMatchesNameMimeTypeAndParents() async throws {
        let h = try await EmulatorHarness.start()
        let root = try h.emulator.createFolder(name: "ExpenseTracker")
        let receipts = try h.emulator.createFolder(name: "Receipts", parentId: root)
        _ = try h.emulator.createFolder(name: "Receipts")
        let response = try await h.get(
            "/drive/v3/files",
            [
                ("q", "name = 'Receipts' and mimeType = 'application/vnd.google-apps.folder' and '\(root)' in parents and trashed = false"),
                ("fields", "files(id)"), ("pageSize", "10"),
            ])
        #expect(try response.json()["files"] == [["id": .string(receipts)]])
        let bad = try await h.get("/drive/v3/files", [("q", "name === 'x'")])
        #expect(bad.status == 400)
        await h.stop()
    }

    @Test func updateMovesWithAddParentsButRefusesParentsInTheBody() async throws {
        let h = try await EmulatorHarness.start()
        let folder = try h.emulator.createFolder(name: "ExpenseTracker")
        let id = try h.makeSpreadsheet(["T": []])
        let refused = try await h.client.send(
            "PATCH", "/drive/v3/files/\(id)", headers: h.auth, body: Data(#"{"parents":["\#(folder)"]}"#.utf8))
        let moved = try await h.client.send(
            "PATCH", "/drive/v3/files/\(id)?addParents=\(folder)&removeParents=root&fields=parents",
            headers: h.auth, body: Data(#"{"name":"Ledger"}"#.utf8))
        #expect(refused.status == 403)
        #expect(try moved.json()["parents"] == [.string(folder)])
        #expect(h.emulator.file(id: id)?.name == "Ledger")
        await h.stop()
    }
}
