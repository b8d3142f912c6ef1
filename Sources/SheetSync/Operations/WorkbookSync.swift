import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues

/// `sheetsync pull`, `push` and `sync` (with `--materialize`): the store and the configured workbook
/// brought into step under one lock, queued receipts uploaded first (`SyncEngine` does the run).
public struct WorkbookSync: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// `pull`, `push` or `sync` under one lock.
    public func run(_ options: SyncOptions) async throws -> SyncReport {
        let remote = try workspace.makeRemote()
        try await workspace.requireWorkbook(remote)
        return try await workspace.withWorkbook(remote, preview: options.dryRun) { store in
            let receiptProblems = try await Receipts(workspace).uploadQueued(store: store, remote: remote, options: options)
            var report = try await workspace.engine(store: store, remote: remote).run(options)
            report.errors += receiptProblems
            report.preview(try Receipts(workspace).queuedPreview(store: store, remote: remote, options: options))
            return report
        }
    }

    /// `sync --materialize`: sync, materialize and sync again under one lock, for a single cron line.
    /// The first run is a whole sync, not a pull: a rule typed into the sheet without an id loads only
    /// once its id is written there, and then makes its instances in this same run.
    public func runMaterializing(_ options: SyncOptions) async throws -> SyncReport {
        let remote = try workspace.makeRemote()
        try await workspace.requireWorkbook(remote)
        return try await workspace.withWorkbook(remote, preview: options.dryRun) { store in
            let receiptProblems = try await Receipts(workspace).uploadQueued(store: store, remote: remote, options: options)
            let engine = workspace.engine(store: store, remote: remote)
            var pulled = try await engine.run(
                SyncOptions(
                    mode: .sync, dryRun: options.dryRun, allowMassDelete: options.allowMassDelete, listsChanges: options.listsChanges))
            pulled.errors += receiptProblems
            guard pulled.errors.isEmpty else { return pulled }
            let made = try RecurringRules(workspace).materialize(store: store, through: nil, dryRun: options.dryRun)
            if options.dryRun {
                pulled.changes += made.lines
                pulled.preview(try Receipts(workspace).queuedPreview(store: store, remote: remote, options: options))
                return pulled
            }
            var report = try await engine.run(
                SyncOptions(mode: .sync, allowMassDelete: options.allowMassDelete, listsChanges: options.listsChanges))
            report.command = "sync"
            if options.listsChanges { report.changes = pulled.changes + made.lines + report.changes }
            let unmade = made.rejected.map {
                SyncIssue.notice(.ruleProblem, at: .key($0.id, of: .recurringRules), $0.message, hint: $0.hint)
            }
            report.notices = pulled.notices + made.notices + unmade + report.notices
            report.newlyRejected = max(report.newlyRejected, pulled.newlyRejected)
            report.errors = receiptProblems + report.errors
            for (tab, t) in pulled.tabs {
                report.tabs[tab, default: .init()].added += t.added
                report.tabs[tab, default: .init()].updated += t.updated
                report.tabs[tab, default: .init()].deleted += t.deleted
            }
            return report
        }
    }
}
