import Foundation
import GoogleAPI
import Logging
import SheetSyncCore

/// A Google Sheets spreadsheet (Sheets API v4) with its Drive folder.
///
/// Costs per sync: one `values.batchGet` reads all five tabs; before writing, one `spreadsheets.get`
/// re-reads the key columns (and the tabs' sheet ids) so that rows inserted, deleted or sorted by hand
/// in between are found by key, never written by stale position; then one `spreadsheets.batchUpdate`
/// carries every change (cell updates with RAW values, row deletes, row inserts). So at most 2 reads
/// and 1 write, whatever the number of changed rows. A quiet cron run costs one Drive `files.get` of
/// the spreadsheet's `version` (where Drive metadata is reachable).
public final class GoogleSheetsRemote: Remote, @unchecked Sendable {
    public let sheets: SheetsClient
    public let drive: DriveClient
    let logger: Logger
    private let lock = NSLock()
    private var id: String?
    private var driveReachable = true

    public init(client: GoogleClient, spreadsheetId: String?, logger: Logger) {
        sheets = SheetsClient(client: client)
        drive = DriveClient(client: client)
        id = spreadsheetId
        self.logger = logger
    }

    public var spreadsheetId: String? { lock.withLock { id } }
    public var displayName: String { "Google spreadsheet \(spreadsheetId ?? "(not created yet)")" }
    public var typedCells: Bool { true }

    func requireId() throws -> String {
        guard let id = spreadsheetId else {
            throw SheetSyncError.configuration("remote.spreadsheetId is not set; run `sheetsync init` to create the spreadsheet")
        }
        return id
    }

    public func currentVersion() async throws -> String? {
        let id = try requireId()
        guard lock.withLock({ driveReachable }) else { return nil }
        do {
            // DriveFile needs the id to parse; asking for it costs nothing.
            return try await drive.getFile(id: id, fields: "id,version").version
        } catch let error as GoogleAPIError {
            if case .api(let details) = error, [403, 404].contains(details.httpStatus) {
                // drive.file reaches only files sheetsync created: a linked spreadsheet is read every run.
                lock.withLock { driveReachable = false }
                logger.notice("Drive metadata of spreadsheet \(id) is not reachable with the drive.file scope; reading the sheet every run")
                return nil
            }
            throw GoogleRemoteErrors.map(error)
        }
    }

