import Foundation
import GoogleAPI
import Interchange
import SheetSync
import SheetSyncCore
import SheetsEmulator
import TestSupport
import Testing

/// `sheetsync auth login` against the emulator, the test playing the browser: the consent URL points at
/// the emulator, the loopback redirect completes the login, and the credentials it writes drive a sync.
@Suite struct GoogleAuthLoginTests {
    /// The browser's part, run once the consent URL is shown: the user consents (the emulator issues a code
    /// bound to the URL's client, redirect and PKCE challenge), then Google redirects to the loopback listener.
    final class Browser: @unchecked Sendable {
        private let lock = NSLock()
        private var task: Task<LoopbackBrowser.Answer, any Error>?
        private(set) var consentURL: URL? {
            get { lock.withLock { shown } }
            set { lock.withLock { shown = newValue } }
        }
        private var shown: URL?

        func consent(_ text: String, bed: GoogleTestBed, client: (id: String, secret: String), grantedScope: String? = nil) {
            guard let url = URL(string: text) else { return }
            consentURL = url
            let query = Dictionary(URLEncoding.queryItems(url.query(percentEncoded: true) ?? ""), uniquingKeysWith: { first, _ in first })
            let redirect = query["redirect_uri"] ?? ""
            bed.emulator.registerAuthorizationCode(
                "4/emulator-code", clientId: client.id, clientSecret: client.secret, redirectURI: redirect,
                codeChallenge: query["code_challenge"], codeChallengeMethod: query["code_challenge_method"] ?? "S256",
                grantedScope: grantedScope)
            let started = Task {
                guard let back = URL(string: redirect + "?code=4%2Femulator-code&state=" + (query["state"] ?? "")) else {
                    throw GoogleAPIError.loginFailed("bad redirect '\(redirect)'")
                }
                return try await LoopbackBrowser.get(back)
            }
            lock.withLock { task = started }
        }

        func redirectAnswer() async throws -> LoopbackBrowser.Answer? { try await lock.withLock { task }?.value }
    }

    /// A Desktop OAuth client's JSON as the Cloud console downloads it, and no credentials yet.
    static func desktopClient(in bed: GoogleTestBed) throws -> (client: (id: String, secret: String), file: URL) {
        let client = (id: "desktop.apps.googleusercontent.com", secret: "desktop-secret")
        let clientFile = bed.folder.appendingPathComponent("client.json")
        let installed: [String: Any] = [
            "installed": [
                "client_id": client.id, "client_secret": client.secret, "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                "token_uri": "https://oauth2.googleapis.com/token", "redirect_uris": ["http://localhost"],
            ]
        ]
        try JSONSerialization.data(withJSONObject: installed).write(to: clientFile)
        try FileManager.default.removeItem(at: bed.credentialsURL)
        return (client, clientFile)
    }

    @Test func authLoginWritesPrivateCredentialsThatInitAndSyncUse() async throws {
        let bed = try await GoogleTestBed.start("g-login")
        let (client, clientFile) = try Self.desktopClient(in: bed)
        let browser = Browser()
        let written = try await LedgerSetup(Workspace(config: try bed.config())).authLogin(clientFile: clientFile) { url in
            browser.consent(url, bed: bed, client: client)
        }
        #expect(try await browser.redirectAnswer()?.status == 200)
        // The consent page is the emulator's (the endpoint override moves Google's origins).
        #expect(browser.consentURL?.absoluteString.hasPrefix(bed.emulator.baseURL + "/o/oauth2/auth?") == true)
        #expect(written.standardizedFileURL == bed.credentialsURL.standardizedFileURL)
        let mode = try FileManager.default.attributesOfItem(atPath: bed.credentialsURL.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        guard case .authorizedUser(let user) = try GoogleCredentials.load(path: bed.credentialsURL.path) else {
            Issue.record("auth login did not write an authorized_user document")
            return
        }
        #expect(user.clientID == client.id)
        // The new credentials work: init creates the spreadsheet, sync is quiet.
        let initialized = try await bed.cli("init")
        #expect(initialized.status == 0, "\(initialized.stderr)")
        #expect(try bed.sheetRecords(.settings).count == 1)
        #expect(try await bed.cli("sync").status == 0)
        await bed.finish()
    }

    @Test func aLoginWithoutEveryPermissionIsRefusedAndWritesNoCredentials() async throws {
        let bed = try await GoogleTestBed.start("g-login-scope")
        let (client, clientFile) = try Self.desktopClient(in: bed)
        let browser = Browser()
        await #expect {
            _ = try await LedgerSetup(Workspace(config: try bed.config())).authLogin(clientFile: clientFile) { url in
                browser.consent(url, bed: bed, client: client, grantedScope: "https://www.googleapis.com/auth/spreadsheets")
            }
        } throws: { error in
            "\(error)".contains("drive.file") && "\(error)".contains("auth login")
        }
        _ = try? await browser.redirectAnswer()
        #expect(!FileManager.default.fileExists(atPath: bed.credentialsURL.path))
        await bed.finish()
    }
}
