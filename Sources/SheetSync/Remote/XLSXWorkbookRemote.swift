import Foundation
import SheetSyncCore
import SheetValues
import Workbook

/// An `.xlsx` workbook file with the five tabs as sheets; the user's other sheets are kept.
public struct XLSXWorkbookRemote: Remote {
    public let file: URL
    public let backupsToKeep: Int
    let faults: FaultInjector?
    /// How a file the reader or writer refuses (damaged, encrypted, a bomb) ends the run: 78 for
    /// the configured remote, which the user must fix before anything syncs; 65 for a file named
    /// on the command line (`check PATH`, `import PATH`), which is data handed in.
    let refusal: ProcessExitCode

    public init(file: URL, backupsToKeep: Int = 5, faults: FaultInjector? = nil, refusal: ProcessExitCode = .configuration) {
        self.file = file
        self.refusal = refusal
        self.backupsToKeep = backupsToKeep
        self.faults = faults
    }

    /// Workbook, macro-enabled workbook and the two template kinds: the same package inside.
    public static let fileExtensions: Set<String> = ["xlsx", "xlsm", "xltx", "xltm"]

    public static func isWorkbookFile(_ url: URL) -> Bool { fileExtensions.contains(url.pathExtension.lowercased()) }

    public var displayName: String { "XLSX workbook \(file.path)" }
    public var lockFile: URL? { file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).sheetsync.lock") }
    public var typedCells: Bool { true }
    /// Receipt files sit in `Receipts/` beside the workbook file.
    public var receiptStorage: ReceiptStorage { .folder(file.deletingLastPathComponent().appendingPathComponent("Receipts")) }

    /// Whether the file is there (looked up, not read: a read follows).
    public func exists() async throws -> Bool { FileManager.default.fileExists(atPath: file.path) }

    public func location(of tab: Tab) -> String { "sheet '\(tab.rawValue)' of \(file.path)" }

    public func currentVersion() async throws -> String? {
        try FileFingerprint.of(file).map(Self.version)
    }

    /// A workbook problem as a run outcome: refused (`refusal`), with the kind's code and hint.
    private func failure(_ error: XLSXError) -> SheetSyncError {
        SheetSyncError.refusing(error, exitCode: refusal)
    }

