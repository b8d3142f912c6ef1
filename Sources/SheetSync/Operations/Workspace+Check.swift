import Foundation
import SheetSyncCore
import SheetSyncStore

extension Workspace {
    /// Validates a workbook (the configured remote, or the CSV folder / `.xlsx` at `path`) the way a
    /// sync would read it, changing nothing anywhere. Every problem row is reported.
    public func check(path: String?) async throws -> SyncReport {
        let remote: any Remote
        if let path {
            remote = try Self.remote(at: URL(fileURLWithPath: path))
        } else {
            remote = try makeRemote()
        }
        let snapshot = try await remote.read()
        let read = try WorkbookReading(snapshot: snapshot, now: clock.now())
        // Against an empty store, every readable row is "new": the plan's rejections and notices are
        // exactly the workbook's problems.
        let empty = try LedgerStore.inMemory().snapshot()
        let plans = Planner(read: read, local: empty, now: clock.now(), newID: newID).plans()
        var report = SyncReport(command: "check", dryRun: true)
        report.errors = read.tabErrors.map(\.description)
        report.notices += snapshot.notices
        for plan in plans {
            var t = SyncReport.TabReport()
            t.added = plan.result.count
            t.rejected = plan.rejections.count
            report.tabs[plan.tab.rawValue] = t
            report.notices += plan.notices
            report.rejected += plan.rejections.map(SyncReport.RejectedEntry.init)
        }
        report.newlyRejected = report.rejected.count
        return report
    }

    /// The workbook at a path: a folder is a CSV workbook, a `.xlsx` file an XLSX workbook.
    static func remote(at url: URL) throws -> any Remote {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SheetSyncError(.usage, "\(url.path) does not exist")
        }
        if isDirectory.boolValue { return CSVWorkbookRemote(folder: url) }
        if XLSXWorkbookRemote.isWorkbookFile(url) { return XLSXWorkbookRemote(file: url) }
        throw SheetSyncError(.usage, "\(url.path) is neither a CSV workbook folder nor an .xlsx/.xlsm/.xltx/.xltm file")
    }
}

extension SyncReport.RejectedEntry {
    init(_ rejection: Rejection) {
        self.init(tab: rejection.tab.rawValue, row: rejection.row, id: rejection.id, message: rejection.message, hint: rejection.hint)
    }
}