    public func read() async throws -> RemoteSnapshot {
        let id = try requireId()
        let version = try await currentVersion()
        do {
            var present = Tab.allCases
            let ranges: [ValueRange]
            do {
                ranges = try await sheets.batchGetValues(spreadsheetId: id, ranges: present.map { A1.wholeSheet($0.rawValue) })
            } catch GoogleAPIError.api(let details) where details.httpStatus == 400 {
                // A tab is missing (its range does not parse): read the ones there are; a push adds the rest.
                let info = try await sheets.info(spreadsheetId: id)
                present = Tab.allCases.filter { info.sheet(titled: $0.rawValue) != nil }
                ranges =
                    present.isEmpty
                    ? [] : try await sheets.batchGetValues(spreadsheetId: id, ranges: present.map { A1.wholeSheet($0.rawValue) })
            }
            var tables: [Tab: Table] = [:]
            var hasher = ContentDigest()
            for (tab, range) in zip(present, ranges) {
                let rows = range.values.map { $0.map(SheetCells.cell(from:)) }
                tables[tab] = Table(header: rows.first?.map(\.rawText) ?? [], rows: Array(rows.dropFirst()))
                hasher.add(tab.rawValue, rows)
            }
            return RemoteSnapshot(tables: tables, version: version ?? "content:" + hasher.value)
        } catch let error as GoogleAPIError {
            throw GoogleRemoteErrors.map(error)
        }
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> String {
        let id = try requireId()
        let changing = plans.filter(\.changesRemote)
        guard !changing.isEmpty else { return snapshot.version }
        do {
            let layout = try await SheetLayout.verify(spreadsheetId: id, tabs: changing.map(\.tab), snapshot: snapshot, sheets: sheets)
            var requests: [JSONValue] = []
            for plan in changing {
                let tab = plan.tab
                let table = snapshot.tables[tab] ?? Table(header: [])
                let changes = TablePatcher.changes(plan, to: table, schema: tab.schema, typed: true)
                if let sheetId = layout.sheetIds[tab] {
                    requests += try SheetRequests.make(changes, tab: tab, sheetId: sheetId, table: table, layout: layout.tabs[tab])
                } else {
                    requests += SheetRequests.addSheet(tab: tab, changes: changes, index: Tab.allCases.firstIndex(of: tab) ?? 0)
                }
            }
            // Edits a person made since the read are merged by the next run only if it reads the sheet, so the
            // version after this write counts as synced only when nobody else wrote since the read.
            let untouched = try await currentVersion().map { $0 == snapshot.version } ?? false
            if !requests.isEmpty {
                let guardId = Int.random(in: 1...Int(Int32.max))
                let guarded = SheetRequests.writeGuard(id: guardId, replacing: layout.writeGuards) + requests
                do {
                    _ = try await sheets.batchUpdate(spreadsheetId: id, requests: guarded, guardedAgainstRepeats: true)
                } catch GoogleAPIError.api(let details)
                    where details.httpStatus == 400 && details.message.contains(String(guardId))
                {
                    throw SheetSyncError.temporary(
                        "google applied this run's write but failed to say so (its repeat was refused); nothing was lost, the next run checks"
                    )
                }
            }
            let written = try await currentVersion()
            return untouched ? written ?? "" : ""
        } catch let error as GoogleAPIError {
            throw GoogleRemoteErrors.map(error)
        }
    }

    /// Creates the `ExpenseTracker/` folder, its `Receipts/` folder and the spreadsheet with five tabs,
    /// headers and the Settings row; remembers the new spreadsheet's id.
    public func create(settings: Record) async throws {
        do {
            let root = try await drive.createFolder(name: "ExpenseTracker", appProperties: ["sheetsync": "root"])
            let receipts = try await drive.createFolder(name: "Receipts", parents: [root.id], appProperties: ["sheetsync": "receipts"])
            let info = try await sheets.create(title: "ExpenseTracker", sheets: Tab.allCases.map(\.rawValue))
            _ = try await drive.updateFile(id: info.spreadsheetId, metadata: JSONObject(), addParents: [root.id], removeParents: ["root"])
            var row = settings
            row["rootFolderId"] = root.id
            row["receiptsFolderId"] = receipts.id
            row["dataSpreadsheetId"] = info.spreadsheetId
            // The sheet's row carries the Drive ids the store's copy lacks: it must win the first sync.
            if let stamp = Timestamp(iso: row["lastModifiedAt"]) { row["lastModifiedAt"] = stamp.adding(milliseconds: 1).description }
            var requests: [JSONValue] = []
            for tab in Tab.allCases {
                guard let sheet = info.sheet(titled: tab.rawValue) else { continue }
                var rows = [TablePatcher.newHeader(tab.schema).map { Cell.text($0) }]
                if tab == .settings { rows.append(tab.schema.fields.map { FieldParser.cell(row[$0.name], $0, typed: true) }) }
                requests.append(SheetRequests.updateCells(sheetId: sheet.sheetId, row: 0, column: 0, rows: rows))
            }
            _ = try await sheets.batchUpdate(spreadsheetId: info.spreadsheetId, requests: requests)
            lock.withLock { id = info.spreadsheetId }
        } catch let error as GoogleAPIError {
            throw GoogleRemoteErrors.map(error)
        }
    }
}

/// Google errors as run outcomes: temporary ones exit 75, credential problems 78.
enum GoogleRemoteErrors {
    static func map(_ error: GoogleAPIError) -> SheetSyncError {
        if error.isTemporary { return .temporary("\(error); nothing was lost, the next run retries") }
        if error.isConfigurationProblem { return .configuration("\(error)") }
        // Not found or not allowed (rate limits were retried and are temporary by now): retrying cannot help.
        if case .api(let details) = error, [403, 404].contains(details.httpStatus) {
            return .configuration(
                "\(error): check remote.spreadsheetId in the config and that the account of remote.credentials can open it")
        }
        return SheetSyncError(.temporaryFailure, "\(error)")
    }
}

/// A short digest of a sheet's values, standing in for Drive's `version` where Drive is not reachable.
struct ContentDigest {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ tab: String, _ rows: [[Cell]]) {
        feed(tab)
        for row in rows {
            for cell in row { feed(cell.rawText); feed("\u{1F}") }
            feed("\u{1E}")
        }
    }
    private mutating func feed(_ s: String) {
        for byte in s.utf8 {
            state ^= UInt64(byte)
            state = state &* 0x100_0000_01b3
        }
    }
    var value: String { String(state, radix: 16) }
}
