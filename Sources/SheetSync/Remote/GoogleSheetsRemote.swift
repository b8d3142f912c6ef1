import Foundation
import GoogleAPI
import Interchange
import Logging
import SheetSyncCore
import SheetValues

/// A Google Sheets spreadsheet (Sheets API v4) with its Drive folder.
///
/// Costs per sync: one `values.batchGet` reads all five tabs; before writing, one `spreadsheets.get`
/// re-reads the key columns (and the tabs' sheet ids and the write token) so that rows inserted, deleted
/// or sorted by hand in between are found by key, never written by stale position, and the cells of the
/// rows it writes, so that nothing typed there since the read is overwritten; then one
/// `spreadsheets.batchUpdate` carries every change (cell updates with RAW values, row deletes, row
/// inserts), opening with a compare-and-swap of the write token and a check of each changed tab's row
/// anchor (rows inserted or deleted meanwhile refuse it whole); then one `values.batchGet` of the rows
/// written (of the changed tabs whole after a delete, or when a row reads otherwise) checks that every
/// write landed on its row (`WrittenRowsCheck`). So at most 3 reads and 1
/// write, whatever the number of changed rows. A quiet cron run costs one Drive `files.get` of the
/// spreadsheet's `version` (where Drive metadata is reachable). docs/several-writers.md says what this
/// guarantees with other writers at work.
public struct GoogleSheetsRemote: Remote {
    public let sheets: SheetsClient
    public let drive: DriveClient
    let client: GoogleClient
    let logger: Logger
    /// Nil until `init` created the spreadsheet (`create` returns a remote bound to the new one).
    public let spreadsheetId: String?
    /// The most bytes one write request carries (Google refuses more than 10 MiB and advises 2 MB).
    let maxRequestBytes: Int

    public init(client: GoogleClient, spreadsheetId: String?, maxRequestBytes: Int = GoogleLimits.defaultRequestBytes, logger: Logger) {
        self.client = client
        sheets = SheetsClient(client: client)
        drive = DriveClient(client: client)
        self.spreadsheetId = spreadsheetId
        self.maxRequestBytes = min(max(maxRequestBytes, GoogleLimits.minRequestBytes), GoogleLimits.maxRequestBytes)
        self.logger = logger
    }

    public var displayName: String { "Google spreadsheet \(spreadsheetId ?? "(not created yet)")" }
    public var typedCells: Bool { true }
    public var maxCellCharacters: Int? { GoogleLimits.maxCellCharacters }

    func requireId() throws -> String {
        guard let id = spreadsheetId else {
            throw SheetSyncError.configuration("remote.spreadsheetId is not set; run `sheetsync init` to create the spreadsheet")
                .coded(.workbookMissing)
        }
        return id
    }

    public func currentVersion() async throws -> String? { try await driveVersion(of: try requireId(), announcing: false)?.version }

    /// The spreadsheet's Drive `version` and `modifiedTime`, or nil when Drive metadata is out of reach.
    /// Said once per run (by the read that falls back to the content digest), not at every look.
    private func driveVersion(of id: String, announcing: Bool) async throws -> (version: String?, modified: Timestamp?)? {
        do {
            // DriveFile needs the id to parse; asking for it costs nothing.
            let file = try await drive.getFile(id: id, fields: "id,version,modifiedTime")
            return (file.version, file.modifiedTime.flatMap(Timestamp.init(iso:)))
        } catch let error as GoogleAPIError {
            if case .api(let details) = error, [403, 404].contains(details.httpStatus) {
                // drive.file reaches only files sheetsync created: a linked spreadsheet is read every run.
                let text = "Drive metadata of spreadsheet \(id) is not reachable with the drive.file scope; reading the sheet every run"
                if announcing { logger.notice("\(text)") } else { logger.debug("\(text)") }
                return nil
            }
            throw GoogleRemoteErrors.map(error)
        }
    }

