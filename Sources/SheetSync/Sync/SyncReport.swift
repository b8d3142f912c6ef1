import SheetSyncCore
import SheetSyncStore

/// What a run did, for people (`summary`) and for scripts (`--json`).
public struct SyncReport: Codable, Sendable {
    public struct TabReport: Codable, Sendable {
        /// Rows added, updated and deleted in the local store; rows rejected.
        public var added = 0
        public var updated = 0
        public var deleted = 0
        public var rejected = 0
        /// Rows written to the workbook.
        public var remote = TabCounts()
    }

    public var command: String
    public var dryRun: Bool
    public var tabs: [String: TabReport] = [:]
    public var rejected: [Rejection] = []
    /// Rejections that are new or changed since the last run (these make the run exit 65).
    public var newlyRejected = 0
    public var conflicts = 0
    public var notices: [SyncIssue] = []
    /// What a person should read even without --verbose (printed unless --quiet or --json).
    public var headlines: [String] = []
    /// Problems that held changes back (a tab that cannot be read, the mass-delete guard).
    public var errors: [SyncIssue] = []
    /// Planned changes, one line each (filled on `--dry-run` and `--verbose`).
    public var changes: [String] = []
    /// True when the run found nothing to do without reading the whole workbook.
    public var upToDate = false
    /// An import's own counts (`sheetsync import` of a workbook; absent for other commands).
    public var imported: ImportCounts?

    public init(command: String, dryRun: Bool) {
        self.command = command
        self.dryRun = dryRun
    }

    /// 0 when all is well; 65 when rows were rejected for the first time (or changed) or a guard held
    /// changes back.
    public var exitCode: ProcessExitCode { (newlyRejected > 0 || !errors.isEmpty) ? .dataError : .ok }

    /// Adds planned work beyond the tabs' (queued uploads) to a dry run's plan; a run with such work
    /// is not "up to date".
    mutating func preview(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        changes += lines
        upToDate = false
    }

    /// A run a guard held back whole: no tab changed (its rejections stand).
    mutating func heldBack() {
        for (name, tab) in tabs {
            var kept = TabReport()
            kept.rejected = tab.rejected
            tabs[name] = kept
        }
    }

    public var hasChanges: Bool {
        tabs.values.contains { $0.added + $0.updated + $0.deleted + $0.remote.added + $0.remote.updated + $0.remote.deleted > 0 }
    }

    /// One line per tab with changes, e.g. `Transactions: local +2 ~1 -0, workbook +0 ~3 -0, 1 rejected`.
    public var summaryLines: [String] {
        Tab.allCases.compactMap { tab in
            guard let t = tabs[tab.rawValue] else { return nil }
            let local = t.added + t.updated + t.deleted, remote = t.remote.added + t.remote.updated + t.remote.deleted
            guard local + remote + t.rejected > 0 else { return nil }
            var parts: [String] = []
            if local > 0 { parts.append("store +\(t.added) ~\(t.updated) -\(t.deleted)") }
            if remote > 0 { parts.append("workbook +\(t.remote.added) ~\(t.remote.updated) -\(t.remote.deleted)") }
            if t.rejected > 0 { parts.append("\(t.rejected) rejected") }
            return "\(tab.rawValue): \(parts.joined(separator: ", "))"
        }
    }
}

extension SyncReport {
    /// `check`'s lines: per tab read, the rows a sync can load and the rows it rejects. A check plans
    /// against an empty store, so `summaryLines`' "store +N" would read as N rows waiting to load.
    public var checkLines: [String] {
        Tab.allCases.compactMap { tab in
            guard let t = tabs[tab.rawValue] else { return nil }
            let valid = "\(t.added) valid row\(t.added == 1 ? "" : "s")"
            return "\(tab.rawValue): \(valid)" + (t.rejected > 0 ? ", \(t.rejected) rejected" : "")
        }
    }

    /// Counts, notices and rejections of planned tabs; `previous` is the rejected-row log as the
    /// last run left it (a rejection not in it is new and makes the run exit 65).
    /// - Parameter now: when given, a rejection gets the time it was first seen as the rejected-row
    ///   log keeps it (from `previous`, else `now`).
    mutating func fill(plans: [TabPlan], previous: [Rejection], now: Timestamp? = nil) {
        var earlier: [String: String] = [:]
        for row in previous { earlier[row.identity] = row.firstSeenAt }
        for plan in plans {
            var t = TabReport()
            t.added = plan.localCounts.added
            t.updated = plan.localCounts.updated
            t.deleted = plan.localCounts.deleted
            t.rejected = plan.rejections.count
            t.remote = plan.remoteCounts
            t.remote.rejected = 0
            tabs[plan.tab.rawValue] = t
            notices += plan.notices
            conflicts += plan.conflicts.count
            for var rejection in plan.rejections {
                let seenAt = earlier[rejection.identity]
                if let now { rejection.firstSeenAt = seenAt ?? now.description }
                rejected.append(rejection)
                if seenAt == nil { newlyRejected += 1 }
            }
        }
    }
}
