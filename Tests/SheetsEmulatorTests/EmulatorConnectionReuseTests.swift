import Foundation
import GoogleAPI
import SheetsEmulator
import Testing

/// A run reuses one connection (one TLS handshake against Google) for all its requests.
@Suite struct EmulatorConnectionReuseTests {
    @Test func consecutiveRequestsOfOneTransportShareOneConnection() async throws {
        let h = try await EmulatorHarness.start()
        let id = try h.makeSpreadsheet(["T": [["1"]]])
        let transport = CurlTransport()
        let url = try #require(URL(string: "\(h.emulator.baseURL)/v4/spreadsheets/\(id)?prettyPrint=false"))
        var opened: [Int] = []
        for _ in 0..<3 {
            let response = try await transport.send(HTTPRequest(method: .get, url: url, headers: ["Authorization": "Bearer \(h.token)"]))
            #expect(response.status == 200)
            opened.append(response.newConnections)
        }
        #expect(opened == [1, 0, 0])
        await h.stop()
    }
}