    public func read() async throws -> RemoteSnapshot {
        let id = try requireId()
        let drive = try await driveVersion(of: id, announcing: true)
        let version = drive?.version
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
                tables[tab] = Self.table(rows)
                hasher.add(tab.rawValue, rows)
            }
            var snapshot = RemoteSnapshot(
                tables: tables, version: version ?? "content:" + hasher.value, marks: GoogleReadMarks(versionFromDrive: version != nil))
            if let modified = drive?.modified { snapshot.savedAt = tables.mapValues { _ in modified } }
            return snapshot
        } catch let error as GoogleAPIError {
            throw GoogleRemoteErrors.map(error)
        }
    }

    /// A tab's values as read: the first row is the header.
    static func table(_ rows: [[Cell]]) -> Table {
        Table(header: rows.first?.map(\.rawText) ?? [], rows: Array(rows.dropFirst()))
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite {
        let id = try requireId()
        let changing = plans.filter(\.changesRemote)
        guard !changing.isEmpty else { return RemoteWrite(version: snapshot.version) }
        do {
            var planned: [Tab: TableChanges] = [:]
            for plan in changing {
                planned[plan.tab] = TablePatcher.changes(
                    plan, to: snapshot.tables[plan.tab] ?? Table(header: []), schema: plan.tab.schema, typed: true)
            }
            let layout = try await SheetLayout.verify(
                spreadsheetId: id, tabs: changing.map(\.tab), snapshot: snapshot, sheets: sheets, watching: planned)
            guard layout.changedRows.isEmpty else {
                throw SheetSyncError.temporary(
                    "\(layout.changedRows.joined(separator: ", ")) changed in the spreadsheet since this run read it; nothing was "
                        + "written (it would have overwritten that unread), the next run merges"
                ).coded(.changedMeanwhile)
            }
            var write = SheetWrite(limit: maxRequestBytes)
            var written: [Tab: TableChanges] = [:]
            for plan in changing {
                let tab = plan.tab
                let changes = planned[tab] ?? TableChanges()
                if let sheetId = layout.sheetIds[tab] {
                    try SheetRequests.add(changes, tab: tab, sheetId: sheetId, layout: layout.tabs[tab], to: &write)
                    written[tab] = changes
                } else {
                    SheetRequests.addSheet(tab: tab, changes: changes, index: Tab.allCases.firstIndex(of: tab) ?? 0, to: &write)
                }
            }
            try await checkCellLimit(of: write, layout: layout, spreadsheetId: id)
            try await send(write, changing: written, spreadsheetId: id, layout: layout, snapshot: snapshot)
            let notices = try await checkWritten(written, snapshot: snapshot, layout: layout, spreadsheetId: id)
            // The version recorded is the one read, never one asked for after the write: another writer's
            // change made while this write was on its way (or waiting for a retry) is in any later version,
            // which this run never read. So the next run reads the sheet once and finds its own write there.
            return RemoteWrite(version: snapshot.version, notices: notices)
        } catch let error as GoogleAPIError {
            throw GoogleRemoteErrors.map(error)
        }
    }

    /// Sends the write in batches of at most `maxRequestBytes`, in order, each opening with a swap of the
    /// write token (`SheetRequests.writeGuard`). A failure stops the run before the store records
    /// anything: what earlier batches wrote is whole rows, which the next run reads back and finds equal
    /// to the store's.
    ///
    /// A batch is aimed at row positions verified just before the first one is sent (`SheetLayout`);
    /// another sheetsync's write since then moved the token, and the batch is refused whole (75, the next
    /// run merges). A batch that must be sent again (a 429 or 5xx, a lost answer) is re-sent only when
    /// its first attempt did not apply, the key columns still read as they did at that verification and
    /// the rows it changes still hold what this run read: a row a person inserted, deleted or sorted
    /// while the batch waited would put its values on another row, and a cell they typed into a written
    /// row would be overwritten unread, so the run then stops (75) and the next run reads the sheet
    /// afresh. A later batch's positions depend on the earlier ones, so it is not re-sent at all: the
    /// next run carries on.
    private func send(
        _ write: SheetWrite, changing changes: [Tab: TableChanges], spreadsheetId id: String, layout: SheetLayout,
        snapshot: RemoteSnapshot, checkingRowAnchors: Bool = true
    ) async throws {
        var previous = layout.writeToken
        var legacy = layout.writeGuards
        let batches = write.batches(limit: maxRequestBytes)
        // Each changed tab's grid rows, as verified and then as each batch leaves them: its row anchor sits
        // on the last one.
        var grids: [SheetRequests.Grid] = Tab.allCases.compactMap { tab in
            guard changes[tab] != nil, let sheetId = layout.sheetIds[tab], let rows = layout.tabs[tab]?.rowCount, rows > 0 else {
                return nil
            }
            return SheetRequests.Grid(tab: tab, sheetId: sheetId, rows: rows)
        }
        for (number, batch) in batches.enumerated() {
            let token = String(UInt64.random(in: 1...UInt64.max), radix: 16)
            let guarded = SheetRequests.guarded(
                batch, token: token, replacing: previous, legacy: legacy, grids: grids, checkingRowAnchors: checkingRowAnchors || number > 0
            )
            let part = batches.count > 1 ? "part \(number + 1) of \(batches.count) of " : ""
            let aimed = stillAimed(
                number: number, part: part, token: token, changes: changes, layout: layout, snapshot: snapshot, spreadsheetId: id)
            do {
                _ = try await sheets.batchUpdate(
                    spreadsheetId: id, serializedRequests: guarded, guardedAgainstRepeats: true, beforeResending: aimed)
            } catch GoogleAPIError.api(let details) where details.httpStatus == 400 {
                try await refused(details, part: part, token: token, previous: previous, grids: grids, spreadsheetId: id)
            }
            grids = grids.map { SheetRequests.Grid(tab: $0.tab, sheetId: $0.sheetId, rows: $0.rows + (batch.rowsAdded[$0.sheetId] ?? 0)) }
            previous = token
            legacy = []
            if batches.count > 1 { logger.info("wrote part \(number + 1) of \(batches.count) to the spreadsheet") }
        }
    }

    /// The check a batch must pass before a retry sends it again (`send`).
    private func stillAimed(
        number: Int, part: String, token: String, changes: [Tab: TableChanges], layout: SheetLayout, snapshot: RemoteSnapshot,
        spreadsheetId id: String
    ) -> ResendCondition {
        ResendCondition {
            // Applied before its answer was lost: the repeat is refused whole (the token moved), harmlessly.
            if try await writeToken(spreadsheetId: id) == token { return }
            guard number == 0 else {
                throw SheetSyncError.temporary(
                    "\(part)the write to the spreadsheet failed and was not re-sent (its rows' positions depend on the parts "
                        + "before it); what was written is whole rows, nothing was recorded, the next run carries on"
                ).coded(.googleUnavailable)
            }
            let now = try await SheetLayout.verify(
                spreadsheetId: id, tabs: layout.verifiedTabs, snapshot: snapshot, sheets: sheets, watching: changes)
            guard now.keyColumns == layout.keyColumns, now.sheetIds == layout.sheetIds else {
                throw SheetSyncError.temporary(
                    "rows of the spreadsheet were inserted, deleted or sorted while \(part)the write waited to be re-sent; it was "
                        + "not re-sent (it would have landed on other rows), nothing was recorded, the next run merges"
                ).coded(.changedMeanwhile)
            }
            let typed =
                now.watchedAll
                ? now.changedRows : try await rowsChangedSinceRead(changes, layout: layout, snapshot: snapshot, spreadsheetId: id)
            guard typed.isEmpty else {
                throw SheetSyncError.temporary(
                    "\(typed.joined(separator: ", ")) changed in the spreadsheet while \(part)the write waited to be re-sent; it "
                        + "was not re-sent (it would have overwritten that unread), nothing was recorded, the next run merges"
                ).coded(.changedMeanwhile)
            }
        }
    }

    /// A batch refused whole (400): applied already (its answer lost, then sent again), refused because
    /// another sheetsync moved the token or a person moved rows under a row anchor (75, the anchor set
    /// afresh), or refused for what it carries (the error as it came).
    private func refused(
        _ details: GoogleErrorDetails, part: String, token: String, previous: String?, grids: [SheetRequests.Grid],
        spreadsheetId id: String
    ) async throws {
        let now = try await writeToken(spreadsheetId: id)
        if now == token {
            logger.info("\(part)the write was applied before its answer was lost")
            return
        }
        guard now == previous else {
            throw SheetSyncError.temporary(
                "another sheetsync run wrote the spreadsheet while \(part)this run's write was on its way; it was refused "
                    + "whole (it would have landed on rows that run moved), nothing was recorded, the next run merges"
            ).coded(.changedMeanwhile)
        }
        guard !grids.isEmpty else { throw GoogleAPIError.api(details) }
        let info = try await sheets.info(spreadsheetId: id)
        let moved = try await rowsMoved(grids, info: info, spreadsheetId: id)
        guard !moved.isEmpty else { throw GoogleAPIError.api(details) }
        // Set afresh on the last grid row, for the next run's write to check.
        _ = try await sheets.batchUpdate(spreadsheetId: id, requests: Self.rowAnchors(moved, info: info, replacing: true))
        throw SheetSyncError.temporary(
            "rows of tab(s) \(moved.map(\.rawValue).joined(separator: ", ")) were inserted or deleted by hand (or rows "
                + "added at the grid's end) since this run found where its rows are; \(part)the write was refused whole (it "
                + "would have landed on other rows), nothing was recorded, the next run merges"
        ).coded(.changedMeanwhile)
    }

    /// Each tab's row anchor set on its last grid row (`SheetRequests.rowAnchorCheck`), after removing
    /// the one there is when `replacing`.
    static func rowAnchors(_ tabs: [Tab], info: SpreadsheetInfo, replacing: Bool) -> [JSONValue] {
        tabs.flatMap { tab -> [JSONValue] in
            guard let sheet = info.sheet(titled: tab.rawValue), let rows = sheet.rowCount, rows > 0 else { return [] }
            return (replacing ? [SheetRequests.rowAnchorRemoval(tab)] : []) + [
                SheetRequests.rowAnchor(tab, sheetId: sheet.sheetId, row: rows - 1)
            ]
        }
    }

    /// The tabs whose rows were inserted or deleted since a batch was aimed at `rows` grid rows: their
    /// grid has another size now, or their row anchor is no longer on its last row (or rows were added
    /// at the grid's end since sheetsync last wrote the tab). A tab without an anchor is judged by size
    /// (`info`, the grids as they are now).
    private func rowsMoved(_ expected: [SheetRequests.Grid], info: SpreadsheetInfo, spreadsheetId id: String) async throws -> [Tab] {
        let anchors = try await sheets.developerMetadata(spreadsheetId: id, ids: expected.map { SheetRequests.rowAnchorId($0.tab) })
        return expected.filter { grid in
            let resized = info.sheets.first { $0.sheetId == grid.sheetId }?.rowCount != grid.rows
            let anchor = anchors.first { $0["metadataId"]?.intValue == SheetRequests.rowAnchorId(grid.tab) }
            return resized || (anchor != nil && anchor?["location"]?["dimensionRange"]?["startIndex"]?.intValue != grid.rows - 1)
        }.map(\.tab)
    }

    /// The rows `changes` rewrites or deletes whose cells no longer read as in `snapshot` ("Transactions
    /// row 4"): one `values.batchGet` of their tabs, each row followed to where `layout` found it.
    private func rowsChangedSinceRead(
        _ changes: [Tab: TableChanges], layout: SheetLayout, snapshot: RemoteSnapshot, spreadsheetId id: String
    ) async throws -> [String] {
        let touched = changes.mapValues { Set($0.cells.map(\.row) + $0.deletedRows) }.filter { !$0.value.isEmpty }
        let tabs = Tab.allCases.filter { touched[$0] != nil }
        guard !tabs.isEmpty else { return [] }
        let ranges = try await sheets.batchGetValues(spreadsheetId: id, ranges: tabs.map { A1.wholeSheet($0.rawValue) })
        var changed: [String] = []
        for (tab, range) in zip(tabs, ranges) {
            guard let then = snapshot.tables[tab], let rowNow = layout.tabs[tab]?.rowNow else { continue }
            let now = Self.table(range.values.map { $0.map(SheetCells.cell(from:)) })
            for row in (touched[tab] ?? []).sorted() {
                guard let at = rowNow[row] else { continue }
                let before = row < then.rows.count ? then.rows[row] : []
                if SheetLayout.rowChanged(
                    before, width: then.header.count, now: { at < now.rowCount ? now.cell(row: at, column: $0) : .empty })
                {
                    changed.append("\(tab.rawValue) row \(Table.sheetRowNumber(ofDataRow: at))")
                }
            }
        }
        return changed
    }

    /// Reads the changed tabs back after a write and puts right what landed on other rows
    /// (`WrittenRowsCheck`): a person who moved rows in the moments before Google applied the write.
    /// The repair is a write like any other (verified positions, the write token), checked the same
    /// way; rows still moving after two repairs stop the run (75) before the store records anything.
    /// A plain write (cells of keyed rows, no row deleted) whose rows all read back as meant was put
    /// nowhere else, and only those rows are read; anything else reads the changed tabs whole.
    private func checkWritten(_ written: [Tab: TableChanges], snapshot: RemoteSnapshot, layout: SheetLayout, spreadsheetId id: String)
        async throws -> [SyncIssue]
    {
        let tabs = Tab.allCases.filter { written[$0].map { !$0.cells.isEmpty || !$0.deletedRows.isEmpty } ?? false }
        guard !tabs.isEmpty else { return [] }
        if try await landedAsMeant(tabs, written: written, snapshot: snapshot, layout: layout, spreadsheetId: id) { return [] }
        var notices: [SyncIssue] = []
        for attempt in 0...2 {
            let ranges = try await sheets.batchGetValues(spreadsheetId: id, ranges: tabs.map { A1.wholeSheet($0.rawValue) })
            var now = snapshot
            var repairs: [Tab: TableChanges] = [:]
            for (tab, range) in zip(tabs, ranges) {
                let table = Self.table(range.values.map { $0.map(SheetCells.cell(from:)) })
                now.tables[tab] = table
                guard let before = snapshot.tables[tab], let changes = written[tab],
                    let repair = WrittenRowsCheck.repairs(before: before, written: changes, now: table, schema: tab.schema)
                else { continue }
                repairs[tab] = repair
            }
            guard !repairs.isEmpty else { return notices }
            let names = repairs.keys.map(\.rawValue).sorted().joined(separator: ", ")
            guard attempt < 2 else {
                throw SheetSyncError.temporary(
                    "rows of tab(s) \(names) kept moving while this run wrote them; what it wrote may sit on other rows there: "
                        + "nothing was recorded, the next run merges (its conflict log keeps any value it replaces)"
                ).coded(.changedMeanwhile)
            }
            let cells = repairs.values.reduce(0) { $0 + $1.cells.count + $1.deletedRows.count + $1.appendedRows.count }
            let cleared = repairs.sorted { $0.key.rawValue < $1.key.rawValue }.flatMap { tab, changes in
                Set(changes.cells.filter(\.key.isEmpty).map(\.row)).sorted().map {
                    "\(tab.rawValue) row \(Table.sheetRowNumber(ofDataRow: $0))"
                }
            }
            notices.append(
                .notice(
                    .writeRepaired,
                    "rows of tab(s) \(names) moved while this run wrote them (a row inserted, deleted or sorted meanwhile): "
                        + "\(cells) change(s) put what landed on other rows back"
                        + (cleared.isEmpty
                            ? ""
                            : "; cells of \(cleared.joined(separator: ", ")) (a row without an id) took values meant for other rows and were "
                                + "emptied: check what was typed there")))
            let layout = try await SheetLayout.verify(spreadsheetId: id, tabs: Array(repairs.keys), snapshot: now, sheets: sheets)
            var write = SheetWrite(limit: maxRequestBytes)
            for (tab, changes) in repairs {
                guard let sheetId = layout.sheetIds[tab] else { continue }
                try SheetRequests.add(changes, tab: tab, sheetId: sheetId, layout: layout.tabs[tab], to: &write)
            }
            // The write just read back went out on moved rows, so the row anchors it set may sit off the
            // last grid row: the repair sets them afresh instead of checking them.
            try await send(write, changing: repairs, spreadsheetId: id, layout: layout, snapshot: now, checkingRowAnchors: false)
        }
        return notices
    }

    /// Whether every row a plain write changed holds what it meant (`WrittenRowsCheck.meantRows`), read
    /// in one `values.batchGet` of those rows only (at most `SheetLayout.maxWatchedRows` of them): the
    /// read-back of a small push costs the rows it wrote, not the sheet. False for any other write, and
    /// for any row that reads otherwise (moved, typed into since): the caller then reads the tabs whole.
    private func landedAsMeant(
        _ tabs: [Tab], written: [Tab: TableChanges], snapshot: RemoteSnapshot, layout: SheetLayout, spreadsheetId id: String
    ) async throws -> Bool {
        var meant: [(tab: Tab, width: Int, rows: [Int: [Cell]])] = []
        var budget = SheetLayout.maxWatchedRows
        for tab in tabs {
            guard let before = snapshot.tables[tab], let changes = written[tab], let rowNow = layout.tabs[tab]?.rowNow,
                let rows = WrittenRowsCheck.meantRows(before: before, written: changes, rowNow: rowNow, schema: tab.schema, limit: budget)
            else { return false }
            budget -= rows.count
            meant.append((tab, rows.values.reduce(max(before.header.count, 1)) { max($0, $1.count) }, rows))
        }
        var ranges: [String] = []
        var blocks: [(tab: Int, rows: Range<Int>)] = []
        for (index, tab) in meant.enumerated() {
            let last = A1.columnLetters(tab.width - 1)
            for block in SheetLayout.blocks(of: tab.rows.keys.sorted()) {
                ranges.append("\(A1.quoteSheetName(tab.tab.rawValue))!A\(block.lowerBound + 2):\(last)\(block.upperBound + 1)")
                blocks.append((index, block))
            }
        }
        let answers = try await sheets.batchGetValues(spreadsheetId: id, ranges: ranges)
        guard answers.count == blocks.count else { return false }
        for (block, answer) in zip(blocks, answers) {
            let tab = meant[block.tab]
            for (offset, at) in block.rows.enumerated() {
                let now = offset < answer.values.count ? answer.values[offset].map(SheetCells.cell(from:)) : []
                guard let row = tab.rows[at],
                    !SheetLayout.rowChanged(row, width: tab.width, now: { $0 < now.count ? now[$0] : .empty })
                else { return false }
            }
        }
        return true
    }

    /// The write token's value now (nil: there is none).
    private func writeToken(spreadsheetId id: String) async throws -> String? {
        let answer = try await sheets.get(spreadsheetId: id, fields: "developerMetadata(metadataId,metadataValue)")
        let entry = (answer["developerMetadata"]?.arrayValue ?? []).first { $0["metadataId"]?.intValue == SheetRequests.writeTokenId }
        return entry?["metadataValue"]?.stringValue
    }

    /// Refuses, before anything is sent, a write that would take the spreadsheet past Google's 10 million
    /// cells. Small growth (a few new rows) is not worth a read of every tab's size: Google's own refusal
    /// (400, exit 65) stands behind it.
    private func checkCellLimit(of write: SheetWrite, layout: SheetLayout, spreadsheetId id: String) async throws {
        let growth = write.addedCells.values.reduce(0, +)
        let known = layout.tabs.values.reduce(0) { $0 + $1.rowCount * $1.columnCount }
        guard growth > 0, growth >= Self.cellCheckThreshold || known + growth > GoogleLimits.maxCells else { return }
        let info = try await sheets.info(spreadsheetId: id)
        let total = info.sheets.reduce(0) { $0 + ($1.rowCount ?? 0) * ($1.columnCount ?? 0) }
        guard total + growth > GoogleLimits.maxCells else { return }
        let tabs = write.addedCells.sorted { $0.value > $1.value }.filter { $0.value > 0 }
            .map { "tab '\($0.key.rawValue)' needs \(Self.grouped($0.value)) more cells" }.joined(separator: ", ")
        throw SheetSyncError.data(
            "google sheets holds at most \(Self.grouped(GoogleLimits.maxCells)) cells per spreadsheet: \(tabs), and the spreadsheet "
                + "has \(Self.grouped(total)) already (\(Self.grouped(total + growth)) in all); nothing was written — delete unused "
                + "rows, columns or tabs in the spreadsheet, or move old years to another spreadsheet"
        ).coded(.spreadsheetFull)
    }

    /// Growth from which the cell check reads every tab's size first (the 10M limit counts them all).
    static let cellCheckThreshold = 100_000

    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    /// Creates the `ExpenseTracker/` folder, its `Receipts/` folder and the spreadsheet with five tabs,
    /// headers and the Settings row; returns a remote bound to the new spreadsheet, whose id the config keeps.
    public func create(settings: LedgerRow) async throws -> CreatedWorkbook {
        // What this call made, so a failure part-way leaves no orphan folder or spreadsheet behind.
        var created: [String] = []
        do {
            let root = try await drive.createFolder(name: "ExpenseTracker", appProperties: ["sheetsync": "root"])
            created.append(root.id)
            let receipts = try await drive.createFolder(name: "Receipts", parents: [root.id], appProperties: ["sheetsync": "receipts"])
            created.append(receipts.id)
            let info = try await sheets.create(title: "ExpenseTracker", sheets: Tab.allCases.map(\.rawValue))
            created.append(info.spreadsheetId)
            _ = try await drive.updateFile(id: info.spreadsheetId, metadata: JSONObject(), addParents: [root.id], removeParents: ["root"])
            var row = settings
            row[.rootFolderId] = root.id
            row[.receiptsFolderId] = receipts.id
            row[.dataSpreadsheetId] = info.spreadsheetId
            // The sheet's row carries the Drive ids the store's copy lacks: it must win the first sync.
            if let stamp = Timestamp(iso: row[.lastModifiedAt]) { row[.lastModifiedAt] = stamp.adding(milliseconds: 1).description }
            var requests: [JSONValue] = []
            for tab in Tab.allCases {
                guard let sheet = info.sheet(titled: tab.rawValue) else { continue }
                var rows = [TablePatcher.newHeader(tab.schema).map { Cell.text($0) }]
                if tab == .settings { rows.append(tab.schema.fields.map { FieldParser.cell(row[$0.key], $0, typed: true) }) }
                requests.append(SheetRequests.updateCells(sheetId: sheet.sheetId, row: 0, column: 0, rows: rows))
            }
            requests += Self.rowAnchors(Tab.allCases, info: info, replacing: false)
            _ = try await sheets.batchUpdate(spreadsheetId: info.spreadsheetId, requests: requests)
            let created = GoogleSheetsRemote(
                client: client, spreadsheetId: info.spreadsheetId, maxRequestBytes: maxRequestBytes, logger: logger)
            return CreatedWorkbook(remote: created, configEntries: ["spreadsheetId": info.spreadsheetId])
        } catch let error as GoogleAPIError {
            await remove(created.reversed())
            throw GoogleRemoteErrors.mapCreating(error)
        }
    }

    /// Deletes what a failed `create` made; what cannot be deleted now is named, so the user can.
    private func remove(_ ids: some Sequence<String>) async {
        for fileId in ids {
            do {
                try await drive.deleteFile(id: fileId)
            } catch {
                logger.warning("could not delete Drive file \(fileId) that a failed init created: \(error); delete it by hand")
            }
        }
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

/// What a Google spreadsheet's read noted: whether the version came from Drive (false: Drive metadata
/// is out of reach, the content digest stands in).
public struct GoogleReadMarks: ReadMarks {
    public var versionFromDrive: Bool
}
