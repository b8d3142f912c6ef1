import GRDB
import SheetSyncCore
import Testing

@testable import SheetSyncStore

/// A store on disk: durable settings, reopening, and refusing what this build cannot read.
@Suite struct StoreFileTests {
    @Test func fileStoreUsesWALWithFullSyncBusyTimeoutAndForeignKeys() throws {
        let dir = try TemporaryDirectory()
        let store = try LedgerStore(path: dir.path("ledger.sqlite"))
        // The writer connection is the one whose settings make commits durable.
        let pragmas = try store.writer.writeWithoutTransaction { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try Int.fetchOne(db, sql: "PRAGMA busy_timeout"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys")
            )
        }
        #expect(pragmas.0 == "wal")
        #expect(pragmas.1 == 2, "synchronous = FULL")
        #expect(pragmas.2 == 5000)
        #expect(pragmas.3 == 1)
        #expect(try store.writer.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)
    }

    /// The process-wide setting the command-line tool applies first thing cannot change SQLite once a
    /// store is open: it says so, and the open store goes on working.
    @Test func sqliteProcessSettingsChangeNothingOnceSQLiteIsInUse() throws {
        let dir = try TemporaryDirectory()
        let store = try LedgerStore(path: dir.path("ledger.sqlite"))
        #expect(SQLiteProcessSettings.apply() == false)
        try store.upsert(Samples.record(.settings), in: .settings)
        #expect(try store.records(in: .settings) == [Samples.record(.settings)])
    }

    /// A new store gets 16 KiB pages; one made with SQLite's default 4 KiB (every store before this
    /// setting) keeps its size, its rows and its settings when opened.
    @Test func newStoreHas16KiBPagesAndAnOlderStoreKeepsItsOwn() throws {
        let dir = try TemporaryDirectory()
        let fresh = try LedgerStore(path: dir.path("new.sqlite"))
        #expect(try fresh.writer.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 16384)

        let path = dir.path("old.sqlite")
        do {
            let old = try DatabaseQueue(path: path)
            try old.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA page_size = 4096")
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
        do {
            let store = try LedgerStore(path: path)
            try store.upsert(Samples.record(.settings), in: .settings)
        }
        let reopened = try LedgerStore(path: path)
        #expect(try reopened.writer.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 4096)
        #expect(try reopened.records(in: .settings) == [Samples.record(.settings)])
        #expect(try reopened.writer.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func reopeningKeepsRowsAndState() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        do {
            let store = try LedgerStore(path: path)
            try store.upsert(Samples.record(.settings), in: .settings)
            try store.setState("lastSyncAt", Samples.modified)
        }
        let reopened = try LedgerStore(path: path)
        #expect(try reopened.records(in: .settings) == [Samples.record(.settings)])
        #expect(try reopened.state("lastSyncAt") == Samples.modified)
    }

    @Test func storeMigratedByANewerBuildIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        do {
            let store = try LedgerStore(path: path)
            try store.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v2-from-the-future')")
        }
        let error = #expect(throws: StoreError.self) { try LedgerStore(path: path) }
        #expect(error == .newerStore(path: path, unknownMigrations: ["v2-from-the-future"]))
        #expect(error?.description.contains("newer sheetsync") == true)
    }

    @Test func anotherClientsEditBetweenReadAndCommitIsSkipped() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        let engine = try LedgerStore(path: path)
        let row = try engine.upsert(Samples.record(.categories), in: .categories)
        let read = try engine.snapshot()

        let shell = try LedgerStore(path: path)
        try shell.execute("UPDATE categories SET emoji = '🥗'")

        var pulled = row
        pulled[.colorHex] = "#00FF00"
        let outcome = try engine.commit(
            StoreCommit(
                upserts: [.categories: [RowWrite(record: pulled, expected: read.rows[.categories]?["Food"])]]))
        #expect(outcome.skipped == [.categories: ["Food"]])
        #expect(try engine.records(in: .categories).first?[.emoji] == "🥗")
    }

    @Test func unopenablePathIsAClearError() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("missing-folder/ledger.sqlite")
        let error = #expect(throws: StoreError.self) { try LedgerStore(path: path) }
        guard case .cannotOpen(let reported, _)? = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(reported == path)
        #expect(error?.description.hasPrefix("cannot open the store at '\(path)'") == true)
    }
}
