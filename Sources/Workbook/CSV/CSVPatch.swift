import SheetValues

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
        var out = Output(source: source, lineEnding: old.lineEnding, chunkSize: chunkSize)
        if old.hasBOM { CSVRecordEncoder.appendBOM(into: &out.encoded) }
        out.encoder.appendRecord(bytes: source[old.recordRanges[0]], isBlank: old.table.header.isEmpty, into: &out.encoded)
        // The rows the plan deletes or changes, in order; every row between them is copied.
        let touched = Set(changed.keys).union(deleted).sorted()
        var next = 0
        for index in touched where index < old.table.rowCount {
            try copy(next..<index, into: &out, to: sink)
            next = index + 1
            guard !deleted.contains(index), let cells = changed[index] else { continue }
            out.encoder.appendRecord(cells, into: &out.encoded)
            try out.flushEncoded(atLeast: chunkSize, to: sink)
        }
        try copy(next..<old.table.rowCount, into: &out, to: sink)
        for row in changes.appendedRows { out.encoder.appendRecord(row, into: &out.encoded) }
        out.encoder.finish(endsWithNewline: old.endsWithNewline, into: &out.encoded)
        try out.flushEncoded(atLeast: 1, to: sink)
    }

    /// What `write` hands its chunks to.
    private typealias Sink = (ArraySlice<UInt8>) throws -> Void

    /// The new file on its way out: encoded records gathered into chunks, between slices of the bytes read.
    private struct Output {
        let source: [UInt8]
        let chunkSize: Int
        var encoder: CSVRecordEncoder
        var encoded: [UInt8] = []

        init(source: [UInt8], lineEnding: CSVLineEnding, chunkSize: Int) {
            (self.source, self.chunkSize) = (source, chunkSize)
            encoder = CSVRecordEncoder(lineEnding: lineEnding)
            encoded.reserveCapacity(min(chunkSize, source.count) + 4096)
        }

        mutating func flushEncoded(atLeast size: Int, to sink: Sink) rethrows {
            guard !encoded.isEmpty, encoded.count >= size else { return }
            try sink(encoded[...])
            encoded.removeAll(keepingCapacity: true)
        }

        /// A slice of the bytes read, after whatever was encoded before it.
        mutating func emit(_ run: Range<Int>, to sink: Sink) rethrows {
            guard !run.isEmpty else { return }
            try flushEncoded(atLeast: 1, to: sink)
            try sink(source[run])
        }
    }

    /// Rows `rows`, none changed, each with the line ending before it as the encoder would put it:
    /// copied from the bytes read, as one slice when every separator is the file's.
    private func copy(_ rows: Range<Int>, into out: inout Output, to sink: Sink) rethrows {
        guard let first = rows.first, let last = rows.last else { return }
        let ending = old.lineEnding.bytes
        if old.lineEndingsUniform {
            out.encoder.appendedRecords(rows.count, lastIsBlank: old.recordRanges[last + 1].isEmpty)
            return try out.emit((old.recordRanges[first + 1].lowerBound - ending.count)..<old.recordRanges[last + 1].upperBound, to: sink)
        }
        var run = 0..<0
        for index in rows {
            let record = old.recordRanges[index + 1]
            let start = record.lowerBound - ending.count
            guard start >= 0, source[start..<record.lowerBound].elementsEqual(ending) else {
                // Read after another separator: written with the file's, as a whole rewrite writes it.
                try out.emit(run, to: sink)
                run = 0..<0
                out.encoder.appendRecord(bytes: source[record], isBlank: record.isEmpty, into: &out.encoded)
                try out.flushEncoded(atLeast: out.chunkSize, to: sink)
                continue
            }
            if run.isEmpty || run.upperBound != start {
                try out.emit(run, to: sink)
                run = start..<record.upperBound
            } else {
                run = run.lowerBound..<record.upperBound
            }
            out.encoder.appendedRecords(1, lastIsBlank: record.isEmpty)
        }
        try out.emit(run, to: sink)
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
