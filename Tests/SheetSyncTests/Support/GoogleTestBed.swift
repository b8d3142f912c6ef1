import Foundation
import GoogleAPI
import Interchange
import Logging
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetValues
import SheetsEmulator
import Synchronization
import Testing

/// A Sheets emulator on a free local port, a service account for it (credentials file 0600) and a
/// scratch folder holding `sheetsync.json` (`endpoint` = the emulator), as a user sets Google mode up.
final class GoogleTestBed: Sendable {
    let emulator: SheetsEmulator
    let folder: URL
    let account: EmulatorServiceAccount

    var configURL: URL { folder.appendingPathComponent("sheetsync.json") }
    var credentialsURL: URL { folder.appendingPathComponent("service-account.json") }
    var storeURL: URL { folder.appendingPathComponent("ledger.sqlite") }

    /// The key of every emulator's service account in this process, once the first is made: generating an
    /// RSA key is a good part of a Google model case's CPU (docs/testing.md).
    private static let serviceAccountKey = Mutex<String?>(nil)

    /// Whether `finish()` stops the emulator (a bed sharing another's leaves it running).
    private let ownsEmulator: Bool

    private init(emulator: SheetsEmulator, folder: URL, account: EmulatorServiceAccount, ownsEmulator: Bool) {
        self.emulator = emulator
        self.folder = folder
        self.account = account
        self.ownsEmulator = ownsEmulator
    }

    /// Starts the emulator (or shares `other`'s, and its account) and writes credentials and a config without
    /// `spreadsheetId` (so `init` creates one). `retryBudget` keeps retried runs short.
    /// `now` freezes a new emulator's clock at that instant (its Drive times then follow `advanceClock(by:)`).
    static func start(_ name: String, retryBudget: Double = 2, sharing other: GoogleTestBed? = nil, now: Date? = nil) async throws
        -> GoogleTestBed
    {
        let bed: GoogleTestBed
        if let other {
            bed = GoogleTestBed(
                emulator: other.emulator, folder: try TestWorkbook.scratch(name), account: other.account, ownsEmulator: false)
        } else {
            let emulator = try SheetsEmulator(now: now)
            _ = try await emulator.start(port: 0)
            let account = try emulator.makeServiceAccount(privateKeyPEM: serviceAccountKey.withLock { $0 })
            serviceAccountKey.withLock { $0 = $0 ?? account.privateKeyPEM }
            bed = GoogleTestBed(emulator: emulator, folder: try TestWorkbook.scratch(name), account: account, ownsEmulator: true)
        }
        guard
            FileManager.default.createFile(
                atPath: bed.credentialsURL.path, contents: Data(bed.account.credentialsJSON.utf8),
                attributes: [.posixPermissions: 0o600])
        else {
            throw CLI.CLIError(message: "cannot write \(bed.credentialsURL.path)")
        }
        try bed.writeConfig(spreadsheetId: nil, retryBudget: retryBudget)
        return bed
    }

