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
    private let edits: [Int: [CellChange]]
    private let deleted: Set<Int>

    /// Nil when `old` kept no bytes or the header changes: the caller encodes the whole table.
    public init?(_ old: CSVFile, _ changes: TableChanges) {
        guard let source = old.source, changes.newColumns.isEmpty, old.recordRanges.count == old.table.rowCount + 1 else {
            return nil
        }
        self.old = old
        self.source = source
        self.changes = changes
        edits = Dictionary(grouping: changes.cells, by: \.row)
        deleted = Set(changes.deletedRows)
    }

    /// Whether the new file's bytes are the old file's: no row deleted or added, and every changed
    /// cell already held its new value.
    public var changesNothing: Bool {
        deleted.isEmpty && changes.appendedRows.isEmpty && edits.keys.allSatisfy { newCells(of: $0) == nil }
    }

    /// Hands the new file to `sink` in chunks: runs of unchanged rows as slices of the bytes read
    /// (not copied), everything else encoded into chunks of about `chunkSize` bytes.
    public func write(chunkSize: Int = CSVStreamWriter.defaultChunkSize, to sink: (ArraySlice<UInt8>) throws -> Void) rethrows {
        var out: [UInt8] = []
        out.reserveCapacity(min(chunkSize, source.count) + 4096)
        var encoder = CSVRecordEncoder(lineEnding: old.lineEnding)
        let ending = old.lineEnding.bytes
        // The unchanged rows waiting to go out as one slice of `source`.
        var run = 0..<0
        func flush() throws {
            if !out.isEmpty {
                try sink(out[...])
                out.removeAll(keepingCapacity: true)
            }
            if !run.isEmpty { try sink(source[run]) }
            run = 0..<0
        }
        if old.hasBOM { CSVRecordEncoder.appendBOM(into: &out) }
        encoder.appendRecord(bytes: source[old.recordRanges[0]], isBlank: old.table.header.isEmpty, into: &out)
        for index in 0..<old.table.rowCount where !deleted.contains(index) {
            let record = old.recordRanges[index + 1]
            if let cells = newCells(of: index) {
                if !run.isEmpty { try flush() }
                encoder.appendRecord(cells, into: &out)
            } else if record.lowerBound >= ending.count,
                source[(record.lowerBound - ending.count)..<record.lowerBound].elementsEqual(ending)
            {
                // The line ending before it and the row, as the encoder would put them: copied as read.
                let bytes = (record.lowerBound - ending.count)..<record.upperBound
                if run.isEmpty || run.upperBound != bytes.lowerBound {
                    try flush()
                    run = bytes
                } else {
                    run = run.lowerBound..<bytes.upperBound
                }
                encoder.appendedRecord(isBlank: record.isEmpty)
                continue
            } else {
                if !run.isEmpty { try flush() }
                encoder.appendRecord(bytes: source[record], isBlank: record.isEmpty, into: &out)
            }
            if out.count >= chunkSize {
                try sink(out[...])
                out.removeAll(keepingCapacity: true)
            }
        }
        try flush()
        for row in changes.appendedRows { encoder.appendRecord(row, into: &out) }
        encoder.finish(endsWithNewline: old.endsWithNewline, into: &out)
        if !out.isEmpty { try sink(out[...]) }
    }

    /// Row `index` with its changed cells set (padded to reach them); nil when it has none or they
    /// leave it as it was.
    private func newCells(of index: Int) -> [Cell]? {
        guard let rowEdits = edits[index] else { return nil }
        let before = old.table.row(index)
        var cells = before
        for edit in rowEdits {
            if cells.count <= edit.column { cells += Array(repeating: .empty, count: edit.column + 1 - cells.count) }
            cells[edit.column] = edit.cell
        }
        return cells == before ? nil : cells
    }
}
