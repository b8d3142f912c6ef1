import Foundation
import GoogleAPI
import Logging

/// Builds the remote a config names, or reads the workbook at a path as one.
enum RemoteFactory {
    static func make(_ config: Config.RemoteConfig, backupsToKeep: Int, logger: Logger) throws -> any Remote {
        switch config {
        case .csv(let folder):
            try requireKind(folder, isFolder: true)
            return CSVWorkbookRemote(folder: folder, backupsToKeep: backupsToKeep)
        case .xlsx(let file):
            try requireKind(file, isFolder: false)
            return XLSXWorkbookRemote(file: file, backupsToKeep: backupsToKeep)
        case .google(let google):
            let client: GoogleClient
            do {
                client = try GoogleClient(
                    credentialsPath: google.credentials.path, endpoint: google.endpoint,
                    policy: RetryPolicy(totalBudget: google.retryBudgetSeconds), logger: logger)
            } catch {
                // The credentials file (missing, readable by others, no key or login in it).
                throw GoogleRemoteErrors.map(error)
            }
            return GoogleSheetsRemote(
                client: client, spreadsheetId: google.spreadsheetId, maxRequestBytes: google.maxRequestBytes, logger: logger)
        }
    }

    /// A file workbook's path, when something is there, must be what its type reads: a folder of
    /// CSV files, or one `.xlsx` file. (A missing one is the sync's "workbook is missing".)
    private static func requireKind(_ url: URL, isFolder: Bool) throws {
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &folder), folder.boolValue != isFolder else { return }
        throw SheetSyncError.configuration(
            isFolder
                ? "the config's remote.path \(url.path) is a file; a \"csv\" remote is the folder holding the five "
                    + ".csv files (for an .xlsx file use \"type\": \"xlsx\")"
                : "the config's remote.path \(url.path) is a folder; an \"xlsx\" remote is one .xlsx file "
                    + "(for a folder of .csv files use \"type\": \"csv\")"
        ).coded(.configInvalid)
    }

    /// The workbook at a path: a folder is a CSV workbook, a `.xlsx` file an XLSX workbook.
    static func workbook(at url: URL) throws -> any Remote {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SheetSyncError(.usage, "\(url.path) does not exist")
        }
        if isDirectory.boolValue { return CSVWorkbookRemote(folder: url) }
        if XLSXWorkbookRemote.isWorkbookFile(url) { return XLSXWorkbookRemote(file: url, refusal: .dataError) }
        throw SheetSyncError(.usage, "\(url.path) is neither a CSV workbook folder nor an .xlsx/.xlsm/.xltx/.xltm file")
    }
}
