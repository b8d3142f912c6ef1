import Foundation
import SheetSyncCore
import SheetSyncStore
import SheetValues
import Workbook

public enum ExportFormat: String, Sendable, CaseIterable {
    case csv, xlsx
}

/// `sheetsync export`: the store written as a new workbook elsewhere.
public struct LedgerExport: Sendable {
    public let workspace: Workspace

    public init(_ workspace: Workspace) { self.workspace = workspace }

    /// Writes a snapshot of the local store as a new workbook at `path` (a folder for CSV, a file for XLSX).
    /// Never over the configured workbook; over another existing workbook only with `force`.
    public func export(to path: URL, format: ExportFormat, force: Bool = false, dryRun: Bool = false) async throws -> Int {
        try refuseOverwrite(path, format: format, force: force)
        return try await workspace.withStore(preview: true) { store in
            var tables: [Tab: Table] = [:]
            var count = 0
            for tab in Tab.allCases {
                let schema = tab.schema
                // Each row's sort key is computed once (not twice per comparison).
                let records = try store.records(in: tab).map { (Self.exportKey($0, tab: tab), $0) }
                    .sorted { $0.0 < $1.0 }.map(\.1)
                count += records.count
                tables[tab] = Table(
                    header: TablePatcher.newHeader(schema),
                    rows: records.map { record in
                        schema.fields.map { Self.exportCell(FieldParser.cell(record[$0.key], $0, typed: format == .xlsx), format: format) }
                    })
            }
            if !dryRun { try Self.writeWorkbook(tables, to: path, format: format) }
            return count
        }
    }

    /// An export is a snapshot for elsewhere: writing it over the live workbook would replace hand
    /// edits not yet synced, so that is refused always, and any other workbook (or, for XLSX, any
    /// file) without `force`; so is a path of the wrong kind (a file for CSV, a folder for XLSX).
    func refuseOverwrite(_ path: URL, format: ExportFormat, force: Bool) throws {
        let config = workspace.config
        let target = path.standardizedFileURL.resolvingSymlinksInPath()
        let configured: URL?
        switch config.remote {
        case .csv(let folder): configured = folder
        case .xlsx(let file): configured = file
        case .google: configured = nil
        }
        if let configured, configured.standardizedFileURL.resolvingSymlinksInPath().path == target.path {
            throw SheetSyncError(
                .configuration,
                "\(path.path) is the configured workbook; export writes a snapshot elsewhere (use `sheetsync push` to update it)")
        }
        // Nor, even with --force, over a file the ledger lives in: the store (a backup would be its only copy
        // of unsynced changes and deleted rows), the config, or one tab file of the configured CSV workbook.
        var owned: [(URL, String)] = ["", "-wal", "-shm", ".lock"].map {
            (URL(fileURLWithPath: config.store.path + $0), "the store's file")
        }
        if let source = config.source { owned.append((source, "the config file")) }
        if case .csv(let folder) = config.remote {
            owned += Tab.allCases.map { (folder.appendingPathComponent("\($0.rawValue).csv"), "a tab file of the configured workbook") }
        }
        if let (_, what) = owned.first(where: { $0.0.standardizedFileURL.resolvingSymlinksInPath().path == target.path }) {
            throw SheetSyncError(.configuration, "\(path.path) is \(what); export writes a snapshot elsewhere: name a new path")
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder)
        switch format {
        case .csv:
            if exists && !isFolder.boolValue {
                throw SheetSyncError(
                    .configuration,
                    "\(path.path) is a file; a CSV export writes a folder of five .csv files: name a folder (a new one is made)")
            }
            let holdsWorkbook = Tab.allCases.contains {
                FileManager.default.fileExists(atPath: target.appendingPathComponent("\($0.rawValue).csv").path)
            }
            if holdsWorkbook && !force {
                throw SheetSyncError(
                    .configuration, "\(path.path) already holds a workbook; choose another path, or add --force to write over it")
            }
        case .xlsx:
            if exists && isFolder.boolValue {
                throw SheetSyncError(
                    .configuration, "\(path.path) is a folder; an XLSX export writes one file: name it, such as \(path.path)/ledger.xlsx")
            }
            if exists && !force {
                throw SheetSyncError(.configuration, "\(path.path) already exists; choose another path, or add --force to write over it")
            }
        }
    }

    /// A cell as an export holds it. An export is for other programs: a text a spreadsheet would run
    /// as a formula is neutralised (`FormulaText`, OWASP's leading `'`). An XLSX cell is a text cell
    /// already, which no program evaluates, so it stays exact.
    static func exportCell(_ cell: Cell, format: ExportFormat) -> Cell {
        guard format == .csv, case .text(let text) = cell else { return cell }
        return .text(FormulaText.neutralised(text))
    }

    /// Transactions by date then id; categories by sortOrder (unset last) then name; others by key.
    struct ExportKey: Comparable {
        var rank: Int
        var first: String
        var second: String
        static func < (a: ExportKey, b: ExportKey) -> Bool { (a.rank, a.first, a.second) < (b.rank, b.first, b.second) }
    }

    static func exportKey(_ r: LedgerRow, tab: Tab) -> ExportKey {
        switch tab {
        case .transactions: return ExportKey(rank: 0, first: r[.date], second: r[.transactionId])
        case .categories: return ExportKey(rank: Int(r[.sortOrder]) ?? Int.max, first: r[.name], second: "")
        default: return ExportKey(rank: 0, first: r[tab.schema.keyField], second: "")
        }
    }

    /// Writes whole tables as a fresh workbook, each file replaced atomically.
    static func writeWorkbook(_ tables: [Tab: Table], to path: URL, format: ExportFormat) throws {
        switch format {
        case .csv:
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            for tab in Tab.allCases {
                let file = CSVFile(
                    table: tables[tab] ?? Table(header: TablePatcher.newHeader(tab.schema)),
                    hasBOM: false, lineEnding: .lf, endsWithNewline: true)
                let url = path.appendingPathComponent("\(tab.rawValue).csv")
                let bytes = CSVWriter.encode(file)
                _ = try AtomicFile.replace(url, expecting: try FileFingerprint.of(url)) { try Data(bytes).write(to: $0) }
            }
        case .xlsx:
            let sheets = Tab.allCases.map {
                XLSXSheet(name: $0.rawValue, table: tables[$0] ?? Table(header: TablePatcher.newHeader($0.schema)))
            }
            // Like a CSV export's folder, the file's folder is made when missing.
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = try AtomicFile.replace(path, expecting: try FileFingerprint.of(path)) { try XLSXWriter.write(sheets, to: $0) }
        }
    }
}
