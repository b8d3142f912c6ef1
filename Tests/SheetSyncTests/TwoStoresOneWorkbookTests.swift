import Foundation
import SheetSyncCore
import SheetSyncStore
import Testing

/// Two stores (two machines, or two configs on one) syncing one local workbook at the same moment:
/// the runs take turns on the workbook, so no run writes over rows another run has just written.
@Suite struct TwoStoresOneWorkbookTests {
    /// Without the lock, 3–8 rows were lost in 20 such rounds (exit 0 on one side, 75 on the other, with
    /// "nothing was replaced" said of a file that had been replaced).
    @Test func simultaneousSyncsOfTwoStoresLoseNoRow() async throws {
        let folder = try await CLI.storesSharingASample()
        var notes: [String] = []
        for round in 1...8 {
            for name in ["a", "b"] {
                let add = try await CLI.run(
                    [
                        "add", "expense", "--amount", "\(round).00", "--category", "Dining", "--note", "\(name)\(round)", "--config",
                        "\(name).json",
                    ],
                    in: folder)
                #expect(add.status == 0, "\(add.stderr)")
                notes.append("\(name)\(round)")
            }
            async let a = CLI.run(["sync", "--config", "a.json"], in: folder)
            async let b = CLI.run(["sync", "--config", "b.json"], in: folder)
            let (ra, rb) = try await (a, b)
            // Taking turns, both runs do all they were asked.
            #expect(ra.status == 0 && rb.status == 0, "round \(round): \(ra.status) \(ra.stderr) / \(rb.status) \(rb.stderr)")
        }
        for _ in 1...2 {
            for name in ["a", "b"] { #expect(try await CLI.run(["sync", "--config", "\(name).json"], in: folder).status == 0) }
        }
        let sheet = try TestWorkbook(folder: folder).records(.transactions, now: Timestamp(Date()))
        let inSheet = Set(sheet.values.map { $0[.note] })
        #expect(notes.filter { !inSheet.contains($0) } == [], "rows lost from the workbook")
        for name in ["a", "b"] {
            let store = try LedgerStore(path: folder.appendingPathComponent("\(name).sqlite").path)
            let notesInStore = Set(try store.records(in: .transactions).map { $0[.note] })
            #expect(notes.filter { !notesInStore.contains($0) } == [], "rows lost from store \(name)")
            #expect(try store.records(in: .transactions).count == sheet.count)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("sheetsync-swap") }
        #expect(leftovers == [])
    }

    /// A workbook lock that is there but cannot be opened (a folder here; another user's 0600 file
    /// alike) refuses the run (78) instead of letting it write unlocked (it was skipped silently).
    @Test func aWorkbookLockThatCannotBeOpenedRefusesTheRun() async throws {
        let folder = try await CLI.storesSharingASample(["a"])
        let before = try Data(contentsOf: folder.appendingPathComponent("Transactions.csv"))
        let lock = folder.appendingPathComponent(".sheetsync.lock")
        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: false)
        #expect(
            try await CLI.run(["add", "expense", "--amount", "1.00", "--category", "Dining", "--config", "a.json"], in: folder).status == 0)
        let run = try await CLI.run(["sync", "--config", "a.json"], in: folder)
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains("cannot open the workbook's lock file"), "\(run.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("Transactions.csv")) == before)
    }
}
