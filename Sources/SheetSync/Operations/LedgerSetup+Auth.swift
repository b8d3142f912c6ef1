import Foundation
import GoogleAPI

extension LedgerSetup {
    /// One-time OAuth consent for Google mode (loopback redirect on 127.0.0.1, PKCE). Writes the
    /// authorized-user file named by the config's `remote.credentials` with mode 0600; returns its path.
    public func authLogin(clientFile: URL, showURL: @escaping @Sendable (String) -> Void) async throws -> URL {
        guard case .google(let google) = workspace.config.remote else {
            throw SheetSyncError.configuration("auth login is for Google mode: set remote.type to 'google' in the config")
        }
        do {
            let client = try InstalledAppClient.load(path: clientFile.path)
            let endpoints = GoogleEndpoints(endpoint: google.endpoint)
            let transport = RetryingTransport(
                base: CurlTransport(logger: workspace.logger), policy: RetryPolicy(totalBudget: google.retryBudgetSeconds),
                clock: SystemAPIClock(), random: SystemRandomSource(), logger: workspace.logger)
            let oauth = LoopbackOAuth(client: client, endpoints: endpoints, transport: transport)
            _ = try await oauth.login(savingTo: google.credentials.path) { showURL($0.absoluteString) }
            return google.credentials
        } catch let error as GoogleAPIError {
            throw (error.isTemporary ? SheetSyncError.temporary("\(error)") : SheetSyncError.configuration("\(error)")).causedBy(error)
        }
    }
}
