import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Testing

/// `sheetsync init` and quiet runs in Google mode, with the built binary against the emulator.
@Suite struct GoogleInitTests {
    @Test func initCreatesFoldersAndAFiveTabSpreadsheetAndRemembersItsId() async throws {
        let bed = try await GoogleTestBed.start("g-init")
        let run = try await bed.cli("init")
        #expect(run.status == 0, "\(run.stderr)")
        let id = try bed.spreadsheetId()
        // Said with the id it got (it said "(not created yet)").
        #expect(run.stdout.contains("created Google spreadsheet \(id) with the five tabs"), "\(run.stdout)")
        #expect(try bed.emulator.tabNames(spreadsheetId: id) == Tab.allCases.map(\.rawValue))
        for tab in Tab.allCases {
            #expect(try bed.table(tab).header == TablePatcher.newHeader(tab.schema), "header of \(tab.rawValue)")
        }
        let settings = try bed.sheetRecords(.settings)
        #expect(settings.count == 1)
        let row = try #require(settings.values.first)
        #expect(row[.dataSpreadsheetId] == id)
        #expect(row[.timezone] == "UTC")
        let root = try #require(bed.emulator.file(id: row[.rootFolderId]))
        let receipts = try #require(bed.emulator.file(id: row[.receiptsFolderId]))
        #expect(root.name == "ExpenseTracker" && root.isFolder)
        #expect(receipts.name == "Receipts" && receipts.isFolder && receipts.parents == [root.id])
        #expect(bed.emulator.file(id: id)?.parents == [root.id])
        // The store took the sheet's Settings row (with the Drive ids) and is bound to its dataset.
        #expect(try bed.storeRecords(.settings) == settings)
        #expect(try bed.store().state("datasetId") == row[.datasetId])
        // The Drive ids filled into the new Settings row replaced empty cells: nothing was lost, no conflict.
        #expect(try bed.store().conflicts(limit: 20).isEmpty)
        #expect(!(try await bed.cli("status").stdout.contains("rootFolderId")))
        await bed.finish()
    }

    @Test func aQuietSyncAfterInitWritesNothingAndCostsAtMostTwoRequests() async throws {
        let bed = try await GoogleTestBed.start("g-quiet")
        #expect(try await bed.cli("init").status == 0)
        let id = try bed.spreadsheetId()
        let version = bed.emulator.version(of: id)
        // The version init's own write left is never taken as read (another writer may have written
        // meanwhile): the first sync reads the sheet once, finds it in step and writes nothing.
        let first = try await bed.cli("sync", "--json")
        #expect(first.status == 0 && first.json?["upToDate"] as? Bool == false, "\(first.stdout)")
        #expect(bed.emulator.version(of: id) == version)
        bed.emulator.resetCounters()
        let quiet = try await bed.cli("sync", "--json")
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.json?["upToDate"] as? Bool == true, "\(quiet.stdout)")
        // A token and one Drive `files.get` of the version: no Sheets request at all.
        let counters = bed.emulator.counters
        #expect(counters.totalRequests <= 2, "\(bed.emulator.requestLog.map { "\($0.method) \($0.path)" })")
        #expect(counters.requestsByEndpoint.keys.allSatisfy { !$0.hasPrefix("sheets.") }, "\(counters.requestsByEndpoint)")
        #expect(bed.emulator.version(of: id) == version)
        await bed.finish()
    }

    @Test func initWithASpreadsheetIdLinksToItInsteadOfCreatingOne() async throws {
        let bed = try await GoogleTestBed.start("g-link")
        let id = try bed.emulator.createSpreadsheet(
            title: "Shared ledger",
            tabs: Tab.allCases.map {
                EmulatedTab(name: $0.rawValue, typed: [TablePatcher.newHeader($0.schema)])
            })
        try bed.writeConfig(spreadsheetId: id)
        let run = try await bed.cli("init")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try bed.spreadsheetId() == id)
        #expect(bed.emulator.files.filter(\.isFolder).isEmpty)
        // Settings is created by the first sync and written to the linked sheet.
        #expect(try bed.sheetRecords(.settings).count == 1)
        #expect(try bed.storeRecords(.settings) == bed.sheetRecords(.settings))
        await bed.finish()
    }

    @Test func aSpreadsheetIdThatIsNotThereIsAConfigurationErrorNotATemporaryOne() async throws {
        let bed = try await GoogleTestBed.start("g-missing")
        try bed.writeConfig(spreadsheetId: "1NoSuchSpreadsheet0000000000000000000000000")
        for command in ["sync", "init"] {
            let run = try await bed.cli(command)
            #expect(run.status == 78, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("1NoSuchSpreadsheet0000000000000000000000000"), "\(run.stderr)")
        }
        #expect(bed.emulator.files.isEmpty)
        await bed.finish()
    }

    @Test func credentialsReadableByOthersAreRefusedWithSeventyEight() async throws {
        let bed = try await GoogleTestBed.start("g-perm")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: bed.credentialsURL.path)
        let run = try await bed.cli("init")
        #expect(run.status == 78)
        #expect(run.stderr.contains(bed.credentialsURL.lastPathComponent), "\(run.stderr)")
        #expect(bed.emulator.counters.totalRequests == 0)
        await bed.finish()
    }
}