    func writeConfig(spreadsheetId: String?, retryBudget: Double = 2, maxRequestBytes: Int? = nil) throws {
        var remote: [String: Any] = [
            "type": "google", "credentials": credentialsURL.lastPathComponent, "endpoint": emulator.baseURL,
            "retryBudgetSeconds": retryBudget,
        ]
        remote["spreadsheetId"] = spreadsheetId
        remote["maxRequestBytes"] = maxRequestBytes
        let json: [String: Any] = ["store": storeURL.lastPathComponent, "timezone": "UTC", "remote": remote]
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]).write(to: configURL)
    }

    /// The config's `spreadsheetId` (written by `init`).
    func spreadsheetId() throws -> String {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: configURL)) as? [String: Any]
        guard let id = (json?["remote"] as? [String: Any])?["spreadsheetId"] as? String else {
            throw CLI.CLIError(message: "\(configURL.path) has no remote.spreadsheetId")
        }
        return id
    }

    /// Runs the built `sheetsync` in the scratch folder (it finds `./sheetsync.json`).
    @discardableResult
    func cli(_ arguments: String...) async throws -> CLI.Result { try await CLI.run(arguments, in: folder) }

    func config() throws -> Config { try Config.load(configURL) }

    func store() throws -> LedgerStore { try LedgerStore(path: storeURL.path) }

    /// A remote over the emulator built as `sheetsync` builds it, but in-process: retries never sleep for real.
    func remote(policy: RetryPolicy = RetryPolicy(totalBudget: 30), clock: any APIClock = ManualAPIClock(now: Date())) throws
        -> GoogleSheetsRemote
    {
        let credentials = try GoogleCredentials.load(path: credentialsURL.path)
        let client = try GoogleClient(
            credentials: credentials, endpoints: GoogleEndpoints(endpoint: URL(string: emulator.baseURL)),
            policy: policy, clock: clock, random: FixedRandomSource([0.5]))
        return GoogleSheetsRemote(client: client, spreadsheetId: try spreadsheetId(), logger: Logger(label: "test"))
    }

    /// One in-process sync of the store with `remote` (a fresh remote is a fresh process: it fetches a token).
    @discardableResult
    func sync(
        _ remote: any Remote, clock: any WallClock = SystemClock(), newID: @escaping @Sendable () -> String = RandomIDs.make,
        mode: SyncMode = .sync, allowMassDelete: Bool = false
    ) async throws -> SyncReport {
        try await SyncEngine(store: try store(), remote: remote, clock: clock, newID: newID, defaultTimeZone: "UTC").run(
            SyncOptions(mode: mode, allowMassDelete: allowMassDelete))
    }

    /// A tab's values as `values.batchGet` shows them, straight from the emulator (no request).
    func values(_ tab: Tab) throws -> [[EmulatedValue]] {
        try emulator.rows(spreadsheetId: try spreadsheetId(), tab: tab.rawValue)
    }

    /// A tab as sync reads it: header and typed cells, from the emulator's state (no request).
    func table(_ tab: Tab) throws -> Table {
        let rows = try values(tab).map { $0.map(Self.cell) }
        return Table(header: rows.first?.map(\.rawText) ?? [], rows: Array(rows.dropFirst()))
    }

    /// The tab's loadable rows by key, parsed as sync parses them.
    func sheetRecords(_ tab: Tab, now: Timestamp = Timestamp(Date())) throws -> [String: LedgerRow] {
        let (_, rows) = try TabReader.read(try table(tab), schema: tab.schema, seenAt: now)
        var out: [String: LedgerRow] = [:]
        for row in rows {
            if case .record(let r, _) = row.outcome { out[r[tab.schema.keyField]] = r }
        }
        return out
    }

    /// The store's rows by key, parsed with the same tolerant rules.
    func storeRecords(_ tab: Tab) throws -> [String: LedgerRow] {
        var out: [String: LedgerRow] = [:]
        let now = Timestamp(Date())
        for raw in try store().records(in: tab) {
            let (outcome, _) = TabReader.parse(schema: tab.schema, seenAt: now) { raw[$0].isEmpty ? .empty : .text(raw[$0]) }
            if case .record(let r, _) = outcome { out[r[tab.schema.keyField]] = r }
        }
        return out
    }

    /// The column index of a header (trimmed, case-insensitive), as sync matches columns.
    func column(_ name: String, in tab: Tab) throws -> Int {
        guard let c = try table(tab).header.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() })
        else { throw CLI.CLIError(message: "no column '\(name)' in tab \(tab.rawValue)") }
        return c
    }

    /// The 0-based sheet row (header = 0) holding `key` in the key column.
    func rowIndex(of key: String, in tab: Tab) throws -> Int? {
        let k = try column(tab.schema.keyField.rawValue, in: tab)
        return try values(tab).firstIndex { k < $0.count && $0[k] == .string(key) }
    }

    /// A1 reference of a cell (0-based row and column).
    static func a1(row: Int, column: Int) -> String { A1.columnLetters(column) + String(row + 1) }

    static func cell(_ value: EmulatedValue) -> Cell {
        switch value {
        case .empty: return .empty
        case .string(let s): return .text(s)
        case .bool(let b): return .bool(b)
        case .formula(let f): return .text(f)
        case .number(let n):
            // A whole serial prints without a fraction, as the Sheets API's JSON does.
            return n == n.rounded() && abs(n) < 1e15 ? .number(String(Int64(n))) : .number(String(n))
        }
    }

    /// Every request so far broke no discovery-document rule; then stops the emulator.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(emulator.violations.isEmpty, "discovery violations: \(emulator.violations)", sourceLocation: sourceLocation)
        if ownsEmulator { await emulator.stop() }
        try? FileManager.default.removeItem(at: folder)
    }
}
