import SheetSyncCore

/// A CSV file as read with a tab plan's cell changes carried out, written by streaming the bytes it
/// was read from: a row without a changed cell is copied as the person or program wrote it (its
/// quoting kept), a changed row is encoded, deleted rows are left out and new rows appended. Neither
/// the old nor the new table is decoded whole, and the new file is never held whole in memory: a
/// sync that changes one row of a million costs a copy of the file through a small buffer.
public struct CSVPatch {
    private let old: CSVFile
    private let source: [UInt8]
    private let changes: TableChanges
    /// Each row the changes leave otherwise than it was, with its new cells.
    private let changed: [Int: [Cell]]
    private let deleted: Set<Int>

    /// Nil when `old` kept no bytes or the header changes: the caller encodes the whole table.
    public init?(_ old: CSVFile, _ changes: TableChanges) {
        guard let source = old.source, changes.newColumns.isEmpty, old.recordRanges.count == old.table.rowCount + 1 else {
            return nil
        }
        self.old = old
        self.source = source
        self.changes = changes
        deleted = Set(changes.deletedRows)
        var changed: [Int: [Cell]] = [:]
        for (row, edits) in Dictionary(grouping: changes.cells, by: \.row) { changed[row] = Self.newCells(edits, of: row, in: old.table) }
        self.changed = changed
    }

    /// Whether the new file's bytes are the old file's: no row deleted or added, and every changed
    /// cell already held its new value.
    public var changesNothing: Bool {
        deleted.isEmpty && changes.appendedRows.isEmpty && changed.isEmpty
    }

    /// Hands the new file to `sink` in chunks: runs of unchanged rows as slices of the bytes read
    /// (not copied), everything else encoded into chunks of about `chunkSize` bytes.
    public func write(chunkSize: Int = CSVStreamWriter.defaultChunkSize, to sink: (ArraySlice<UInt8>) throws -> Void) rethrows {
        var out: [UInt8] = []
        out.reserveCapacity(min(chunkSize, source.count) + 4096)
        var encoder = CSVRecordEncoder(lineEnding: old.lineEnding)
        let ending = old.lineEnding.bytes
        func flushEncoded(atLeast size: Int) throws {
            guard !out.isEmpty, out.count >= size else { return }
            try sink(out[...])
            out.removeAll(keepingCapacity: true)
        }
        // A slice of the bytes read, after whatever was encoded before it.
        func emit(_ run: Range<Int>) throws {
            guard !run.isEmpty else { return }
            try flushEncoded(atLeast: 1)
            try sink(source[run])
        }
        // Rows `rows`, none changed, each with the line ending before it as the encoder would put it:
        // copied from the bytes read, as one slice when every separator is the file's.
        func copy(_ rows: Range<Int>) throws {
            guard let first = rows.first, let last = rows.last else { return }
            if old.lineEndingsUniform {
                encoder.appendedRecords(rows.count, lastIsBlank: old.recordRanges[last + 1].isEmpty)
                return try emit((old.recordRanges[first + 1].lowerBound - ending.count)..<old.recordRanges[last + 1].upperBound)
            }
            var run = 0..<0
            for index in rows {
                let record = old.recordRanges[index + 1]
                let start = record.lowerBound - ending.count
                guard start >= 0, source[start..<record.lowerBound].elementsEqual(ending) else {
                    // Read after another separator: written with the file's, as a whole rewrite writes it.
                    try emit(run)
                    run = 0..<0
                    encoder.appendRecord(bytes: source[record], isBlank: record.isEmpty, into: &out)
                    try flushEncoded(atLeast: chunkSize)
                    continue
                }
                if run.isEmpty || run.upperBound != start {
                    try emit(run)
                    run = start..<record.upperBound
                } else {
                    run = run.lowerBound..<record.upperBound
                }
                encoder.appendedRecords(1, lastIsBlank: record.isEmpty)
            }
            try emit(run)
        }
        if old.hasBOM { CSVRecordEncoder.appendBOM(into: &out) }
        encoder.appendRecord(bytes: source[old.recordRanges[0]], isBlank: old.table.header.isEmpty, into: &out)
        // The rows the plan deletes or changes, in order; every row between them is copied.
        let touched = Set(changed.keys).union(deleted).sorted()
        var next = 0
        for index in touched where index < old.table.rowCount {
            try copy(next..<index)
            next = index + 1
            guard !deleted.contains(index), let cells = changed[index] else { continue }
            encoder.appendRecord(cells, into: &out)
            try flushEncoded(atLeast: chunkSize)
        }
        try copy(next..<old.table.rowCount)
        for row in changes.appendedRows { encoder.appendRecord(row, into: &out) }
        encoder.finish(endsWithNewline: old.endsWithNewline, into: &out)
        try flushEncoded(atLeast: 1)
    }

    /// Row `index` with its changed cells set (padded to reach them); nil when it has none or they
    /// leave it as it was.
    private static func newCells(_ rowEdits: [CellChange], of index: Int, in table: Table) -> [Cell]? {
        let before = table.row(index)
        var cells = before
        for edit in rowEdits {
            if cells.count <= edit.column { cells += Array(repeating: .empty, count: edit.column + 1 - cells.count) }
            cells[edit.column] = edit.cell
        }
        return cells == before ? nil : cells
    }
}
