import Foundation

extension Workspace {
    /// One-time OAuth consent for Google mode; returns the path of the authorized-user file written.
    public func authLogin(clientFile: URL, showURL: @Sendable (String) -> Void) async throws -> URL {
        throw SheetSyncError.configuration("Google sign-in is not available in this build yet")
    }
}
