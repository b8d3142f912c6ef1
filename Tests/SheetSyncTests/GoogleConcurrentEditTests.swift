import Foundation
import GoogleAPI
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetsEmulator
import Testing

/// A Google remote that lets a person edit the sheet after the engine read it and before it writes.
struct MeddlingRemote: Remote {
    let base: GoogleSheetsRemote
    let meddle: @Sendable () throws -> Void

    var displayName: String { base.displayName }
    var typedCells: Bool { base.typedCells }
    var receiptStorage: ReceiptStorage { base.receiptStorage }
    func exists() async throws -> Bool { try await base.exists() }
    func location(of tab: Tab) -> String { base.location(of: tab) }
    func currentVersion() async throws -> String? { try await base.currentVersion() }
    func read() async throws -> RemoteSnapshot {
        let snapshot = try await base.read()
        try meddle()
        return snapshot
    }
    func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite { try await base.apply(plans, to: snapshot) }
    func create(settings: LedgerRow) async throws -> CreatedWorkbook { try await base.create(settings: settings) }
}

/// Rows are found by key just before writing: hand edits made while a sync runs are never overwritten.
@Suite struct GoogleConcurrentEditTests {
    struct Setup {
        let bed: GoogleTestBed
        let keys: [String]
        let before: [String: LedgerRow]
        var id: String { (try? bed.spreadsheetId()) ?? "" }
        let tab = Tab.transactions.rawValue
    }

    static func setUp(_ name: String) async throws -> Setup {
        let bed = try await GoogleTestBed.start(name)
        let keys = try GoogleSeed.ledger(in: bed, transactions: 8, ids: SeededIDs(seed: 4))
        try await bed.sync(try bed.remote())
        return Setup(bed: bed, keys: keys, before: try bed.sheetRecords(.transactions))
    }

    static func editNote(_ bed: GoogleTestBed, _ key: String, _ note: String) throws {
        let store = try bed.store()
        guard var record = try store.records(in: .transactions).first(where: { $0[.transactionId] == key }) else {
            throw CLI.CLIError(message: "no transaction \(key) in the store")
        }
        record[.note] = note
        record[.lastModifiedAt] = Timestamp(Date()).description
        try store.upsert(record, in: .transactions)
    }

    @Test func rowsInsertedAndSortedByHandDuringASyncAreNeverOverwritten() async throws {
        let s = try await Self.setUp("g-between")
        let bed = s.bed
        let note = try bed.column("note", in: .transactions)
        try Self.editNote(bed, s.keys[2], "local edit")
        try bed.store().delete(key: s.keys[5], in: .transactions)
        var added = try #require(s.before[s.keys[0]])
        added[.transactionId] = "0c0ffee0-0000-4000-8000-000000000001"
        added[.note] = "local add"
        try bed.store().upsert(added, in: .transactions)
        let meddling = MeddlingRemote(base: try bed.remote()) {
            try bed.emulator.insertRow(
                spreadsheetId: s.id, tab: s.tab, at: 2, typed: ["", "income", "2026-02-22", "", "", "99", "Fun", "", "between"])
            try bed.emulator.sortTab(spreadsheetId: s.id, tab: s.tab, byColumn: note, ascending: false)
        }
        let report = try await bed.sync(meddling)
        #expect(report.errors.isEmpty)
        let sheet = try bed.sheetRecords(.transactions)
        #expect(sheet[s.keys[2]]?[.note] == "local edit")
        #expect(sheet[s.keys[5]] == nil)
        #expect(sheet[added[.transactionId]]?[.note] == "local add")
        // Every other row kept its own values, key by key: nothing was written at a stale position.
        for key in s.keys where ![s.keys[2], s.keys[5]].contains(key) { #expect(sheet[key] == s.before[key], "row \(key)") }
        let between = try bed.values(.transactions).filter { $0.count > note && $0[note] == .string("between") }
        #expect(between.count == 1)
        #expect(between.first?[try bed.column("amount", in: .transactions)] == .number(99))

        // The next run sees the row the person added meanwhile, gives it an id and converges.
        try await bed.sync(try bed.remote())
        let store = try bed.storeRecords(.transactions)
        #expect(store.values.filter { $0[.note] == "between" && $0[.amount] == "99.00" && $0[.type] == "income" }.count == 1)
        #expect(store == (try bed.sheetRecords(.transactions)))
        await bed.finish()
    }

    @Test func aRowDeletedByHandDuringASyncKeepsItsLocalEdit() async throws {
        let s = try await Self.setUp("g-between-del")
        let bed = s.bed
        try Self.editNote(bed, s.keys[3], "edited here")
        let meddling = MeddlingRemote(base: try bed.remote()) {
            guard let row = try bed.rowIndex(of: s.keys[3], in: .transactions) else { return }
            try bed.emulator.deleteRow(spreadsheetId: s.id, tab: s.tab, at: row)
        }
        // The edit has no row to go to: nothing is written and the run exits 75.
        let error = await #expect(throws: SheetSyncError.self) { try await bed.sync(meddling) }
        #expect(error?.exitCode == .temporaryFailure)
        // Delete versus edit restores the row with the edit, on both sides.
        try await bed.sync(try bed.remote())
        #expect(try bed.storeRecords(.transactions)[s.keys[3]]?[.note] == "edited here")
        #expect(try bed.sheetRecords(.transactions)[s.keys[3]]?[.note] == "edited here")
        #expect(try bed.storeRecords(.transactions) == bed.sheetRecords(.transactions))
        await bed.finish()
    }

    @Test func aCellTypedByHandDuringASyncIsPulledByTheNextRun() async throws {
        let s = try await Self.setUp("g-between-type")
        let bed = s.bed
        try Self.editNote(bed, s.keys[1], "pushed")
        let meddling = MeddlingRemote(base: try bed.remote()) {
            guard let row = try bed.rowIndex(of: s.keys[6], in: .transactions) else { return }
            try bed.emulator.typeCell(
                spreadsheetId: s.id, tab: s.tab, at: GoogleTestBed.a1(row: row, column: try bed.column("note", in: .transactions)),
                text: "typed meanwhile")
        }
        try await bed.sync(meddling)
        #expect(try bed.sheetRecords(.transactions)[s.keys[1]]?[.note] == "pushed")
        try await bed.sync(try bed.remote())
        #expect(try bed.storeRecords(.transactions)[s.keys[6]]?[.note] == "typed meanwhile")
        #expect(try bed.storeRecords(.transactions) == bed.sheetRecords(.transactions))
        await bed.finish()
    }
}
