import Foundation
import Logging
import SheetSyncCore
import SheetSyncStore

/// Which directions a run moves changes in.
public enum SyncMode: String, Sendable, Codable {
    case pull, push, sync
}

public struct SyncOptions: Sendable {
    public var mode: SyncMode
    public var dryRun = false
    public var allowMassDelete = false

    public init(mode: SyncMode, dryRun: Bool = false, allowMassDelete: Bool = false) {
        self.mode = mode
        self.dryRun = dryRun
        self.allowMassDelete = allowMassDelete
    }
}

/// Pulls, pushes or syncs one store with one remote workbook (DESIGN §4). The caller holds the run lock.
public struct SyncEngine: Sendable {
    public let store: LedgerStore
    public let remote: any Remote
    public let clock: any Clock
    public let newID: @Sendable () -> String
    /// The time zone of a dataset created by this run.
    public let defaultTimeZone: String
    public let logger: Logger

    public init(store: LedgerStore, remote: any Remote, clock: any Clock = SystemClock(),
                newID: @escaping @Sendable () -> String = RandomIDs.make, defaultTimeZone: String = "UTC",
                logger: Logger = Logger(label: "sheetsync")) {
        self.store = store
        self.remote = remote
        self.clock = clock
        self.newID = newID
        self.defaultTimeZone = defaultTimeZone
        self.logger = logger
    }

    static let stateDataset = "datasetId"
    static let stateRemoteVersion = "remoteVersion"
    static let stateCounter = "changeCounterAtSync"
    static let stateLastSync = "lastSyncAt"

    public func run(_ options: SyncOptions) async throws -> SyncReport {
        var report = SyncReport(command: options.mode.rawValue, dryRun: options.dryRun)
        if try await isUpToDate(store.glance()) {
            report.upToDate = true
            report.rejected = try store.rejectedRows().map(SyncReport.RejectedEntry.init)
            return report
        }
        let before = try store.snapshot()
        let snapshot = try await readRemote()
        let now = clock.now()
        var read = try WorkbookReading(snapshot: snapshot, now: now)
        try checkDataset(read.settingsRecord, state: before.state)
        let local = try ensureSettings(before, remoteSettings: read.settingsRecord, now: now)
        var plans = Planner(read: read, local: local, now: now, newID: newID).plans()
        read.tabErrors.forEach { report.errors.append($0.description) }

        restrict(&plans, to: options.mode, base: local.base)
        if let limit = remote.maxCellCharacters { OverlongValues.holdBack(&plans, limit: limit, base: local.base) }
        let guardTrips = massDeleteTrips(plans, base: local.base)
        if !guardTrips.isEmpty && !options.allowMassDelete {
            report.errors += guardTrips
            fill(&report, plans: plans, previous: try store.rejectedRows())
            report.changes = PlanPrinter.lines(plans)
            return report
        }
        fill(&report, plans: plans, previous: try store.rejectedRows())
        if options.dryRun {
            report.changes = PlanPrinter.lines(plans)
            return report
        }
        var newVersion = snapshot.version
        if options.mode != .pull, plans.contains(where: \.changesRemote) {
            newVersion = try await writeRemote(plans, snapshot: snapshot)
        }
        let converged = options.mode == .sync && read.tabErrors.isEmpty
        let outcome = try store.commit(commit(for: plans, local: local, datasetId: read.settingsRecord?["datasetId"],
                                              remoteVersion: converged ? newVersion : nil, now: now))
        for (tab, keys) in outcome.skipped where !keys.isEmpty {
            report.notices.append("\(tab.rawValue): \(keys.count) row(s) changed in the store during this run; they sync next run")
        }
        return report
    }

    /// A quiet run costs one cheap look on each side: the store's change counter and the remote's version.
    private func isUpToDate(_ glance: StoreGlance) async throws -> Bool {
        guard let recorded = glance.state[Self.stateRemoteVersion],
              glance.state[Self.stateCounter] == String(glance.changeCounter),
              !glance.hasTombstones
        else { return false }
        return try await remote.currentVersion() == recorded
    }

    private func readRemote() async throws -> RemoteSnapshot {
        do { return try await remote.read() } catch let error as SheetSyncError { throw error }
    }

    private func writeRemote(_ plans: [TabPlan], snapshot: RemoteSnapshot) async throws -> String {
        try await remote.apply(plans, to: snapshot)
    }

    private func checkDataset(_ settings: Record?, state: [String: String]) throws {
        guard let settings else { return }
        if let bound = state[Self.stateDataset], !bound.isEmpty, bound != settings["datasetId"] {
            throw SheetSyncError.configuration(
                "\(remote.displayName) belongs to dataset \(settings["datasetId"]) but this store is bound to dataset \(bound); use `sheetsync import` to bring in another dataset's workbook")
        }
        if let version = Int(settings["schemaVersion"]), version > 1 {
            throw SheetSyncError.configuration(
                "\(remote.displayName) has schemaVersion \(version), newer than this sheetsync supports (1); upgrade sheetsync")
        }
    }

