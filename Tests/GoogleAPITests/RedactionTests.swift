import Foundation
import Testing

@testable import GoogleAPI

@Suite struct RedactionTests {
    static let secret = "ya29.a0AfH6SMBsecretTOKENvalue"

    @Test func authorizationHeaderLinesAreRedacted() {
        let text = "GET /v4/spreadsheets HTTP/1.1\r\nHost: x\r\nauthorization: Bearer \(Self.secret)\r\nAccept: */*\r\n"
        let redacted = Redaction.redact(text)
        #expect(!redacted.contains(Self.secret))
        #expect(redacted.contains("authorization: REDACTED\r\n"))
        #expect(redacted.contains("Accept: */*"))
    }

    @Test func tokenFieldsInJSONAreRedactedButErrorCodesStay() throws {
        let body =
            #"{"access_token": "\#(Self.secret)", "refresh_token":"1//rt-\#(Self.secret)", "expires_in": 3599, "error": {"code": 403}}"#
        let redacted = Redaction.redact(body)
        #expect(!redacted.contains(Self.secret))
        // Still JSON, with only the secrets replaced.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(redacted.utf8)) as? [String: Any])
        #expect(json["access_token"] as? String == "REDACTED")
        #expect(json["refresh_token"] as? String == "REDACTED")
        #expect(json["expires_in"] as? Int == 3599)
        #expect((json["error"] as? [String: Any])?["code"] as? Int == 403)
    }

    @Test func formFieldsAreRedacted() {
        let form = "grant_type=refresh_token&client_id=abc&client_secret=s3cr3t&refresh_token=\(Self.secret)"
        let redacted = Redaction.redact(form)
        #expect(redacted == "grant_type=refresh_token&client_id=abc&client_secret=REDACTED&refresh_token=REDACTED")
        let jwt = Redaction.redact("grant_type=x&assertion=eyJhbGciOi.eyJpc3Mi.c2ln")
        #expect(jwt == "grant_type=x&assertion=REDACTED")
    }

    @Test func bearerTokensAnywhereAreRedacted() {
        #expect(Redaction.redact("sent Bearer \(Self.secret) to x") == "sent Bearer REDACTED to x")
    }

    @Test func debugBodyTraceIsRedactedAndCut() {
        let body = Array(#"{"access_token":"\#(Self.secret)"}"#.utf8) + Array(repeating: UInt8(ascii: " "), count: 5000)
        let line = CurlExchange.describeBody(body)
        #expect(!line.contains(Self.secret))
        #expect(line.hasSuffix("(\(body.count) bytes)"))
        #expect(CurlExchange.describeBody([0xFF, 0xFE, 0x00]) == "<3 bytes of binary data>")
    }

    @Test func secretsQuotedWithoutTheirNamesAreRedactedByShape() {
        let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4QHkuY29tIn0.c2lnbmF0dXJl"
        let text = "bad request: ya29.a0AfB_byC-secret, refresh 1//0gAbC-def_ghi, client GOCSPX-AbCdEf123, jwt \(jwt)."
        let redacted = Redaction.redact(text)
        for secret in ["ya29.a0", "1//0g", "GOCSPX-Ab", "eyJ"] { #expect(!redacted.contains(secret), "\(redacted)") }
        #expect(redacted == "bad request: REDACTED, refresh REDACTED, client REDACTED, jwt REDACTED")
        // Paths and ordinary words stay readable.
        #expect(
            Redaction.redact("GET https://sheets.googleapis.com/v4/spreadsheets/1AbC")
                == "GET https://sheets.googleapis.com/v4/spreadsheets/1AbC")
    }

    @Test func privateKeysAreRedacted() {
        let text = "key: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\nnext"
        #expect(Redaction.redact(text) == "key: REDACTED\nnext")
    }

    @Test func googleErrorMessagesAreRedactedWhenRead() {
        let body =
            #"{"error":{"code":400,"message":"Invalid: Authorization: Bearer ya29.xyz assertion=eyJa.eyJb.c","status":"INVALID_ARGUMENT"}}"#
        let details = GoogleErrorDetails(response: HTTPResponse(status: 400, body: Array(body.utf8)), target: "POST /x")
        #expect(!details.message.contains("ya29") && !details.message.contains("eyJ"), "\(details.message)")
    }
}
