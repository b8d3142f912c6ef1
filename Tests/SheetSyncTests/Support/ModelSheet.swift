import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import Workbook

/// The workbook side of a model case: where the person's edits land and what the engine syncs with.
protocol ModelSheet: Sendable {
    /// A tab's table (a missing tab reads as an empty one).
    func table(_ tab: Tab) async throws -> Table
    /// Replaces a tab as a person saving the workbook would.
    func setTable(_ tab: Tab, _ table: Table) async throws
    /// Changes whenever any tab's content changes.
    func contentFingerprint() async throws -> String
    /// The remote a run syncs with; with `crashAt`, the run dies at that write step (1-based).
    func remote(crashAt: Int?) -> any Remote
    /// Removes what the case left behind.
    func remove()
}

/// What a simulated crash of a `MemoryRemote` write throws.
struct ModelCrash: Error {}

/// A `MemoryRemote`, plain-text or typed, crashing between tab writes.
struct MemoryModelSheet: ModelSheet {
    let workbook = MemoryWorkbook()
    let typed: Bool

    func table(_ tab: Tab) async throws -> Table { await workbook.table(tab) ?? Table(header: []) }
    func setTable(_ tab: Tab, _ table: Table) async throws { await workbook.setTable(tab, table) }
    func contentFingerprint() async throws -> String { try await MemoryRemote(workbook: workbook).currentVersion() ?? "" }

    func remote(crashAt: Int?) -> any Remote {
        let remote = MemoryRemote(workbook: workbook, typedCells: typed)
        guard let crashAt else { return remote }
        let counter = StepCounter()
        return remote.with { _ in if counter.next() == crashAt { throw ModelCrash() } }
    }

    func remove() {}
}

/// A CSV folder on disk, crashing at any step of an atomic file replacement.
struct CSVModelSheet: ModelSheet {
    let workbook: TestWorkbook

    func table(_ tab: Tab) async throws -> Table { try workbook.table(tab) }

    func setTable(_ tab: Tab, _ table: Table) async throws {
        guard FileManager.default.fileExists(atPath: workbook.url(tab).path) else {
            let file = CSVFile(table: table, hasBOM: false, lineEnding: .lf, endsWithNewline: true)
            try Data(CSVWriter.encode(file)).write(to: workbook.url(tab))
            return
        }
        try workbook.edit(tab) { $0 = table }
    }

    func contentFingerprint() async throws -> String { "\(try workbook.allBytes())" }

    func remote(crashAt: Int?) -> any Remote {
        guard let crashAt else { return CSVWorkbookRemote(folder: workbook.folder, backupsToKeep: 1) }
        let counter = StepCounter()
        let faults = FaultInjector { step in
            if counter.next() == crashAt { throw SimulatedCrash(step: step) }
        }
        return CSVWorkbookRemote(folder: workbook.folder, backupsToKeep: 1, faults: faults)
    }

    func remove() { try? FileManager.default.removeItem(at: workbook.folder) }
}
