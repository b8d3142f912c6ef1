import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import Testing
import Workbook

/// A file remote keeps nothing between `read` and `apply`: each write is checked against the snapshot it
/// is given, so a second read in between (another snapshot) cannot vouch for a save the first one missed.
@Suite struct RemoteSnapshotTests {
    static let settings = LedgerRow([
        .datasetId: "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01", .schemaVersion: "1", .timezone: "UTC",
        .createdAt: "2026-03-01T00:00:00.000Z", .lastModifiedAt: "2026-03-01T00:00:00.000Z",
    ])

    static var addFood: TabPlan {
        var plan = TabPlan(tab: .categories)
        plan.remoteAppends = [
            LedgerRow([
                .name: "Food", .type: "expense", .isActive: "TRUE", .createdAt: "2026-03-01T00:00:00.000Z",
                .lastModifiedAt: "2026-03-01T00:00:00.000Z",
            ])
        ]
        return plan
    }

    @Test func aCSVWriteAgainstAnOlderSnapshotIsRefusedEvenAfterANewerRead() async throws {
        let book = TestWorkbook(folder: try TestWorkbook.scratch("snapshot-csv"))
        let remote = CSVWorkbookRemote(folder: book.folder, backupsToKeep: 1)
        _ = try await remote.create(settings: Self.settings)
        let first = try await remote.read()
        // A person saves the tab; a second read (another run's, say) sees the save.
        try book.edit(.categories) { $0.rows.append([.text("Rent"), .text("expense")]) }
        let edited = try book.bytes(.categories)
        let second = try await remote.read()
        await #expect(throws: SheetSyncError.self) { _ = try await remote.apply([Self.addFood], to: first) }
        #expect(try book.bytes(.categories) == edited, "the person's save stands")
        let written = try await remote.apply([Self.addFood], to: second)
        #expect(try book.table(.categories).rows.map { $0.first?.rawText } == ["Rent", "Food"])
        #expect(written.version == (try await remote.currentVersion()))
    }

    @Test func anXLSXWriteAgainstAnOlderSnapshotIsRefusedEvenAfterANewerRead() async throws {
        let folder = try TestWorkbook.scratch("snapshot-xlsx")
        let file = folder.appendingPathComponent("ledger.xlsx")
        let remote = XLSXWorkbookRemote(file: file, backupsToKeep: 1)
        _ = try await remote.create(settings: Self.settings)
        let first = try await remote.read()
        var sheets = Tab.allCases.map { tab in XLSXSheet(name: tab.rawValue, table: first.tables[tab] ?? Table(header: [])) }
        sheets[Tab.allCases.firstIndex(of: .categories) ?? 0].table.rows.append([.text("Rent"), .text("expense")])
        try XLSXWriter.write(sheets, to: file)
        let edited = try Data(contentsOf: file)
        let second = try await remote.read()
        await #expect(throws: SheetSyncError.self) { _ = try await remote.apply([Self.addFood], to: first) }
        #expect(try Data(contentsOf: file) == edited, "the person's save stands")
        _ = try await remote.apply([Self.addFood], to: second)
        let after = try await remote.read()
        #expect(after.tables[.categories]?.rows.map { $0.first?.rawText } == ["Rent", "Food"])
    }

    @Test func aSnapshotFromAnotherKindOfRemoteIsRefused() async throws {
        let book = TestWorkbook(folder: try TestWorkbook.scratch("snapshot-kind"))
        let remote = CSVWorkbookRemote(folder: book.folder, backupsToKeep: 1)
        _ = try await remote.create(settings: Self.settings)
        let before = try book.allBytes()
        let memory = try await MemoryRemote().create(settings: Self.settings).remote.read()
        await #expect(throws: SheetSyncError.self) { _ = try await remote.apply([Self.addFood], to: memory) }
        #expect(try book.allBytes() == before)
    }
}
