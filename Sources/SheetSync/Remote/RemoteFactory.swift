import Foundation
import Logging

/// Builds the remote a config names.
enum RemoteFactory {
    static func make(_ config: Config.RemoteConfig, backupsToKeep: Int, logger: Logger) throws -> any Remote {
        switch config {
        case .csv(let folder):
            return CSVWorkbookRemote(folder: folder, backupsToKeep: backupsToKeep)
        case .xlsx(let file):
            return XLSXWorkbookRemote(file: file, backupsToKeep: backupsToKeep)
        case .google:
            throw SheetSyncError.configuration("remote.type 'google' is not available in this build yet")
        }
    }
}
