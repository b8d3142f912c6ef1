import Foundation
import SheetSyncCore
import Workbook

/// A CSV workbook: a folder with one `<Tab>.csv` file per tab.
public final class CSVWorkbookRemote: Remote, @unchecked Sendable {
    public let folder: URL
    public let backupsToKeep: Int
    let faults: FaultInjector?
    private let lock = NSLock()
    /// Each file as last read: its fingerprint (checked again just before a replace) and its format.
    private var readFiles: [Tab: (fingerprint: FileFingerprint?, file: CSVFile?)] = [:]

    public init(folder: URL, backupsToKeep: Int = 5, faults: FaultInjector? = nil) {
        self.folder = folder
        self.backupsToKeep = backupsToKeep
        self.faults = faults
    }

    public var displayName: String { "CSV workbook \(folder.path)" }
    public var typedCells: Bool { false }

    public func url(for tab: Tab) -> URL { folder.appendingPathComponent("\(tab.rawValue).csv") }

    public func exists() async throws -> Bool {
        try Tab.allCases.contains { try FileFingerprint.of(url(for: $0)) != nil }
    }

    public func location(of tab: Tab) -> String { url(for: tab).path }

    public func currentVersion() async throws -> String? {
        try Self.version(Tab.allCases.map { try FileFingerprint.of(url(for: $0)) })
    }

    public func read() async throws -> RemoteSnapshot {
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw SheetSyncError.configuration("CSV workbook folder \(folder.path) does not exist")
        }
        var tables: [Tab: Table] = [:]
        var files: [Tab: (FileFingerprint?, CSVFile?)] = [:]
        for tab in Tab.allCases {
            // The fingerprint of exactly the bytes parsed: a save in between cannot slip through.
            let read: (file: CSVFile, fingerprint: FileFingerprint)?
            do { read = try CSVReader.readIfPresent(url(for: tab)) } catch {
                throw SheetSyncError.data("\(error)")
            }
            guard let (file, fingerprint) = read else {
                files[tab] = (nil, nil)
                continue
            }
            tables[tab] = file.table
            files[tab] = (fingerprint, file)
        }
        lock.withLock { readFiles = files }
        return RemoteSnapshot(tables: tables, version: Self.version(Tab.allCases.map { files[$0]?.0 ?? nil }))
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> String {
        let files = lock.withLock { readFiles }
        for plan in plans where plan.changesRemote {
            try Task.checkCancellation()  // between tabs: a safe point for SIGINT/SIGTERM
            let tab = plan.tab
            let old = snapshot.tables[tab] ?? Table(header: TablePatcher.newHeader(tab.schema))
            let new = TablePatcher.apply(plan, to: old, schema: tab.schema, typed: false)
            guard new != old || snapshot.tables[tab] == nil else { continue }
            let format = files[tab]?.file
            let file = CSVFile(
                table: new, hasBOM: format?.hasBOM ?? false, lineEnding: format?.lineEnding ?? .lf,
                endsWithNewline: format?.endsWithNewline ?? true)
            try replace(tab, with: CSVWriter.encode(file), expecting: files[tab]?.fingerprint)
        }
        return try await currentVersion() ?? ""
    }

    public func create(settings: Record) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for tab in Tab.allCases where try FileFingerprint.of(url(for: tab)) == nil {
            var table = Table(header: TablePatcher.newHeader(tab.schema))
            if tab == .settings {
                table.rows = [tab.schema.fields.map { FieldParser.cell(settings[$0.name], $0, typed: false) }]
            }
            let file = CSVFile(table: table, hasBOM: false, lineEnding: .lf, endsWithNewline: true)
            try replace(tab, with: CSVWriter.encode(file), expecting: nil)
        }
    }

    private func replace(_ tab: Tab, with bytes: [UInt8], expecting: FileFingerprint?) throws {
        do {
            // Written with write(2), so a full disk is ENOSPC with the path rather than a Foundation error.
            _ = try AtomicFile.replace(url(for: tab), with: bytes, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults)
        } catch let error as AtomicFileError {
            throw SheetSyncError.replacing(error)
        }
    }

    static func version(_ fingerprints: [FileFingerprint?]) -> String {
        fingerprints.map { $0.map { String($0.contentHash, radix: 16) + ":" + String($0.size) } ?? "-" }.joined(separator: ",")
    }
}
