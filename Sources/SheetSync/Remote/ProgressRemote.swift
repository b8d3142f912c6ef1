import SheetSyncCore
import SheetValues

/// A remote that says what it is doing, for a progress line on a terminal.
struct ProgressRemote: Remote {
    let base: any Remote
    let report: @Sendable (String) -> Void

    var displayName: String { base.displayName }
    var typedCells: Bool { base.typedCells }
    var maxCellCharacters: Int? { base.maxCellCharacters }
    var receiptStorage: ReceiptStorage { base.receiptStorage }

    func exists() async throws -> Bool { try await base.exists() }
    func location(of tab: Tab) -> String { base.location(of: tab) }
    func currentVersion() async throws -> String? { try await base.currentVersion() }

    func read() async throws -> RemoteSnapshot { try await read(keyingRows: false) }

    func read(keyingRows: Bool) async throws -> RemoteSnapshot {
        report("reading \(base.displayName)…")
        let snapshot = try await base.read(keyingRows: keyingRows)
        let rows = snapshot.tables.values.reduce(0) { $0 + $1.rowCount }
        report("reconciling \(rows) rows…")
        return snapshot
    }

    func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite {
        let changes = plans.reduce(0) { $0 + $1.remoteUpdates.count + $1.remoteAppends.count + $1.remoteDeletes.count }
        report("writing \(changes) row changes to \(base.displayName)…")
        defer { report("saving the store…") }
        return try await base.apply(plans, to: snapshot)
    }

    func create(settings: LedgerRow) async throws -> CreatedWorkbook {
        report("creating \(base.displayName)…")
        var created = try await base.create(settings: settings)
        created.remote = ProgressRemote(base: created.remote, report: report)
        return created
    }
}
