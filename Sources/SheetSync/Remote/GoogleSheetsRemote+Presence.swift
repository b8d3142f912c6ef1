import GoogleAPI
import SheetSyncCore

extension GoogleSheetsRemote {
    /// A configured spreadsheet exists as far as a run can tell without a request (a quiet cron run
    /// costs no Sheets call): one that was deleted or is not shared fails the run's first read with
    /// 404/403, a configuration error (78), so it is never taken for an empty workbook.
    public func exists() async throws -> Bool { spreadsheetId != nil }

    public func location(of tab: Tab) -> String { "tab '\(tab.rawValue)' of \(displayName)" }
}
