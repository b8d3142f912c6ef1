import Foundation
import GoogleAPI
import Logging

/// Builds the remote a config names.
enum RemoteFactory {
    static func make(_ config: Config.RemoteConfig, backupsToKeep: Int, logger: Logger) throws -> any Remote {
        switch config {
        case .csv(let folder):
            return CSVWorkbookRemote(folder: folder, backupsToKeep: backupsToKeep)
        case .xlsx(let file):
            return XLSXWorkbookRemote(file: file, backupsToKeep: backupsToKeep)
        case .google(let google):
            let client: GoogleClient
            do {
                client = try GoogleClient(
                    credentialsPath: google.credentials.path, endpoint: google.endpoint,
                    policy: RetryPolicy(totalBudget: google.retryBudgetSeconds), logger: logger)
            } catch {
                throw SheetSyncError.configuration("\(error)").causedBy(error)
            }
            return GoogleSheetsRemote(
                client: client, spreadsheetId: google.spreadsheetId, maxRequestBytes: google.maxRequestBytes, logger: logger)
        }
    }
}
