import Foundation
import Interchange
import Testing

@testable import SheetsEmulator

/// Input the emulator cannot read is refused with a message, never read as something else.
@Suite struct EmulatorInputErrorTests {
    @Test func aControlRequestWhoseBodyIsNotJSONIsRefusedAndChangesNothing() async throws {
        let h = try await EmulatorHarness.start()
        let broken = try await h.client.send("POST", "/_emulator/spreadsheets", body: Data(#"{"title":"Demo","tabs":["#.utf8))
        let count = h.emulator.world.read { $0.persistent.spreadsheets.count }
        let whole = try await h.client.send("POST", "/_emulator/spreadsheets", body: Data(#"{"title":"Demo"}"#.utf8))
        await h.stop()
        #expect(broken.status == 400)
        #expect(try broken.json()["error"]?.stringValue?.hasPrefix("Invalid JSON payload received.") == true)
        #expect(count == 0)
        // The same request with a whole body works: the refusal was about the body alone.
        #expect(whole.status == 200)
        let id = try #require(try whole.json()["spreadsheetId"]?.stringValue)
        #expect(h.emulator.file(id: id)?.name == "Demo")
    }

    @Test func aStateFileWithUnreadableUploadMetadataIsRefusedNamingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.json")
        var world = PersistentWorld()
        world.uploadSessions["u1"] = UploadSession(
            id: "u1", metadata: JSONValue.Box(["name": "receipt.png"]), contentType: "image/png", query: [])
        try StateFile.save(world, to: file)
        let loaded = try SheetsEmulator(stateFile: file)
        #expect(loaded.world.read { $0.persistent.uploadSessions["u1"]?.metadata.value["name"] } == "receipt.png")

        // The metadata's text loses its closing brace: no longer a JSON document.
        let text = try String(contentsOf: file, encoding: .utf8)
        let whole = #"{\"name\":\"receipt.png\"}""#
        #expect(text.contains(whole))
        try text.replacingOccurrences(of: whole, with: #"{\"name\":\"receipt.png\"""#).write(to: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: EmulatorError.self) { try SheetsEmulator(stateFile: file) }
        #expect(error.path == file.path)
        #expect(error.message.hasPrefix("cannot read emulator state file '\(file.path)'"))
        #expect(error.underlying is DecodingError)
    }
}
