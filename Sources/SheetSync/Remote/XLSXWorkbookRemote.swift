import Foundation
import SheetSyncCore
import Workbook

/// An `.xlsx` workbook file with the five tabs as sheets; the user's other sheets are kept.
public final class XLSXWorkbookRemote: Remote, @unchecked Sendable {
    public let file: URL
    public let backupsToKeep: Int
    let faults: FaultInjector?
    private let lock = NSLock()
    private var readFingerprint: FileFingerprint?

    public init(file: URL, backupsToKeep: Int = 5, faults: FaultInjector? = nil) {
        self.file = file
        self.backupsToKeep = backupsToKeep
        self.faults = faults
    }

    public var displayName: String { "XLSX workbook \(file.path)" }
    public var typedCells: Bool { true }

    public func exists() async throws -> Bool { try FileFingerprint.of(file) != nil }

    public func location(of tab: Tab) -> String { "sheet '\(tab.rawValue)' of \(file.path)" }

    public func currentVersion() async throws -> String? {
        try FileFingerprint.of(file).map(Self.version)
    }

    public func read() async throws -> RemoteSnapshot {
        guard let fingerprint = try FileFingerprint.of(file) else {
            throw SheetSyncError.configuration("XLSX workbook \(file.path) does not exist")
        }
        let sheets: [XLSXSheet]
        do { sheets = try XLSXReader.read(contentsOf: file, sheets: Set(Tab.allCases.map(\.rawValue))) } catch {
            throw SheetSyncError.data("\(error)")
        }
        var tables: [Tab: Table] = [:]
        for sheet in sheets {
            if let tab = Tab.allCases.first(where: { $0.rawValue.lowercased() == sheet.name.lowercased() }) {
                tables[tab] = sheet.table
            }
        }
        lock.withLock { readFingerprint = fingerprint }
        return RemoteSnapshot(tables: tables, version: Self.version(fingerprint))
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> String {
        var changed: [XLSXSheet] = []
        for plan in plans where plan.changesRemote {
            let old = snapshot.tables[plan.tab] ?? Table(header: TablePatcher.newHeader(plan.tab.schema))
            let new = TablePatcher.apply(plan, to: old, schema: plan.tab.schema, typed: true)
            if new != old || snapshot.tables[plan.tab] == nil { changed.append(XLSXSheet(name: plan.tab.rawValue, table: new)) }
        }
        guard !changed.isEmpty else { return snapshot.version }
        let expected = lock.withLock { readFingerprint }
        try replace(expecting: expected) { temp in
            try XLSXWriter.write(changed, to: temp, preservingOtherSheetsFrom: self.file)
        }
        return try await currentVersion() ?? ""
    }

    public func create(settings: Record) async throws {
        guard try FileFingerprint.of(file) == nil else { return }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let sheets = Tab.allCases.map { tab in
            var table = Table(header: TablePatcher.newHeader(tab.schema))
            if tab == .settings { table.rows = [tab.schema.fields.map { FieldParser.cell(settings[$0.name], $0, typed: true) }] }
            return XLSXSheet(name: tab.rawValue, table: table)
        }
        try replace(expecting: nil) { temp in try XLSXWriter.write(sheets, to: temp) }
    }

    private func replace(expecting: FileFingerprint?, write: (URL) throws -> Void) throws {
        do {
            _ = try AtomicFile.replace(file, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, write: write)
        } catch let error as AtomicFileError {
            throw SheetSyncError.temporary("\(error); the next run merges the new version")
        }
    }

    static func version(_ fingerprint: FileFingerprint) -> String {
        String(fingerprint.contentHash, radix: 16) + ":" + String(fingerprint.size)
    }
}
