import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

@testable import SheetSync

/// The progress wrapper (used on a terminal) passes on everything the engine asks of the remote.
@Suite struct ProgressRemoteTests {
    @Test func aCellLimitIsStillHonouredBehindTheProgressLine() async throws {
        let clock = ManualClock(Timestamp(iso: "2026-03-01T00:00:00.000Z")!)
        // Long enough for a timestamp (24), too short for the 30-character name.
        let memory = MemoryRemote(maxCellCharacters: 26)
        _ = try await memory.create(
            settings: LedgerRow([
                .datasetId: "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01", .schemaVersion: "1", .timezone: "UTC",
                .createdAt: "2026-03-01T00:00:00.000Z", .lastModifiedAt: "2026-03-01T00:00:00.000Z",
            ]))
        let store = try LedgerStore.inMemory()
        try store.upsert(LedgerRow([.name: "Food", .type: "expense", .isActive: "TRUE"]), in: .categories)
        try store.upsert(LedgerRow([.name: String(repeating: "x", count: 30), .type: "expense", .isActive: "TRUE"]), in: .categories)
        let remote = ProgressRemote(base: memory, report: { _ in })
        #expect(remote.maxCellCharacters == 26)
        let report = try await SyncEngine(store: store, remote: remote, clock: clock).run(SyncOptions(mode: .sync))
        let names = try #require(await memory.workbook.table(.categories)).rows.map { $0.first?.rawText }
        #expect(names == ["Food"], "the overlong name is held back, not sent: \(report.errors) \(report.changes)")
        #expect(report.rejected.contains { $0.id == String(repeating: "x", count: 30) }, "\(report.rejected)")
    }
}
