import Crypto
import Foundation
import Interchange
import Testing
import _CryptoExtras

@testable import GoogleAPI

@Suite struct ServiceAccountTests {
    let key: _RSA.Signing.PrivateKey
    let credentials: ServiceAccountCredentials

    init() throws {
        key = try Fixtures.key()
        guard
            case .serviceAccount(let account) = try GoogleCredentials.parse(
                Array(Fixtures.serviceAccountJSON(key: key, tokenURI: "https://oauth2.example.test/token").utf8), path: "sa.json")
        else { throw GoogleAPIError.invalidResponse("not a service account") }
        credentials = account
    }

    @Test func credentialsFileFieldsAreRead() {
        #expect(credentials.clientEmail == "sync@demo.iam.gserviceaccount.com")
        #expect(credentials.privateKeyID == "kid-123")
        #expect(credentials.tokenURI == "https://oauth2.example.test/token")
    }

    @Test func jwtHasRS256HeaderClaimsAndAVerifyingSignature() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let jwt = try credentials.signedAssertion(scopes: GoogleScopes.all, now: now)
        let parts = jwt.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let header = try JSONValue.parse(try #require(Base64URL.decode(parts[0])))
        #expect(header["alg"] == "RS256")
        #expect(header["typ"] == "JWT")
        #expect(header["kid"] == "kid-123")
        let claims = try JSONValue.parse(try #require(Base64URL.decode(parts[1])))
        #expect(claims["iss"] == "sync@demo.iam.gserviceaccount.com")
        #expect(claims["scope"]?.stringValue == "https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.file")
        #expect(claims["aud"] == "https://oauth2.example.test/token")
        let issuedAt = try #require(claims["iat"]?.intValue)
        let expiry = try #require(claims["exp"]?.intValue)
        #expect(issuedAt == 1_800_000_000)
        #expect(expiry > issuedAt && expiry - issuedAt <= 3600)

        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        let digest = SHA256.hash(data: Array((parts[0] + "." + parts[1]).utf8))
        #expect(key.publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5))
        let tampered = SHA256.hash(data: Array((parts[0] + "." + parts[1] + "x").utf8))
        #expect(!key.publicKey.isValidSignature(signature, for: tampered, padding: .insecurePKCS1v1_5))
    }

    @Test func tokenRequestIsAJWTBearerFormPostToTheFilesTokenURI() async throws {
        let transport = ScriptedTransport([Fixtures.tokenResponse()])
        let provider = try OAuthTokenProvider(
            grant: .serviceAccount(credentials, scopes: GoogleScopes.all), endpoints: .production, transport: transport,
            clock: ManualAPIClock())
        #expect(try await provider.token(forceRefresh: false) == Fixtures.accessToken)
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://oauth2.example.test/token")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let form = Fixtures.form(request)
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        #expect(form["assertion"]?.split(separator: ".").count == 3)
    }

    @Test func endpointOverrideMovesTheTokenURIsOrigin() async throws {
        let transport = ScriptedTransport([Fixtures.tokenResponse()])
        let endpoints = try #require(GoogleEndpoints(endpoint: "http://127.0.0.1:9999"))
        let provider = try OAuthTokenProvider(
            grant: .serviceAccount(credentials, scopes: GoogleScopes.all), endpoints: endpoints, transport: transport,
            clock: ManualAPIClock())
        _ = try await provider.token(forceRefresh: false)
        #expect(transport.requests.first?.url.absoluteString == "http://127.0.0.1:9999/token")
    }

    @Test func invalidPrivateKeyIsReportedWithThePath() {
        let json =
            #"{"type":"service_account","client_email":"a@b","private_key":"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}"#
        #expect {
            _ = try GoogleCredentials.parse(Array(json.utf8), path: "/etc/sa.json")
        } throws: { error in
            "\(error)" == "credentials file '/etc/sa.json': private_key is not an RSA private key in PEM form"
        }
    }

    @Test func unknownCredentialTypeIsNamed() {
        #expect {
            _ = try GoogleCredentials.parse(Array(#"{"type":"external_account"}"#.utf8), path: "c.json")
        } throws: { error in
            "\(error)".contains("type is 'external_account', expected 'service_account' or 'authorized_user'")
        }
    }
}