    public func read() async throws -> RemoteSnapshot {
        guard let fingerprint = try FileFingerprint.of(file) else {
            throw SheetSyncError.configuration("XLSX workbook \(file.path) does not exist").coded(.workbookMissing)
        }
        let contents: XLSXWorkbookContents
        do {
            contents = try XLSXReader.readWithWarnings(contentsOf: file, sheets: Set(Tab.allCases.map(\.rawValue)))
        } catch let error as XLSXError {
            throw failure(error)
        } catch {
            throw SheetSyncError(refusal, "\(file.path): \(error)")
        }
        // The reader parsed the version of the file it opened; the version recorded must be that one.
        // A file another program saved between the fingerprint and the end of the read is read again,
        // whole, next run.
        guard let after = try FileFingerprint.of(file), after.hasSameContent(as: fingerprint) else {
            throw SheetSyncError(
                .temporaryFailure, "\(file.path): the file was replaced while it was being read; run again (nothing was changed)"
            ).coded(.changedMeanwhile)
        }
        var tables: [Tab: Table] = [:]
        // Each tab's sheet name as the workbook spells it (matched ignoring case).
        var names: [Tab: String] = [:]
        for sheet in contents.sheets {
            if let tab = Tab.allCases.first(where: { $0.rawValue.lowercased() == sheet.name.lowercased() }) {
                tables[tab] = XLSXDateCells.settle(sheet.table, schema: tab.schema, uses1904: contents.uses1904)
                names[tab] = sheet.name
            }
        }
        var snapshot = RemoteSnapshot(
            tables: tables, version: Self.version(fingerprint),
            notices: contents.warnings.map { .notice(.workbookNote, at: .file(file.lastPathComponent), $0) },
            marks: XLSXReadMarks(fingerprint: fingerprint, sheetNames: names))
        snapshot.rewritesCanonically = tables.contains { XLSXRetyping.hasRetypable($0.value, schema: $0.key.schema) }
        snapshot.savedAt = tables.mapValues { _ in Timestamp(modificationOf: fingerprint) }
        return snapshot
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite {
        let marks = try snapshot.marks(XLSXReadMarks.self, readBy: self)
        let (expected, sheetNames) = (marks.fingerprint, marks.sheetNames)
        var patches: [WorksheetPatch] = []
        var added: [XLSXSheet] = []
        var retyped: [SyncIssue] = []
        for plan in plans {
            guard let old = snapshot.tables[plan.tab] else {
                guard plan.changesRemote else { continue }
                let new = TablePatcher.apply(
                    plan, to: Table(header: TablePatcher.newHeader(plan.tab.schema)), schema: plan.tab.schema, typed: true)
                added.append(XLSXSheet(name: plan.tab.rawValue, table: new))
                continue
            }
            let planned = TablePatcher.changes(plan, to: old, schema: plan.tab.schema, typed: true)
            let changes = XLSXRetyping.changes(old, plan: plan, adding: planned)
            guard !changes.isEmpty else { continue }
            if changes.cells.count > planned.cells.count {
                retyped.append(
                    .notice(
                        .workbookNote, at: IssuePlace(file: file.lastPathComponent, tab: plan.tab),
                        "\(changes.cells.count - planned.cells.count) amount(s) or date(s) typed as text written back as number or date cells"
                    ))
            }
            var patch = WorksheetPatch(
                sheet: sheetNames[plan.tab] ?? plan.tab.rawValue, changes: changes, dataRowCount: old.rows.count,
                ledgerColumns: Self.ledgerColumns(old.header, changes, plan.tab.schema))
            patch.frozenRows = Set(plan.rejections.map(\.row))
            patches.append(patch)
        }
        guard !patches.isEmpty || !added.isEmpty else { return RemoteWrite(version: snapshot.version) }
        var report = WorksheetPatchReport()
        try replace(expecting: expected) { temp in
            do {
                report = try XLSXWriter.patch(self.file, to: temp, patches: patches, adding: added)
            } catch let error as XLSXError {
                throw self.failure(error)
            }
        }
        // Amounts and dates retyped from text, and formulas whose cells took a value sheetsync wrote, are worth telling.
        return RemoteWrite(
            version: try await currentVersion() ?? "",
            notices: retyped + report.replacedFormulas.map { .notice(.workbookNote, at: .file(file.lastPathComponent), $0) })
    }

    /// The 1-based columns holding schema fields (including columns the patch adds).
    static func ledgerColumns(_ header: [String], _ changes: TableChanges, _ schema: TabSchema) -> Set<Int> {
        let names = Set(schema.fields.map { $0.header.lowercased() })
        var columns = Set(
            header.enumerated().filter { names.contains($0.element.trimmingCharacters(in: .whitespaces).lowercased()) }.map {
                $0.offset + 1
            })
        columns.formUnion(changes.newColumns.map { $0.index + 1 })
        return columns
    }

    public func create(settings: LedgerRow) async throws -> CreatedWorkbook {
        guard try FileFingerprint.of(file) == nil else { return CreatedWorkbook(remote: self) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let sheets = Tab.allCases.map { tab in
            var table = Table(header: TablePatcher.newHeader(tab.schema))
            if tab == .settings { table.rows = [tab.schema.fields.map { FieldParser.cell(settings[$0.key], $0, typed: true) }] }
            return XLSXSheet(name: tab.rawValue, table: table)
        }
        try replace(expecting: nil) { temp in try XLSXWriter.write(sheets, to: temp) }
        return CreatedWorkbook(remote: self)
    }

    private func replace(expecting: FileFingerprint?, write: (URL) throws -> Void) throws {
        do {
            _ = try AtomicFile.replace(file, expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, write: write)
        } catch let error as AtomicFileError {
            throw SheetSyncError.replacing(error)
        }
    }

    static func version(_ fingerprint: FileFingerprint) -> String {
        String(fingerprint.contentHash, radix: 16) + ":" + String(fingerprint.size)
    }
}

extension Timestamp {
    /// A file's modification time, to the millisecond.
    init(modificationOf fingerprint: FileFingerprint) {
        self.init(millisecondsSinceEpoch: fingerprint.modificationTimeNanoseconds / 1_000_000)
    }
}

/// What an `.xlsx` workbook's read noted: the file's fingerprint and each tab's sheet name as the
/// workbook spells it.
public struct XLSXReadMarks: ReadMarks {
    public var fingerprint: FileFingerprint
    public var sheetNames: [Tab: String]
}
