import Foundation
import SheetSyncCore
import SheetValues
import Workbook

/// A CSV workbook: a folder with one `<Tab>.csv` file per tab.
public struct CSVWorkbookRemote: Remote {
    public let folder: URL
    public let backupsToKeep: Int
    let faults: FaultInjector?

    public init(folder: URL, backupsToKeep: Int = 5, faults: FaultInjector? = nil) {
        self.folder = folder
        self.backupsToKeep = backupsToKeep
        self.faults = faults
    }

    public var displayName: String { "CSV workbook \(folder.path)" }
    public var typedCells: Bool { false }
    /// Receipt files sit in `Receipts/` inside the workbook folder.
    public var receiptStorage: ReceiptStorage { .folder(folder.appendingPathComponent("Receipts")) }

    public var lockFile: URL? { folder.appendingPathComponent(".sheetsync.lock") }

    public func url(for tab: Tab) -> URL { folder.appendingPathComponent("\(tab.rawValue).csv") }

    /// Whether any tab's file is there (looked up, not read: a read follows).
    public func exists() async throws -> Bool {
        Tab.allCases.contains { FileManager.default.fileExists(atPath: url(for: $0).path) }
    }

    public func location(of tab: Tab) -> String { url(for: tab).path }

    public func currentVersion() async throws -> String? {
        try Self.version(Tab.allCases.map { try FileFingerprint.of(url(for: $0)) })
    }

    public func read() async throws -> RemoteSnapshot { try await read(keyingRows: false) }

