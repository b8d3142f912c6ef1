import Foundation
import Interchange
import Testing

@testable import GoogleAPI

/// The assembled production stack (token, retries, 401 refresh) over a scripted network.
@Suite struct GoogleClientTests {
    @Test func fullStackFetchesATokenRetriesAndRefreshesOn401() async throws {
        let key = try Fixtures.key()
        let credentials = try GoogleCredentials.parse(Array(Fixtures.serviceAccountJSON(key: key).utf8), path: "sa.json")
        let tokenCount = LockedBox(0)
        let apiCalls = LockedBox<[String]>([])
        let network = ScriptedTransport(handler: { request in
            if request.url.path() == "/token" {
                let count = tokenCount.value + 1
                tokenCount.mutate { $0 = count }
                return Fixtures.tokenResponse("token-\(count)")
            }
            let auth = request.headers["Authorization"] ?? ""
            let call = apiCalls.value.count
            apiCalls.mutate { $0.append(auth) }
            switch call {
            case 0: return HTTPResponse(status: 503, headers: ["Retry-After": "2"])
            case 1:
                return .json(
                    401,
                    ["error": ["code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"]])
            default:
                return .json(200, ["spreadsheetId": "sid", "valueRanges": [["range": "'T'!A1:B1", "values": [["a", .number("1.50")]]]]])
            }
        })
        let clock = ManualAPIClock()
        let endpoints = try #require(GoogleEndpoints(endpoint: "http://127.0.0.1:1"))
        let client = try GoogleClient(
            credentials: credentials, endpoints: endpoints, base: network, clock: clock, random: FixedRandomSource([0.5]))
        let ranges = try await SheetsClient(client: client).batchGetValues(spreadsheetId: "sid", ranges: ["'T'!A1:B"])
        #expect(ranges.first?.cell(row: 0, column: 1) == .number("1.50"))
        #expect(apiCalls.value == ["Bearer token-1", "Bearer token-1", "Bearer token-2"])
        #expect(clock.sleeps == [2])
        #expect(network.requests.first?.url.absoluteString == "http://127.0.0.1:1/token")
        #expect(network.requests[1].url.absoluteString.hasPrefix("http://127.0.0.1:1/v4/spreadsheets/sid/values:batchGet?"))
    }

    @Test func errorDescriptionsNeverCarryTheToken() async throws {
        let network = ScriptedTransport(handler: { request in
            if request.url.path() == "/token" { return Fixtures.tokenResponse() }
            return .json(404, ["error": ["code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND"]])
        })
        let client = try GoogleClient(
            credentials: .authorizedUser(Fixtures.authorizedUser), base: network, clock: ManualAPIClock(), random: FixedRandomSource([0]))
        do {
            _ = try await DriveClient(client: client).getFile(id: "missing")
            Issue.record("expected a not-found error")
        } catch {
            let text = "\(error) \(String(reflecting: error))"
            #expect(
                text.contains("404 NOT_FOUND 'Requested entity was not found.' on GET https://www.googleapis.com/drive/v3/files/missing"))
            for secret in [Fixtures.accessToken, Fixtures.refreshToken, Fixtures.clientSecret] { #expect(!text.contains(secret)) }
        }
        #expect(network.requests.last?.headers["Authorization"] == "Bearer \(Fixtures.accessToken)")
    }
}
