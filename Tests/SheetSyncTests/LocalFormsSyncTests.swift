import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Testing

/// A ledger reads dates and amounts typed the local way by its `dateOrder` and `decimalSeparator`:
/// `init` sets them from the locale or time zone (or `--date-order`, `--decimal-separator`),
/// `status` shows them, and a sync holds back a row the setting does not read, naming it.
@Suite struct LocalFormsSyncTests {
    /// The environment of a machine with locale `lang` (the test machine's own locale variables unset).
    func machine(_ lang: String, tz: String = "Etc/UTC") -> [String: String] {
        ["LANG": lang, "TZ": tz, "LC_ALL": "", "LC_TIME": "", "LC_NUMERIC": ""]
    }

    func storeTransactions(_ folder: URL) throws -> [LedgerRow] {
        try LedgerStore.inMemoryCopy(of: folder.appendingPathComponent("sheetsync.sqlite").path).records(in: .transactions)
    }

    /// A transaction typed into the CSV by hand, with only the columns a person fills in.
    func type(_ book: TestWorkbook, date: String, amount: String, note: String) throws {
        try book.edit(.transactions) { table in
            var row = [Cell](repeating: .empty, count: table.header.count)
            for (name, value) in [("date", date), ("amount", amount), ("category", "Groceries"), ("note", note)] {
                if let column = book.column(name, in: table) { row[column] = .text(value) }
            }
            table.rows.append(row)
        }
    }

    @Test func initTakesTheLocalesFormsAndSyncReadsByThem() async throws {
        let folder = try TestWorkbook.scratch("forms")
        let environment = machine("de_DE.UTF-8", tz: "Europe/Berlin")
        let initRun = try await CLI.run(["init"], in: folder, environment: environment)
        #expect(initRun.status == 0, "\(initRun.stderr)")
        #expect(
            initRun.stdout.contains(
                "read day first (dateOrder dmy) and amounts with a decimal ',' (decimalSeparator), from locale de_DE.UTF-8"),
            "\(initRun.stdout)")
        let status = try await CLI.run(["status", "--json"], in: folder, environment: environment)
        #expect(status.json?["dateOrder"] as? String == "dmy")
        #expect(status.json?["decimalSeparator"] as? String == ",")

        let book = TestWorkbook(folder: folder)
        try type(book, date: "3/4/2026", amount: "1.234,50", note: "day first")
        let sync = try await CLI.run(["sync"], in: folder, environment: environment)
        #expect(sync.status == 0, "\(sync.stderr)")
        let stored = try storeTransactions(folder)
        #expect(stored.map { [$0[.date], $0[.amount], $0[.note]] } == [["2026-04-03", "1234.50", "day first"]])
    }

    @Test func aDateTheOrderDoesNotReadIsHeldBackNamingFileRowAndValue() async throws {
        let folder = try TestWorkbook.scratch("forms")
        let environment = machine("C", tz: "America/Chicago")
        let initRun = try await CLI.run(["init"], in: folder, environment: environment)
        #expect(initRun.status == 0, "\(initRun.stderr)")
        #expect(initRun.stdout.contains("(dateOrder mdy)"), "\(initRun.stdout)")
        #expect(initRun.stdout.contains("from time zone America/Chicago"), "\(initRun.stdout)")

        let book = TestWorkbook(folder: folder)
        try type(book, date: "26/11/2026", amount: "12.50", note: "typed day first")
        let before = try book.bytes(.transactions)
        let sync = try await CLI.run(["sync", "--json"], in: folder, environment: environment)
        #expect(sync.status == 65, "\(sync.stdout)\(sync.stderr)")
        let rejected = sync.report?.rejected ?? []
        #expect(rejected.map { "\($0.code.rawValue) \($0.tab.rawValue) \($0.row)" } == ["invalid-date Transactions 2"], "\(sync.stdout)")
        #expect(
            rejected.first?.message == "'26/11/2026' is not a date: there is no month 26 (this ledger's dateOrder is mdy (month first))",
            "\(sync.stdout)")

        #expect(try storeTransactions(folder).isEmpty, "nothing guessed into the store")
        #expect(try book.bytes(.transactions) == before, "the row stays as typed")
    }

    @Test func initDateOrderChoosesAndAnExistingLedgerKeepsWhatItReads() async throws {
        let folder = try TestWorkbook.scratch("forms")
        let run = try await CLI.run(
            ["init", "--date-order", "ymd", "--decimal-separator", "."], in: folder, environment: machine("en_US.UTF-8"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("(dateOrder ymd) and amounts with a decimal '.' (decimalSeparator), as given"), "\(run.stdout)")
        let book = TestWorkbook(folder: folder)
        try type(book, date: "3/4/2026", amount: "5", note: "ambiguous")
        let sync = try await CLI.run(["sync"], in: folder, environment: machine("en_US.UTF-8"))
        #expect(sync.status == 65)
        #expect((sync.stdout + sync.stderr).contains("type it as YYYY-MM-DD (2026-03-04 or 2026-04-03)"), "\(sync.stdout)\(sync.stderr)")

        // A second init of the same ledger changes nothing unless told.
        let again = try await CLI.run(["init"], in: folder, environment: machine("de_DE.UTF-8"))
        #expect(!again.stdout.contains("dateOrder"), "\(again.stdout)")
        let status = try await CLI.run(["status", "--json"], in: folder)
        #expect(status.json?["dateOrder"] as? String == "ymd")
    }

    @Test func theDefaultsFollowTheLocaleThenTheZone() {
        func guess(_ environment: [String: String], _ zone: String) -> String {
            let forms = LocalFormsDefault.guess(environment: environment, timeZone: zone).forms
            return forms.dateOrder.rawValue + forms.decimalSeparator.rawValue
        }
        #expect(guess(["LANG": "en_US.UTF-8"], "Europe/Berlin") == "mdy.")
        #expect(guess(["LANG": "en_GB.UTF-8"], "America/New_York") == "dmy.")
        #expect(guess(["LANG": "de_DE.UTF-8"], "Etc/UTC") == "dmy,")
        #expect(guess(["LC_ALL": "fr_CH.UTF-8", "LANG": "en_US.UTF-8"], "Etc/UTC") == "dmy.")
        #expect(guess(["LANG": "ja_JP.UTF-8"], "Asia/Tokyo") == "ymd.")
        #expect(guess(["LANG": "C.UTF-8"], "America/Los_Angeles") == "mdy.")
        #expect(guess([:], "America/Mexico_City") == "dmy.")
        #expect(guess([:], "Europe/Paris") == "dmy,")
        #expect(guess([:], "Etc/UTC") == "ymd.")
    }
}
