import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import TestSupport

/// One seeded case of the Google model test: a small ledger in the emulator, a few rounds of local edits
/// and person edits (typing, inserting, deleting, sorting, moving columns, copy-pasting rows), a sync per
/// round that may hit a fault, then the same checks as the CSV model (see `ModelCase`).
struct GoogleModelCase {
    let seed: UInt64
    var rng: SeededRandom
    let ids: SeededIDs
    let bed: GoogleTestBed
    let clock = ManualClock(Timestamp(iso: "2026-03-01T00:00:00.000Z") ?? Timestamp(Date()))
    var frozen: Set<String> = []

    init(seed: UInt64, sharing other: GoogleTestBed) async throws {
        self.seed = seed
        rng = SeededRandom(seed: seed)
        ids = SeededIDs(seed: seed)
        bed = try await GoogleTestBed.start("g-model", sharing: other)
    }

    func fail(_ message: String) -> ModelFailure { ModelFailure(description: "seed \(seed): \(message)") }

    func sync() async throws -> SyncReport {
        let ids = self.ids
        // As in the CSV model: random deletes are intent; the guards are tested on their own.
        return try await bed.sync(try bed.remote(), clock: clock, newID: { ids.next() }, allowMassDelete: true)
    }

    mutating func run() async throws {
        try GoogleSeed.ledger(in: bed, transactions: Int.random(in: 4...8, using: &rng), ids: ids)
        _ = try await sync()
        try await checkConverged(round: 0)
        for round in 1...3 {
            var log = ModelCase.RoundLog()
            try localEdits(round: round, log: &log)
            try remoteEdits(round: round, log: &log)
            clock.advance(milliseconds: 60_000)
            try await syncMaybeFaulted(round: round)
            try await checkConverged(round: round)
            try checkOracle(round: round, log: log)
            frozen.subtract(log.unfrozen)
            frozen.formUnion(log.frozen)
        }
    }

    // MARK: edits

    mutating func localEdits(round: Int, log: inout ModelCase.RoundLog) throws {
        try ModelLocalEdits.apply(
            store: try bed.store(), rng: &rng, clock: clock, ids: ids, frozen: frozen,
            categories: GoogleSeed.categories, round: round, log: &log)
    }

    /// A person's edits through the emulator, cell by cell, as in the Sheets UI.
    mutating func remoteEdits(round: Int, log: inout ModelCase.RoundLog) throws {
        let id = try bed.spreadsheetId(), tab = Tab.transactions.rawValue, emulator = bed.emulator
        func col(_ name: String) throws -> Int { try bed.column(name, in: .transactions) }
        func type(_ key: String, _ name: String, _ text: String) throws {
            guard let row = try bed.rowIndex(of: key, in: .transactions) else { return }
            try emulator.typeCell(spreadsheetId: id, tab: tab, at: GoogleTestBed.a1(row: row, column: try col(name)), text: text)
        }
        for key in frozen {
            try type(key, "category", "Food")
            log.unfrozen.insert(key)
        }
        let keyColumn = try col("transactionId")
        var candidates = try bed.values(.transactions).dropFirst().compactMap { row -> String? in
            guard keyColumn < row.count, case .string(let key) = row[keyColumn], !key.isEmpty, !log.unfrozen.contains(key) else {
                return nil
            }
            return key
        }
        candidates.shuffle(using: &rng)
        for i in 0..<Int.random(in: 0...4, using: &rng) {
            let op = Int.random(in: 0..<7, using: &rng)
            let rows = try bed.values(.transactions).count
            if op >= 4 {
                switch op {
                case 4:  // a row typed by hand, without id or timestamps, anywhere
                    var typed = Array(repeating: "", count: try bed.table(.transactions).header.count)
                    typed[try col("date")] = "2026-02-2\(i)"
                    typed[try col("amount")] = "4.5"
                    typed[try col("category")] = GoogleSeed.categories[i % 3]
                    typed[try col("note")] = "RI\(round)-\(i)"
                    try emulator.insertRow(spreadsheetId: id, tab: tab, at: Int.random(in: 1...rows, using: &rng), typed: typed)
                    log.remoteInserted.append("RI\(round)-\(i)")
                case 5:
                    try emulator.sortTab(spreadsheetId: id, tab: tab, byColumn: try col("note"), ascending: Bool.random(using: &rng))
                default:
                    let width = try bed.table(.transactions).header.count
                    try emulator.moveColumn(
                        spreadsheetId: id, tab: tab, from: Int.random(in: 0..<width, using: &rng),
                        to: Int.random(in: 0..<width, using: &rng))
                }
                continue
            }
            guard let k = candidates.popLast(), try bed.rowIndex(of: k, in: .transactions) != nil else { continue }
            guard !log.touched.subtracting(log.localNote.keys).contains(k) else { continue }
            switch op {
            case 0:
                try type(k, "note", "R\(round)-\(i)")
                log.remoteNote[k] = "R\(round)-\(i)"
            case 1:
                guard log.localNote[k] == nil else { continue }
                try type(k, "amount", "7.5")
                log.remoteAmount[k] = "7.50"
            case 2:
                guard log.localNote[k] == nil || Bool.random(using: &rng), let row = try bed.rowIndex(of: k, in: .transactions) else {
                    continue
                }
                try emulator.deleteRow(spreadsheetId: id, tab: tab, at: row)
                log.remoteDeleted.insert(k)
            default:
                guard log.localNote[k] == nil, !log.localDeleted.contains(k), let row = try bed.rowIndex(of: k, in: .transactions) else {
                    continue
                }
                if Bool.random(using: &rng) {
                    try type(k, "category", "Nope")
                    log.frozen.insert(k)
                } else {
                    // Copy and paste the whole row (values and formats) below the last one.
                    let cells = try emulator.cells(spreadsheetId: id, tab: tab)[row]
                    try emulator.insertRow(spreadsheetId: id, tab: tab, at: rows)
                    for (c, cell) in cells.enumerated() {
                        try emulator.setCell(spreadsheetId: id, tab: tab, at: GoogleTestBed.a1(row: rows, column: c), to: cell)
                    }
                    let note = try col("note")
                    log.duplicated[k] = note < cells.count ? GoogleTestBed.cell(cells[note].value).rawText : ""
                }
            }
        }
    }

    // MARK: syncing

    /// Sometimes a fault at a random request (a 5xx, a reset or a cut answer, before or after it took
    /// effect) ends the first try; the next sync must finish the job.
    mutating func syncMaybeFaulted(round: Int) async throws {
        if Int.random(in: 0..<10, using: &rng) < 4 {
            let faults: [EmulatorFault] = [.status(500), .resetConnection, .truncateBody(keepingBytes: 10)]
            let fault = faults[Int.random(in: 0..<faults.count, using: &rng)]
            let phase: FaultPhase = Bool.random(using: &rng) ? .beforeEffect : .afterEffect
            bed.emulator.resetCounters()
            bed.emulator.injectFault(fault, atRequest: Int.random(in: 1...7, using: &rng), phase: phase)
            do {
                _ = try await sync()
            } catch let error as SheetSyncError where error.exitCode == .temporaryFailure {
                // Exit 75: the next run merges.
            }
            bed.emulator.clearFaults()
        }
        let report = try await sync()
        if !report.errors.isEmpty { throw fail("round \(round): sync reported errors \(report.errors)") }
    }
}
