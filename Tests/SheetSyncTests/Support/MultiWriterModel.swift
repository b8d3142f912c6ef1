import Foundation
import GoogleAPI
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Testing
import Workbook

@testable import SheetSync

/// The workbook the multi-writer model shares: a CSV folder, one `.xlsx` file (each a copy of the clean
/// sample) or a spreadsheet in the Sheets emulator (the same rows), and what its writers do to it: read a
/// tab, make a person's edit, leave each file a writer changed with that writer's time, as a file system
/// does (the emulator dates its spreadsheet with its own clock, which follows the person's).
struct ModelWorkbook {
    enum Kind: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case csv, xlsx, google
        var testDescription: String { rawValue }
    }

    /// A person's edit of the Transactions tab, as a spreadsheet program (or the browser) makes it.
    enum PersonEdit {
        /// Types `text` into the cell of column `column` in the row holding `key`.
        case type(key: String, column: String, text: String)
        /// Inserts a row before data row `at` (0-based; the end when past it) holding `cells` by column name.
        case insertRow(at: Int, cells: [String: String])
        /// Deletes data row `at` (0-based).
        case deleteRow(at: Int)
        /// Sorts the data rows by one column (ties keep an order of their own).
        case sort(column: String)
    }

    let kind: Kind
    /// The scratch folder: the workbook, and the machines' stores beside it.
    let folder: URL
    private let csv: TestWorkbook
    private var xlsx: URL { folder.appendingPathComponent("ledger.xlsx") }
    /// The emulator and the spreadsheet, in Google mode.
    private let google: (bed: GoogleTestBed, spreadsheetId: String)?

    static func make(_ kind: Kind, start: Timestamp) async throws -> ModelWorkbook {
        let shared = try SeveralWritersTests.SharedBook.make()
        let csv = TestWorkbook(folder: shared.book)
        switch kind {
        case .csv:
            return ModelWorkbook(kind: kind, folder: shared.folder, csv: csv, google: nil)
        case .xlsx:
            let workbook = ModelWorkbook(kind: kind, folder: shared.folder, csv: csv, google: nil)
            try XLSXWriter.write(try Tab.allCases.map { XLSXSheet(name: $0.rawValue, table: try csv.table($0)) }, to: workbook.xlsx)
            try FileManager.default.removeItem(at: shared.book)
            return workbook
        case .google:
            let bed = try await GoogleTestBed.start("multi-writer-google", now: start.date)
            let id = try bed.emulator.createSpreadsheet(
                title: "Ledger",
                tabs: try Tab.allCases.map { tab in
                    let table = try csv.table(tab)
                    let rows = [table.header] + table.rows.map { $0.map(\.rawText) }
                    // A small grid (as a spreadsheet made through the API has): every read renders all of it.
                    return EmulatedTab(name: tab.rawValue, typed: rows, rowCount: rows.count + 40, columnCount: table.header.count + 2)
                })
            try bed.writeConfig(spreadsheetId: id)
            // Row anchors as `sheetsync init` sets them (a spreadsheet linked instead gets them with its
            // first write, which only the read-back check guards).
            let remote = try bed.remote(clock: ManualAPIClock(now: bed.emulator.now))
            let info = try await remote.sheets.info(spreadsheetId: id)
            _ = try await remote.sheets.batchUpdate(
                spreadsheetId: id, requests: GoogleSheetsRemote.rowAnchors(Tab.allCases, info: info, replacing: false))
            try FileManager.default.removeItem(at: shared.book)
            return ModelWorkbook(kind: kind, folder: shared.folder, csv: csv, google: (bed, id))
        }
    }

    func remove() async {
        if let google { await google.bed.finish() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Moves the workbook's own clock (the emulator's) on with everyone's.
    func advance(milliseconds: Int64) {
        google?.bed.emulator.advanceClock(by: Double(milliseconds) / 1000)
    }

    /// The remote a machine's run syncs with; with `killedAt`, the run dies at that step (1-based) of
    /// its file replacements, leaving the disk as `kill -9` at that instant would; in Google mode its
    /// `killedAt`th write batch takes effect and the connection drops before the answer (no retry), as
    /// when a run dies while its write is on its way.
    ///
    /// In Google mode, `interleaving` makes the run's first write batch wait for another writer: held at
    /// a gate of the emulator, or answered 503 with a `Retry-After` of 6 s, during which the person acts.
    func remote(killedAt: Int? = nil, saving save: SaveDuringRun? = nil, interleaving: GoogleInterleaving? = nil) throws -> any Remote {
        if let google {
            let emulator = google.bed.emulator
            emulator.clearFaults()
            emulator.resetCounters()
            let firstWrite = FaultTrigger.endpoint("sheets.spreadsheets.batchUpdate", occurrence: 1)
            if let killedAt {
                emulator.injectFault(
                    .dropConnection, at: .endpoint("sheets.spreadsheets.batchUpdate", occurrence: killedAt), phase: .afterEffect)
            }
            // The machine's token is signed at the emulator's time (which follows the person's clock).
            var clock: any APIClock = ManualAPIClock(now: emulator.now)
            switch interleaving {
            case .held(let gate): emulator.injectFault(.hold(gate: gate), at: firstWrite)
            case .retried(let waiting):
                emulator.injectFault(.status(503, retryAfter: 6), at: firstWrite)
                clock = waiting
            case nil: break
            }
            return try google.bed.remote(
                policy: RetryPolicy(totalBudget: killedAt == nil ? 30 : 0, maximumAttempts: killedAt == nil ? 12 : 1), clock: clock)
        }
        var faults: FaultInjector?
        if killedAt != nil || save != nil {
            let counter = StepCounter()
            faults = FaultInjector { step in
                try save?.reach(step)
                if counter.next() == killedAt { throw SimulatedCrash(step: step) }
            }
        }
        return kind == .csv
            ? CSVWorkbookRemote(folder: csv.folder, faults: faults) : XLSXWorkbookRemote(file: xlsx, faults: faults)
    }

    /// A person's save that lands while a run is under way (on disk): made once, when the run's first
    /// file replacement reaches `step` — its new version written and flushed (`tempSynced`), or the file
    /// just found as the run read it (`checked`) — and the workbook's files as that save left them.
    final class SaveDuringRun: @unchecked Sendable {
        let step: AtomicWriteStep
        private let save: () throws -> Void
        private let workbook: ModelWorkbook
        private let lock = NSLock()
        private var saved: [String: Data]?

        init(at step: AtomicWriteStep, in workbook: ModelWorkbook, _ save: @escaping () throws -> Void) {
            self.step = step
            self.workbook = workbook
            self.save = save
        }

        func reach(_ reached: AtomicWriteStep) throws {
            guard reached == step, lock.withLock({ saved == nil }) else { return }
            try save()
            let bytes = try workbook.bytes()
            lock.withLock { saved = bytes }
        }

        /// The files as the save left them; nil when no run reached the step (it replaced no file).
        var savedBytes: [String: Data]? { lock.withLock { saved } }
    }

    /// How a run's first Google write waits for another writer (`remote`).
    enum GoogleInterleaving {
        /// Held at this gate of the emulator until it opens.
        case held(gate: String)
        /// Answered 503 with `Retry-After: 6`; the clock the run waits on acts during the wait.
        case retried(WhileWaiting)
    }

    /// The emulator, in Google mode.
    var emulator: SheetsEmulator? { google?.bed.emulator }

    /// Whether the last run's Google write was cut off by its kill.
    var killFired: Bool { google?.bed.emulator.requestLog.contains { $0.status == nil } ?? false }

    /// A machine's new store: a copy of the migrated empty store (`MigratedStore`), opened as a run opens it.
    func store(_ name: String) throws -> LedgerStore {
        let path = folder.appendingPathComponent(name + ".sqlite").path
        try MigratedStore.copy(to: path)
        return try LedgerStore(path: path)
    }

    /// The workbook's files (the spreadsheet's tabs), with what each holds now.
    func bytes() throws -> [String: Data] {
        if let google {
            return Dictionary(
                uniqueKeysWithValues: try Tab.allCases.map { tab in
                    (tab.rawValue, Data("\(try google.bed.emulator.cells(spreadsheetId: google.spreadsheetId, tab: tab.rawValue))".utf8))
                })
        }
        let files = kind == .csv ? Tab.allCases.map { csv.url($0) } : [xlsx]
        return Dictionary(uniqueKeysWithValues: try files.map { ($0.lastPathComponent, try Data(contentsOf: $0)) })
    }

    /// Gives every file changed since `before` the time `time`.
    func touch(changedSince before: [String: Data], at time: Timestamp) throws {
        guard google == nil else { return }
        for (name, data) in try bytes() where before[name] != data {
            try SeveralWritersTests.SharedBook.touch(kind == .csv ? csv.folder.appendingPathComponent(name) : xlsx, at: time)
        }
    }

    /// A tab's header and data rows as they are now.
    func table(_ tab: Tab) throws -> Table {
        switch kind {
        case .csv:
            return try csv.table(tab)
        case .xlsx:
            return try #require(try XLSXReader.read(contentsOf: xlsx, sheets: [tab.rawValue]).first).table
        case .google:
            let google = try #require(google)
            let rows = try google.bed.emulator.rows(spreadsheetId: google.spreadsheetId, tab: tab.rawValue).map {
                $0.map(GoogleTestBed.cell)
            }
            return Table(header: rows.first?.map(\.rawText) ?? [], rows: Array(rows.dropFirst()))
        }
    }

    /// A person's edit of the Transactions tab, saved at `time`.
    func make(_ edit: PersonEdit, at time: Timestamp) throws {
        let tab = Tab.transactions
        if let google {
            let (emulator, id) = (google.bed.emulator, google.spreadsheetId)
            let table = try table(tab)
            switch edit {
            case .type(let key, let column, let text):
                guard let row = table.rows.firstIndex(where: { Self.cell($0, tab.schema.keyField.rawValue, in: table) == key }) else {
                    return
                }
                try emulator.typeCell(
                    spreadsheetId: id, tab: tab.rawValue, at: GoogleTestBed.a1(row: row + 1, column: Self.column(column, in: table)),
                    text: text)
            case .insertRow(let at, let cells):
                try emulator.insertRow(
                    spreadsheetId: id, tab: tab.rawValue, at: min(at, table.rows.count) + 1, typed: table.header.map { cells[$0] ?? "" })
            case .deleteRow(let at):
                try emulator.deleteRow(spreadsheetId: id, tab: tab.rawValue, at: at + 1)
            case .sort(let column):
                try emulator.sortTab(spreadsheetId: id, tab: tab.rawValue, byColumn: Self.column(column, in: table))
            }
            return
        }
        let change: (inout Table) -> Void = { table in
            let t = table
            switch edit {
            case .type(let key, let column, let text):
                for i in table.rows.indices where Self.cell(table.rows[i], tab.schema.keyField.rawValue, in: t) == key {
                    table.rows[i] = Self.setting(table.rows[i], column, text, in: t)
                }
            case .insertRow(let at, let cells):
                table.rows.insert(
                    t.header.map { cells[$0].map { $0.isEmpty ? Cell.empty : .text($0) } ?? .empty }, at: min(at, t.rows.count))
            case .deleteRow(let at):
                table.rows.remove(at: at)
            case .sort(let column):
                table.rows.sort {
                    (Self.cell($0, column, in: t), Self.cell($0, tab.schema.keyField.rawValue, in: t))
                        < (Self.cell($1, column, in: t), Self.cell($1, tab.schema.keyField.rawValue, in: t))
                }
            }
        }
        switch kind {
        case .csv, .google:
            try csv.edit(tab, change)
        case .xlsx:
            var table = try table(tab)
            change(&table)
            let saved = folder.appendingPathComponent("saved.xlsx")
            try XLSXWriter.write([XLSXSheet(name: tab.rawValue, table: table)], to: saved, preservingOtherSheetsFrom: xlsx)
            try #require(rename(saved.path, xlsx.path) == 0, "cannot save \(xlsx.path)")
        }
        try SeveralWritersTests.SharedBook.touch(kind == .csv ? csv.url(tab) : xlsx, at: time)
    }

    /// A tab's loadable rows by key, read as sync reads them.
    func records(_ tab: Tab) throws -> [String: LedgerRow] {
        let (_, rows) = try TabReader.read(try table(tab), schema: tab.schema, seenAt: Timestamp(millisecondsSinceEpoch: 0))
        var out: [String: LedgerRow] = [:]
        for row in rows {
            if case .record(let record, _) = row.outcome { out[record[tab.schema.keyField]] = record }
        }
        return out
    }

    /// The column of `name` in `table`.
    static func column(_ name: String, in table: Table) -> Int {
        table.header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() }!
    }

    /// The text of a row's cell in column `name` ("" past the row's end).
    static func cell(_ row: [Cell], _ name: String, in table: Table) -> String {
        let c = column(name, in: table)
        return c < row.count ? row[c].rawText : ""
    }

    /// `row` with the cell in column `name` set to `value`.
    static func setting(_ row: [Cell], _ name: String, _ value: String, in table: Table) -> [Cell] {
        var row = row
        let c = column(name, in: table)
        if row.count <= c { row += Array(repeating: .empty, count: c + 1 - row.count) }
        row[c] = value.isEmpty ? .empty : .text(value)
        return row
    }
}

