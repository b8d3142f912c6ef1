import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import Workbook

/// One machine of the multi-writer model (`MultiWriterModelTests`): a store of its own, a clock of its
/// own, and the shared CSV workbook folder.
struct MultiWriterMachine: StoreWithClock {
    let name: String
    let store: LedgerStore
    let clock: ManualClock
    let book: URL
    let ids: SeededIDs

    /// How a run ended: 0, 65 (rows or changes held back) or a stop with another code.
    enum Outcome {
        case ok
        case heldBack([String])
        case stopped(SheetSyncError)

        var summary: String {
            switch self {
            case .ok: return "0"
            case .heldBack(let errors): return "65 \(errors)"
            case .stopped(let error): return "\(error.exitCode.rawValue) \(error.message)"
            }
        }
    }

    /// Syncs with this machine's clock. Every file the run changed gets this machine's time afterwards,
    /// also when the run stopped part-way, as a real file system would give it.
    func sync() async throws -> Outcome {
        let before = try SeveralWritersTests.SharedBook.bytes(book)
        let ids = self.ids
        let engine = SyncEngine(
            store: store, remote: CSVWorkbookRemote(folder: book), clock: clock, newID: { ids.next() }, defaultTimeZone: "UTC")
        let outcome: Outcome
        do {
            let report = try await engine.run(SyncOptions(mode: .sync))
            outcome = report.errors.isEmpty && report.exitCode == .ok ? .ok : .heldBack(report.errors)
        } catch let error as SheetSyncError {
            outcome = .stopped(error)
        }
        for (tab, bytes) in try SeveralWritersTests.SharedBook.bytes(book) where before[tab] != bytes {
            try SeveralWritersTests.SharedBook.touch(book.appendingPathComponent(tab.rawValue + ".csv"), at: clock.now())
        }
        return outcome
    }

}

/// The person of the multi-writer model: edits `Transactions.csv` as a spreadsheet program saves it,
/// and leaves the file with the person's time.
struct MultiWriterPerson {
    let clock: ManualClock
    let book: URL

    var workbook: TestWorkbook { TestWorkbook(folder: book) }

    /// The data rows of `Transactions.csv` as they are now.
    func table() throws -> Table { try workbook.table(.transactions) }

    /// Saves a change to `Transactions.csv` at the person's now.
    func save(_ change: (inout Table) -> Void) throws {
        try workbook.edit(.transactions, change)
        try SeveralWritersTests.SharedBook.touch(workbook.url(.transactions), at: clock.now())
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
