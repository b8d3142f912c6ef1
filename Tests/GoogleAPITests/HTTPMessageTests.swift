import Foundation
import Testing

@testable import GoogleAPI

@Suite struct HTTPMessageTests {
    @Test func headerNamesAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(headers["content-type"] == "text/plain")
        headers["CONTENT-TYPE"] = "application/json"
        #expect(headers.values(for: "Content-Type") == ["application/json"])
        headers.add("Set-Cookie", "a")
        headers.add("set-cookie", "b")
        #expect(headers.values(for: "SET-COOKIE") == ["a", "b"])
        #expect(HTTPHeaders([("A", "1")]) == HTTPHeaders([("a", "1")]))
    }

    @Test func idempotencyDefaultsFollowTheMethod() throws {
        let url = try #require(URL(string: "https://example.invalid/"))
        #expect(HTTPRequest(method: .get, url: url).isIdempotent)
        #expect(HTTPRequest(method: .put, url: url).isIdempotent)
        #expect(!HTTPRequest(method: .post, url: url).isIdempotent)
        #expect(HTTPRequest(method: .post, url: url, isIdempotent: true).isIdempotent)
    }

    @Test func queryComponentsArePercentEncoded() {
        #expect(URLEncoding.component("'My Tab'!A1:N") == "%27My%20Tab%27%21A1%3AN")
        #expect(URLEncoding.component("a+b/c?d&e=f~g_h.i-j") == "a%2Bb%2Fc%3Fd%26e%3Df~g_h.i-j")
        #expect(URLEncoding.component("é") == "%C3%A9")
        #expect(URLEncoding.decode("%27My+Tab%27%21A1") == "'My Tab'!A1")
    }

    @Test func endpointOverrideReplacesEveryOriginAndTheTokenURIs() throws {
        let endpoints = try #require(GoogleEndpoints(endpoint: "http://127.0.0.1:8089/emu"))
        let sheets = try endpoints.sheetsURL(path: "/v4/spreadsheets/abc/values:batchGet", query: [("ranges", "'A B'!A1")])
        #expect(
            sheets.absoluteString
                == "http://127.0.0.1:8089/emu/v4/spreadsheets/abc/values:batchGet?ranges=%27A%20B%27%21A1&prettyPrint=false")
        #expect(
            try endpoints.driveURL(path: "/drive/v3/files").absoluteString == "http://127.0.0.1:8089/emu/drive/v3/files?prettyPrint=false")
        #expect(try endpoints.tokenURL("https://oauth2.googleapis.com/token").absoluteString == "http://127.0.0.1:8089/emu/token")
        #expect(try endpoints.tokenURL(nil).absoluteString == "http://127.0.0.1:8089/emu/token")
        #expect(GoogleEndpoints(endpoint: "not a url") == nil)
    }

    @Test func everyAPICallAsksForCompactJSON() throws {
        let endpoints = GoogleEndpoints.production
        for url in [
            try endpoints.sheetsURL(path: "/v4/spreadsheets/x", query: [("fields", "a")]), try endpoints.driveURL(path: "/drive/v3/files"),
        ] {
            #expect(
                URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.filter { $0.name == "prettyPrint" }.map(\.value) == [
                    "false"
                ])
        }
    }

    @Test func productionEndpointsAreGoogles() throws {
        let endpoints = GoogleEndpoints.production
        #expect(
            try endpoints.sheetsURL(path: "/v4/spreadsheets").absoluteString
                == "https://sheets.googleapis.com/v4/spreadsheets?prettyPrint=false")
        #expect(
            try endpoints.driveURL(path: "/drive/v3/files").absoluteString == "https://www.googleapis.com/drive/v3/files?prettyPrint=false")
        #expect(try endpoints.tokenURL("https://example.test/custom/token").absoluteString == "https://example.test/custom/token")
    }
}