/// One machine of the multi-writer model (`MultiWriterModelTests`): a store of its own, a clock of its
/// own, and the shared workbook.
struct MultiWriterMachine: StoreWithClock {
    let name: String
    let store: LedgerStore
    let clock: ManualClock
    let workbook: ModelWorkbook
    let ids: SeededIDs

    /// How a run ended: 0, 65 (rows or changes held back), a stop with another code, or killed.
    enum Outcome {
        case ok
        case heldBack([SyncIssue])
        case stopped(SheetSyncError)
        /// Killed at this point of its writes.
        case killed(String)

        var summary: String {
            switch self {
            case .ok: return "0"
            case .heldBack(let errors): return "65 \(errors.map(\.text))"
            case .stopped(let error): return "\(error.exitCode.rawValue) \(error.message)"
            case .killed(let point): return "killed (\(point))"
            }
        }
    }

    /// Syncs with this machine's clock; with `killedAt`, the run is killed at that step of its file
    /// replacements (a run that writes fewer files ends as usual). Every file the run changed gets this
    /// machine's time afterwards, also when the run stopped part-way, as a real file system would give it.
    func sync(
        killedAt: Int? = nil, saving save: ModelWorkbook.SaveDuringRun? = nil, interleaving: ModelWorkbook.GoogleInterleaving? = nil
    ) async throws -> Outcome {
        let before = try workbook.bytes()
        let ids = self.ids
        let engine = SyncEngine(
            store: store, remote: try workbook.remote(killedAt: killedAt, saving: save, interleaving: interleaving), clock: clock,
            newID: { ids.next() }, defaultTimeZone: "UTC")
        var outcome: Outcome
        do {
            let report = try await engine.run(SyncOptions(mode: .sync))
            outcome = report.errors.isEmpty && report.exitCode == .ok ? .ok : .heldBack(report.errors)
        } catch let error as SheetSyncError {
            outcome = .stopped(error)
        } catch let crash as SimulatedCrash {
            outcome = .killed(crash.step.rawValue)
        }
        if killedAt != nil, workbook.killFired { outcome = .killed("write batch answered by a dropped connection") }
        try workbook.touch(changedSince: save?.savedBytes ?? before, at: clock.now())
        return outcome
    }

}

/// The person of the multi-writer model: edits the Transactions tab as a spreadsheet program saves it,
/// and leaves the file with the person's time.
struct MultiWriterPerson {
    let clock: ManualClock
    let workbook: ModelWorkbook

    /// The data rows of the Transactions tab as they are now.
    func table() throws -> Table { try workbook.table(.transactions) }

    /// Makes an edit at the person's now.
    func make(_ edit: ModelWorkbook.PersonEdit) throws { try workbook.make(edit, at: clock.now()) }

    static func cell(_ row: [Cell], _ name: String, in table: Table) -> String { ModelWorkbook.cell(row, name, in: table) }
}