    public func read(keyingRows: Bool) async throws -> RemoteSnapshot {
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw SheetSyncError.configuration("CSV workbook folder \(folder.path) does not exist").coded(.workbookMissing)
        }
        var tables: [Tab: Table] = [:]
        var marks: [Tab: CSVReadMark] = [:]
        for tab in Tab.allCases {
            // The fingerprint of exactly the bytes parsed: a save in between cannot slip through.
            let read: (file: CSVFile, fingerprint: FileFingerprint)?
            // Each row hashed and keyed as it is read (`KeyedRowHashes`), for the change scope.
            let keying: (([String]) -> (any RowObserver)?)? =
                keyingRows ? { KeyedRowHashes(keying: RowKeying(header: $0, schema: tab.schema)) } : nil
            do { read = try CSVReader.readIfPresent(url(for: tab), observer: keying) } catch let error as AtomicFileError {
                throw SheetSyncError.replacing(error)
            } catch {
                throw SheetSyncError.data("\(error)").coded(.unreadableTab).causedBy(error)
            }
            guard let (read, fingerprint) = read else { continue }
            var file = read
            file.table.lastRowUnterminated = !file.endsWithNewline
            tables[tab] = file.table
            marks[tab] = CSVReadMark(fingerprint: fingerprint, file: file)
        }
        var snapshot = RemoteSnapshot(
            tables: tables, version: Self.version(Tab.allCases.map { marks[$0]?.fingerprint }), marks: CSVReadMarks(files: marks))
        snapshot.savedAt = marks.mapValues { Timestamp(modificationOf: $0.fingerprint) }
        return snapshot
    }

    public func apply(_ plans: [TabPlan], to snapshot: RemoteSnapshot) async throws -> RemoteWrite {
        let files = try snapshot.marks(CSVReadMarks.self, readBy: self).files
        // The version written: each file as this sync wrote it, or as it read it. Not read back from
        // disk: a save to another tab since the read must make the next sync read that tab.
        var fingerprints = files.mapValues(\.fingerprint)
        var notices: [SyncIssue] = []
        for plan in plans where plan.changesRemote {
            try Task.checkCancellation()  // between tabs: a safe point for SIGINT/SIGTERM
            let tab = plan.tab
            let old = snapshot.tables[tab] ?? Table(header: TablePatcher.newHeader(tab.schema))
            let format = files[tab]
            let changes = TablePatcher.changes(plan, to: old, schema: tab.schema, typed: false)
            notices += Self.formulaNotices(tab, changes, header: old.header)
            // Rows the plan leaves alone are copied from the bytes read: only changed rows are encoded,
            // and neither the old nor the new table is decoded whole.
            if let format, format.file.table == old, let patch = CSVPatch(format.file, changes) {
                guard !patch.changesNothing else { continue }
                fingerprints[tab] = try replace(tab, expecting: format.fingerprint) { sink in try patch.write(to: sink) }
                continue
            }
            let new = TablePatcher.apply(plan, to: old, schema: tab.schema, typed: false)
            guard new != old || snapshot.tables[tab] == nil else { continue }
            let file = CSVFile(
                table: new, hasBOM: format?.hasBOM ?? false, lineEnding: format?.lineEnding ?? .lf,
                endsWithNewline: format?.endsWithNewline ?? true)
            fingerprints[tab] = try replace(tab, with: CSVWriter.encode(file), expecting: format?.fingerprint)
        }
        return RemoteWrite(version: Self.version(Tab.allCases.map { fingerprints[$0] }), notices: notices)
    }

    /// A value this write puts into a tab file that a spreadsheet program would run as a formula when
    /// it opens the CSV (`FormulaText`: a note `=cmd|…` added with `sheetsync add`, a payee from a bank
    /// statement). It is written as it is — the workbook is the ledger itself, and the next read must
    /// give the same text back — and the run says so, naming the tab, the field and the row.
    static func formulaNotices(_ tab: Tab, _ changes: TableChanges, header: [String]) -> [SyncIssue] {
        var header = header
        for column in changes.newColumns.sorted(by: { $0.index < $1.index }) where column.index >= header.count {
            header.append(column.header)
        }
        let keyHeader = tab.schema.field(tab.schema.keyField)?.header.lowercased()
        let keyColumn = header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == keyHeader }
        var written = changes.cells.map { (key: $0.key, column: $0.column, cell: $0.cell) }
        for row in changes.appendedRows {
            let key = keyColumn.flatMap { $0 < row.count ? row[$0].rawText : nil } ?? ""
            written += row.enumerated().map { (key: key, column: $0.offset, cell: $0.element) }
        }
        return written.compactMap { change in
            guard case .text(let text) = change.cell, FormulaText.isFormulaLike(text) else { return nil }
            let field = change.column < header.count ? header[change.column] : "column \(change.column + 1)"
            return .notice(
                .formulaLikeCell, at: .file("\(tab.rawValue).csv"),
                "\(field) of \(change.key) begins with '\(text.prefix(1))' ('\(text.prefix(40))'), which a "
                    + "spreadsheet program opening the file may run as a formula; it is written as it is (docs/untrusted-input.md)")
        }
    }

    public func create(settings: LedgerRow) async throws -> CreatedWorkbook {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for tab in Tab.allCases where try FileFingerprint.of(url(for: tab)) == nil {
            var table = Table(header: TablePatcher.newHeader(tab.schema))
            if tab == .settings {
                table.rows = [tab.schema.fields.map { FieldParser.cell(settings[$0.key], $0, typed: false) }]
            }
            let file = CSVFile(table: table, hasBOM: false, lineEnding: .lf, endsWithNewline: true)
            try replace(tab, with: CSVWriter.encode(file), expecting: nil)
        }
        return CreatedWorkbook(remote: self)
    }

    @discardableResult
    private func replace(_ tab: Tab, with bytes: [UInt8], expecting: FileFingerprint?) throws -> FileFingerprint {
        try replace(tab, expecting: expecting) { sink in try sink(bytes[...]) }
    }

    private func replace(
        _ tab: Tab, expecting: FileFingerprint?, chunks: (_ sink: (ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws -> FileFingerprint {
        do {
            // Written with write(2), so a full disk is ENOSPC with the path rather than a Foundation error.
            return try AtomicFile.replaceInChunks(
                url(for: tab), expecting: expecting, backupsToKeep: backupsToKeep, faults: faults, chunks: chunks)
        } catch let error as AtomicFileError {
            throw SheetSyncError.replacing(error)
        }
    }

    static func version(_ fingerprints: [FileFingerprint?]) -> String {
        fingerprints.map { $0.map { String($0.contentHash, radix: 16) + ":" + String($0.size) } ?? "-" }.joined(separator: ",")
    }
}

/// What a CSV workbook's read noted: each tab file read, by tab.
public struct CSVReadMarks: ReadMarks {
    public var files: [Tab: CSVReadMark]
}

/// One CSV tab file as read.
public struct CSVReadMark: Sendable, Equatable {
    public var fingerprint: FileFingerprint
    /// The file as parsed, with the bytes it came from (a rewrite copies unchanged rows from them).
    public var file: CSVFile
    public var hasBOM: Bool { file.hasBOM }
    public var lineEnding: CSVLineEnding { file.lineEnding }
    public var endsWithNewline: Bool { file.endsWithNewline }

    public init(fingerprint: FileFingerprint, file: CSVFile) {
        self.fingerprint = fingerprint
        self.file = file
    }

    /// The same read: the same bytes, by their fingerprint.
    public static func == (a: CSVReadMark, b: CSVReadMark) -> Bool { a.fingerprint == b.fingerprint }
}
