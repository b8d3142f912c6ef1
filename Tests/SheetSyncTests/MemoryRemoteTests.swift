import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

/// `MemoryRemote`: tabs present or not, versions per tab, writes checked against the read.
@Suite struct MemoryRemoteTests {
    static let clock = ManualClock(Timestamp(iso: "2026-03-01T00:00:00.000Z")!)

    @Test func aMissingWorkbookIsCreatedWithFiveTabsAndSyncsWithAStore() async throws {
        let remote = MemoryRemote(typedCells: true)
        #expect(try await !remote.exists())
        let store = try LedgerStore.inMemory()
        let settings = LedgerRow([
            .datasetId: "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01", .schemaVersion: "1", .timezone: "UTC",
            .createdAt: "2026-03-01T00:00:00.000Z", .lastModifiedAt: "2026-03-01T00:00:00.000Z",
        ])
        let created = try await remote.create(settings: settings)
        #expect(created.configEntries.isEmpty)
        #expect(try await remote.exists())
        for tab in Tab.allCases { #expect(await remote.workbook.table(tab)?.header == tab.schema.fields.map(\.header)) }
        try store.upsert(LedgerRow([.name: "Food", .type: "expense", .isActive: "TRUE"]), in: .categories)
        let report = try await SyncEngine(store: store, remote: created.remote, clock: Self.clock).run(SyncOptions(mode: .sync))
        #expect(report.errors.isEmpty, "\(report.errors)")
        let categories = try #require(await remote.workbook.table(.categories))
        #expect(categories.rows.count == 1 && categories.rows[0].first == .text("Food"))
        #expect(try store.records(in: .settings).first?[.datasetId] == settings[.datasetId])
    }

    @Test func aTabChangedAfterTheReadIsNotWrittenOver() async throws {
        let remote = MemoryRemote()
        _ = try await remote.create(settings: LedgerRow([.datasetId: "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01", .schemaVersion: "1"]))
        let snapshot = try await remote.read()
        var edited = try #require(await remote.workbook.table(.categories))
        edited.rows.append([.text("Rent")])
        await remote.workbook.setTable(.categories, edited)
        #expect(try await remote.currentVersion() != snapshot.version)
        var plan = TabPlan(tab: .categories)
        plan.remoteAppends = [LedgerRow([.name: "Food", .type: "expense", .isActive: "TRUE"])]
        await #expect(throws: SheetSyncError.self) { _ = try await remote.apply([plan], to: snapshot) }
        #expect(await remote.workbook.table(.categories) == edited, "the person's edit stands")
        // Read again, the same plan is written.
        let written = try await remote.apply([plan], to: try await remote.read())
        #expect(written.version == (try await remote.currentVersion()))
        #expect(await remote.workbook.table(.categories)?.rows.count == 2)
    }

    @Test func aRemovedTabReadsAsMissing() async throws {
        let remote = MemoryRemote()
        _ = try await remote.create(settings: LedgerRow([.datasetId: "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01", .schemaVersion: "1"]))
        await remote.workbook.setTable(.receipts, nil)
        let snapshot = try await remote.read()
        #expect(snapshot.tables[.receipts] == nil && snapshot.tables[.transactions] != nil)
        #expect(try await remote.exists())
    }
}