    /// A dataset needs its one Settings row: created locally (and so pushed) when neither side has it.
    private func ensureSettings(_ snapshot: StoreSnapshot, remoteSettings: Record?, now: Timestamp) throws -> StoreSnapshot {
        guard remoteSettings == nil, (snapshot.rows[.settings] ?? [:]).isEmpty else { return snapshot }
        let stamp = now.description
        let record = Record([
            "datasetId": snapshot.state[Self.stateDataset] ?? newID(), "schemaVersion": "1", "timezone": defaultTimeZone,
            "rootFolderId": "", "dataSpreadsheetId": "", "receiptsFolderId": "", "createdAt": stamp, "lastModifiedAt": stamp,
        ])
        try store.upsert(record, in: .settings)
        try store.setState(Self.stateDataset, record["datasetId"])
        return try store.snapshot()
    }

    /// `pull` moves changes into the store only, `push` into the workbook only; what stays behind keeps
    /// its old base, so the next run still sees it as a change.
    private func restrict(_ plans: inout [TabPlan], to mode: SyncMode, base: [Tab: [String: Record]]) {
        guard mode != .sync else { return }
        for i in plans.indices {
            let tabBase = base[plans[i].tab] ?? [:]
            func keepOldBase(_ key: String) {
                if let b = tabBase[key] { plans[i].base[key] = b } else { plans[i].base.removeValue(forKey: key) }
            }
            if mode == .pull {
                let keyField = plans[i].tab.schema.keyField
                let newKeys = Set(plans[i].remoteUpdates.filter { $0.fields[keyField] != nil }.map(\.key))
                plans[i].remoteUpdates.forEach { keepOldBase($0.key) }
                plans[i].remoteAppends.forEach { keepOldBase($0[keyField]) }
                plans[i].remoteDeletes.forEach { keepOldBase($0.key) }
                // A hand-added row gets its id on the first push; loading it before would mint a second id.
                plans[i].localUpserts.removeAll { newKeys.contains($0.record[keyField]) }
                plans[i].remoteUpdates = []
                plans[i].remoteAppends = []
                plans[i].remoteDeletes = []
                plans[i].remoteCounts = TabCounts()
            } else {
                plans[i].localUpserts.forEach { keepOldBase($0.record[plans[i].tab.schema.keyField]) }
                plans[i].localDeletes.forEach { keepOldBase($0.key) }
                plans[i].localUpserts = []
                plans[i].localDeletes = []
                plans[i].localCounts = TabCounts()
            }
        }
    }

    /// A run that would delete more than half of a tab's rows (and more than 10) stops.
    private func massDeleteTrips(_ plans: [TabPlan], base: [Tab: [String: Record]]) -> [String] {
        plans.compactMap { plan in
            let rows = base[plan.tab]?.count ?? 0
            for (count, side) in [(plan.localDeletes.count, "the store"), (plan.remoteDeletes.count, "the workbook")]
            where count > 10 && count * 2 > rows {
                return "\(plan.tab.rawValue): this run would delete \(count) of \(rows) rows from \(side); nothing was changed. If that is intended, run again with --allow-mass-delete"
            }
            return nil
        }
    }

    private func fill(_ report: inout SyncReport, plans: [TabPlan], previous: [RejectedRow]) {
        let seen = Set(previous.map(\.identity))
        for plan in plans {
            var t = SyncReport.TabReport()
            t.added = plan.localCounts.added
            t.updated = plan.localCounts.updated
            t.deleted = plan.localCounts.deleted
            t.rejected = plan.rejections.count
            t.remote = plan.remoteCounts
            t.remote.rejected = 0
            report.tabs[plan.tab.rawValue] = t
            report.notices += plan.notices
            report.conflicts += plan.conflicts.count
            for rejection in plan.rejections {
                report.rejected.append(SyncReport.RejectedEntry(rejection))
                if !seen.contains(RejectedRow(rejection, firstSeenAt: "").identity) { report.newlyRejected += 1 }
            }
        }
    }

    private func commit(for plans: [TabPlan], local: StoreSnapshot, datasetId: String?, remoteVersion: String?, now: Timestamp) -> StoreCommit {
        var commit = StoreCommit()
        var previous: [String: RejectedRow] = [:]
        for row in (try? store.rejectedRows()) ?? [] { previous[row.identity] = row }
        var rejected: [RejectedRow] = []
        for plan in plans {
            let tab = plan.tab
            commit.upserts[tab] = plan.localUpserts.map { RowWrite(record: $0.record, expected: $0.expected) }
            commit.deletes[tab] = plan.localDeletes.map { SheetSyncStore.RowDelete(key: $0.key, expected: $0.expected) }
            let oldBase = local.base[tab] ?? [:]
            commit.baseUpserts[tab] = plan.base.filter { oldBase[$0.key] != $0.value }.map(\.value)
            commit.baseDeletes[tab] = oldBase.keys.filter { plan.base[$0] == nil }
            commit.clearTombstones[tab] = plan.clearedTombstones.filter { local.tombstones[tab]?[$0] != nil }
            commit.conflicts += plan.conflicts.map { ConflictEntry($0, resolvedAt: now.description) }
            for rejection in plan.rejections {
                let row = RejectedRow(rejection, firstSeenAt: now.description)
                rejected.append(previous[row.identity].map { var kept = row; kept.firstSeenAt = $0.firstSeenAt; return kept } ?? row)
            }
        }
        commit.rejected = rejected
        if let datasetId, !datasetId.isEmpty { commit.state[Self.stateDataset] = datasetId }
        commit.state[Self.stateLastSync] = now.description
        commit.state[Self.stateRemoteVersion] = .some(remoteVersion)
        commit.state[Self.stateCounter] = String(local.changeCounter)
        return commit
    }
}
